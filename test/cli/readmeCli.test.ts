import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { CliIO } from "../../src/cli/CliIO.js";
import { COMMANDS } from "../../src/cli/commandTable.js";

/** The command-line page (docs/cli.md): its first code block lists every command. */
function docsCliBlock(): string {
  const page = readFileSync(join(import.meta.dirname, "..", "..", "docs", "cli.md"), "utf8");
  const start = page.indexOf("```\n");
  return page.slice(start + 4, page.indexOf("```", start + 4));
}

/** What `toolgram <name> --help` prints (commands write to the io, or to the process's standard streams). */
async function helpOf(name: string): Promise<string> {
  let text = "";
  const io: CliIO = { stdout: (t) => void (text += t), stderr: (t) => void (text += t), readText: async () => "" };
  const write = process.stdout.write.bind(process.stdout);
  const writeErr = process.stderr.write.bind(process.stderr);
  const log = console.log;
  process.stdout.write = ((chunk: string | Uint8Array) => (
    (text += String(chunk)), true
  )) as typeof process.stdout.write;
  process.stderr.write = ((chunk: string | Uint8Array) => (
    (text += String(chunk)), true
  )) as typeof process.stderr.write;
  console.log = (...args: unknown[]) => void (text += `${args.join(" ")}\n`);
  try {
    await COMMANDS[name].run(["--help"], io);
  } finally {
    process.stdout.write = write;
    process.stderr.write = writeErr;
    console.log = log;
  }
  return text;
}

describe("docs/cli.md", () => {
  const block = docsCliBlock();
  for (const name of Object.keys(COMMANDS)) {
    it(`lists \`toolgram ${name}\` with every flag its --help prints`, async () => {
      const lines = block.split("\n");
      const first = lines.findIndex((l) => l.startsWith(`toolgram ${name} `) || l === `toolgram ${name}`);
      expect(first, `docs/cli.md lists toolgram ${name}`).toBeGreaterThanOrEqual(0);
      // the command's entry: its line and the indented continuation lines
      let end = first + 1;
      while (end < lines.length && /^\s+\S/.test(lines[end])) end++;
      const entry = lines.slice(first, end).join("\n");
      const help = await helpOf(name);
      const flags = [...new Set(help.match(/--[a-z][a-z-]*/g) ?? [])].filter((f) => f !== "--help");
      expect(flags.length, `${name} --help prints its flags`).toBeGreaterThan(0);
      for (const f of flags) expect(entry, `${name}: ${f}`).toContain(f);
    });
  }
});
