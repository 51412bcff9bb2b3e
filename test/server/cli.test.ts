import { describe, expect, it } from "vitest";
import { runCli } from "../../src/cli/main.js";

function io() {
  const out = { stdout: "", stderr: "" };
  return {
    out,
    io: {
      stdout: (t: string) => void (out.stdout += t),
      stderr: (t: string) => void (out.stderr += t),
      readText: async () => "",
    },
  };
}

describe("toolgram serve: usage", () => {
  it("--help prints the options; a missing or doubled source is a usage error (exit 2)", async () => {
    const help = io();
    expect(await runCli(["serve", "--help"], help.io)).toBe(0);
    expect(help.out.stdout).toContain("--upstream URL");
    expect(help.out.stdout).toContain("--on-refused-tool M");
    for (const argv of [
      ["serve"],
      ["serve", "--model", "m.gguf", "--upstream", "http://127.0.0.1:1"],
      ["serve", "--model", "m.gguf", "--port", "70000"],
      ["serve", "--model", "m.gguf", "--on-refused-tool", "skip"],
    ]) {
      const bad = io();
      expect(await runCli(argv, bad.io)).toBe(2);
      expect(bad.out.stderr).toMatch(/toolgram serve: /);
    }
  });
});
