import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { processIO, type CliIO } from "../../src/cli/CliIO.js";
import { runCli } from "../../src/cli/main.js";
import { compileTools } from "../../src/compile.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
/**
 * The CLI's entry as a process, run from source through tsx: bin/toolgram.js runs the build in dist/, which a clean
 * clone does not have, and building here would cost every test run a full tsc. The built bin itself is exercised on
 * the packed tarball by scripts/consumer-smoke.sh (in .ci/run).
 */
const CLI_PROCESS = ["--import", "tsx", join(ROOT, "src", "cli", "main.ts")];
const scratch = mkdtempSync(join(tmpdir(), "toolgram-cli-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const weatherPath = join(ROOT, "examples", "weather.tools.json");
const seedPath = join(ROOT, "examples", "seed.tools.json");
const weather = readFileSync(weatherPath, "utf8");

/** Text as the CLI writes it: ending in exactly one newline. */
const asFile = (t: string): string => (t.endsWith("\n") ? t : `${t}\n`);

/** Runs the CLI in-process; `stdin` is what "-" reads. */
async function cli(args: string[], stdin?: string): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = "";
  let stderr = "";
  const io: CliIO = {
    stdout: (t) => void (stdout += t),
    stderr: (t) => void (stderr += t),
    readText: (p) => (p === "-" ? Promise.resolve(stdin ?? "") : processIO.readText(p)),
  };
  const code = await runCli(args, io);
  return { code, stdout, stderr };
}

describe("toolgram CLI", () => {
  it("reads - as standard input, applies --choice/--parallel, writes -o", async () => {
    const out = join(scratch, "w.gbnf");
    const r = await cli(["compile", "-", "--choice", "get_forecast", "--parallel", "1", "-o", out], weather);
    expect(r).toEqual({ code: 0, stdout: "", stderr: "" });
    expect(readFileSync(out, "utf8")).toBe(
      asFile(compileTools(JSON.parse(weather), { toolChoice: "get_forecast", parallel: 1 }).toGbnf()),
    );
  });

  it("--format selects any parser format; an unknown one is INVALID_OPTION", async () => {
    for (const format of ["tools-array", "llama3-json", "mistral", "glaive", "pythonic"] as const) {
      const r = await cli(["compile", weatherPath, "--format", format]);
      expect(r.stdout).toBe(asFile(compileTools(JSON.parse(weather), { format }).toGbnf()));
    }
    expect((await cli(["compile", weatherPath, "--format", "no-such-format"])).stderr).toMatch(
      /^toolgram: INVALID_OPTION: unknown format/,
    );
  });

  it("--no-free-text and --parallel false reach the compiler", async () => {
    const r = await cli(["compile", weatherPath, "--no-free-text", "--parallel", "false"]);
    expect(r.stdout).toBe(asFile(compileTools(JSON.parse(weather), { freeText: false, parallel: false }).toGbnf()));
  });

  it("--whitespace N allows bounded JSON whitespace", async () => {
    const r = await cli(["compile", weatherPath, "--whitespace", "2"]);
    expect(r.stdout).toBe(
      asFile(compileTools(JSON.parse(weather), { whitespace: { flexible: { maxRun: 2 } } }).toGbnf()),
    );
    expect((await cli(["compile", weatherPath, "--whitespace", "loose"])).code).toBe(2);
    expect((await cli(["compile", weatherPath, "--whitespace", "100"])).stderr).toMatch(
      /^toolgram: INVALID_OPTION: whitespace/,
    );
  });

  it("emits json-schema and regex", async () => {
    const js = await cli(["compile", seedPath, "--emit", "json-schema"]);
    expect(js.code).toBe(0);
    expect(JSON.parse(js.stdout).anyOf).toHaveLength(2);
    const re = await cli(["compile", seedPath, "--emit=regex", "--choice", "none"]);
    expect(re.code).toBe(0);
    expect(new RegExp(re.stdout.trim(), "u").test("plain text")).toBe(true);
    expect(new RegExp(re.stdout.trim(), "u").test("<tool_call>")).toBe(false);
  });

  it("emits XGrammar's EBNF with --emit xgrammar-ebnf", async () => {
    const r = await cli(["compile", weatherPath, "--emit", "xgrammar-ebnf"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(asFile(compileTools(JSON.parse(weather)).toXGrammarEbnf()));
    expect(r.stdout).toMatch(/^root ::= /);
  });

  it("emits XGrammar's structural tag as JSON with --emit structural-tag, and refuses a format without one", async () => {
    const r = await cli(["compile", weatherPath, "--emit", "structural-tag", "--choice", "required"]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(
      compileTools(JSON.parse(weather), { toolChoice: "required" }).toStructuralTag(),
    );
    const x = await cli(["compile", weatherPath, "--emit", "structural-tag", "--format", "qwen3-coder"]);
    expect(x.code).toBe(2);
    expect(x.stderr).toMatch(/qwen3-coder cannot be written as an XGrammar structural tag/);
  });

  it("emits the Lark dialect with --emit lark", async () => {
    const r = await cli(["compile", weatherPath, "--emit", "lark"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(asFile(compileTools(JSON.parse(weather)).toLark()));
    expect(r.stdout).toMatch(/^start: /);
  });

  it("reads a <tools> text block and prints warnings on stderr", async () => {
    const text = `<tools>\n{"name": "f", "parameters": {"type": "dict", "properties": {"x": {"type": "float"}}}}\n</tools>`;
    const r = await cli(["compile", "-"], text);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain("toolgram: warning NONSTANDARD_TYPE at /parameters/type: ");
    expect(r.stdout).toContain("root ::=");
  });

  it("compiles a JSON Schema with --json", async () => {
    const r = await cli(["compile", "-", "--json"], JSON.stringify({ type: "boolean" }));
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^root ::= .*true/);
  });

  it("--property-order any writes an object's keys in any order; a bad value is a usage error", async () => {
    const schema = JSON.stringify({
      type: "object",
      properties: { a: { type: "integer" }, b: { type: "integer" } },
      additionalProperties: false,
    });
    const regexOf = async (order: string): Promise<RegExp> => {
      const r = await cli(["compile", "-", "--json", "--emit", "regex", "--property-order", order], schema);
      expect(r.code).toBe(0);
      return new RegExp(`^(?:${r.stdout.trim()})$`, "u");
    };
    expect((await regexOf("declared")).test('{"b": 1, "a": 2}')).toBe(false);
    expect((await regexOf("any")).test('{"b": 1, "a": 2}')).toBe(true);
    const bad = await cli(["compile", "-", "--json", "--property-order", "sorted"], schema);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--property-order must be declared or any, got sorted");
  });

  it("bad declarations exit 2 with CODE at PATH: message", async () => {
    const d = await cli(["compile", "-"], JSON.stringify([{ name: "a" }, { name: "a" }]));
    expect(d).toEqual({
      code: 2,
      stdout: "",
      stderr: 'toolgram: DUPLICATE_TOOL at /1: tool name "a" is declared twice (first at /0); names must be unique\n',
    });
    const bad = JSON.stringify([
      { name: "n", parameters: { type: "object", properties: { x: { type: "number", multipleOf: 0.2049 } } } },
    ]);
    const u = await cli(["compile", "-"], bad);
    expect(u.code).toBe(2);
    expect(u.stderr).toMatch(
      /^toolgram: UNSUPPORTED_KEYWORD at \/0\/parameters\/properties\/x\/multipleOf: tool "n": /,
    );
    const relaxed = await cli(["compile", "-", "--no-strict"], bad);
    expect(relaxed.code).toBe(0);
    expect(relaxed.stderr).toMatch(/^toolgram: warning /);
  });

  it("bad usage exits 2; an unknown tool in --choice is INVALID_OPTION", async () => {
    expect((await cli(["compile"])).code).toBe(2);
    expect((await cli(["compile", weatherPath, "--bogus"])).code).toBe(2);
    expect((await cli(["compile", weatherPath, "--parallel", "0"])).code).toBe(2);
    expect((await cli(["compile", weatherPath, "--emit", "ebnf"])).code).toBe(2);
    const c = await cli(["compile", weatherPath, "--choice", "nope"]);
    expect(c.code).toBe(2);
    expect(c.stderr).toMatch(/^toolgram: INVALID_OPTION: toolChoice names "nope"/);
    expect((await cli(["compile", join(scratch, "missing.json")])).stderr).toMatch(
      /^toolgram: INVALID_INPUT: cannot read/,
    );
    expect((await cli(["frobnicate"])).code).toBe(2);
  });

  it("--help lists the commands; compile --help its options", async () => {
    const h = await cli(["--help"]);
    expect(h.code).toBe(0);
    expect(h.stdout).toContain("compile");
    expect((await cli(["compile", "--help"])).stdout).toContain("--emit");
  });

  // end to end through a process, as a user runs it (each spawn pays tsx's start-up, so only a few)
  it("the CLI as a process compiles the example like the API, and prints the version", () => {
    const r = spawnSync(process.execPath, [...CLI_PROCESS, "compile", "examples/weather.tools.json"], {
      cwd: ROOT,
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(asFile(compileTools(JSON.parse(weather)).toGbnf()));
    const v = spawnSync(process.execPath, [...CLI_PROCESS, "--version"], {
      cwd: ROOT,
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(v.stdout.trim()).toBe(JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).version);
  });

  it("a bad declaration through the executable exits 2 on stderr", () => {
    const r = spawnSync(process.execPath, [...CLI_PROCESS, "compile", "-"], {
      cwd: ROOT,
      input: '[{"name": ""}]',
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(r.status).toBe(2);
    expect(r.stderr).toBe("toolgram: INVALID_TOOL at /0/name: a tool needs a non-empty string `name`\n");
  });
});
