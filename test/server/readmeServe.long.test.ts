import { spawn, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { freePort } from "../../src/llama-cpp/llamaServerClient.js";
import { expectValidCalls } from "../support/server/serverHarness.js";

/**
 * The README's "Serve" example, run as written: the `npx toolgram serve` line starts the CLI (on a free port instead
 * of 8080), and the curl command, sent to it, answers a valid call. `npx toolgram` stands for the CLI's entry run
 * from source through tsx: the bin runs dist/, which a clean clone does not have (scripts/consumer-smoke.sh runs the
 * built bin from the packed tarball).
 */
const root = join(import.meta.dirname, "..", "..");

function readmeExample(): { serve: string; curl: string } {
  const readme = readFileSync(join(root, "README.md"), "utf8");
  const start = readme.indexOf("<!-- serve example");
  expect(start, "README has no serve example marker").toBeGreaterThan(0);
  const block = /```bash\n([\s\S]*?)```/.exec(readme.slice(start))![1];
  // the server's page shows the same first try
  expect(readFileSync(join(root, "docs", "server.md"), "utf8"), "docs/server.md shows the README's lines").toContain(
    block,
  );
  const [serve, ...curl] = block.trimEnd().split("\n");
  return { serve, curl: curl.join("\n") };
}

describe("README serve example", () => {
  it("the CLI starts, prints its address, and the curl command gets a valid tool call", async () => {
    const { serve, curl } = readmeExample();
    expect(serve).toMatch(/^npx toolgram serve .* --port 8080 &$/);
    expect(curl).toMatch(/^curl -s http:\/\/127\.0\.0\.1:8080\/v1\/chat\/completions /);
    const port = await freePort();
    const command = serve
      .replace(/ &$/, "")
      .replace("--port 8080", `--port ${port}`)
      .replaceAll("npx toolgram ", "node --import tsx src/cli/main.ts ");
    const child = spawn("bash", ["-c", `exec ${command}`], {
      cwd: root,
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    let out = "";
    let err = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.stderr.on("data", (d: Buffer) => (err += d.toString()));
    try {
      const url = await new Promise<string>((resolve, reject) => {
        child.stdout.on("data", () => {
          const m = /listening on (http:\/\/\S+)/.exec(out);
          if (m) resolve(m[1]);
        });
        child.once("exit", (code) => reject(new Error(`toolgram serve exited with ${code}: ${err.slice(-2000)}`)));
      });
      expect(url).toBe(`http://127.0.0.1:${port}`);
      const r = spawnSync("bash", ["-c", curl.replace("127.0.0.1:8080", `127.0.0.1:${port}`)], { encoding: "utf8" });
      expect(r.status, r.stderr).toBe(0);
      const body = JSON.parse(r.stdout) as {
        choices: Array<{
          finish_reason: string;
          message: { tool_calls: Array<{ function: { name: string; arguments: string } }> };
        }>;
      };
      expect(body.choices[0].finish_reason).toBe("tool_calls");
      const calls = body.choices[0].message.tool_calls;
      expect(calls.length).toBeGreaterThan(0);
      // validated against the tools the curl command itself declares
      const request = JSON.parse(/-d '([\s\S]*)'$/.exec(curl)![1]) as {
        tools: Array<{ function: { name: string; parameters: object } }>;
      };
      expectValidCalls(calls, request.tools);
    } finally {
      if (child.pid !== undefined && child.exitCode === null) process.kill(-child.pid, "SIGTERM");
    }
  }, 180_000);
});
