/**
 * The long tier's check of `toolgram types` (the quick tier compiles the committed declarations in test/parser/types
 * within `npm run typecheck` instead of starting tsc here): declarations written now type parseToolCalls<ToolCall>, a
 * good use compiles and a wrong argument type fails, in one tsc process.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";
import type { CliIO } from "../../src/cli/CliIO.js";
import { typesCommand } from "../../src/cli/commands/types.js";

const TOOLS_FILE = fileURLToPath(new URL("../fixtures/outputs/tools.json", import.meta.url));
const REPO = fileURLToPath(new URL("../..", import.meta.url));
const silentIO: CliIO = {
  stdout: () => undefined,
  stderr: () => undefined,
  readText: async (path) => readFileSync(path, "utf8"),
};

it("the declarations type parseToolCalls<ToolCall> (checked with tsc)", async () => {
  const dir = mkdtempSync(join(tmpdir(), "toolgram-types-"));
  try {
    expect(await typesCommand([TOOLS_FILE, "-o", join(dir, "tools.ts")], silentIO)).toBe(0);
    const entry = JSON.stringify(join(REPO, "src/parser/parseToolCalls.js"));
    const sample = (body: string) =>
      `import { parseToolCalls } from ${entry};\nimport type { ToolCall } from "./tools.js";\nconst r = parseToolCalls<ToolCall>("", { tools: [] });\nfor (const c of r.calls) {\n${body}\n}\n`;
    writeFileSync(
      join(dir, "good.ts"),
      sample(
        `  if (c.name === "get_weather") { const city: string = c.arguments.city; void city; }\n  else if (c.name === "search") { const n: number | undefined = c.arguments.limit; void n; }`,
      ),
    );
    writeFileSync(
      join(dir, "bad.ts"),
      sample(`  if (c.name === "get_weather") { const n: number = c.arguments.city; void n; }`),
    );
    // one tsc run over both: the good sample compiles, the bad one fails on the wrong argument type
    let output = "";
    try {
      execFileSync(
        process.execPath,
        [
          join(REPO, "node_modules/typescript/bin/tsc"),
          "--noEmit",
          "--strict",
          "--skipLibCheck",
          "--module",
          "nodenext",
          "--moduleResolution",
          "nodenext",
          "--target",
          "es2022",
          join(dir, "good.ts"),
          join(dir, "bad.ts"),
        ],
        { encoding: "utf8" },
      );
    } catch (e) {
      output = String((e as { stdout?: string }).stdout ?? e);
    }
    const errors = output.split("\n").filter((l) => /error TS/.test(l));
    expect(errors).toEqual([expect.stringMatching(/bad\.ts\(\d+,\d+\): error TS2322/)]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 60_000);
