import { describe, expect, it } from "vitest";
import type { CliIO } from "../../src/cli/CliIO.js";
import { runCli } from "../../src/cli/main.js";
import { compileTools } from "../../src/compile.js";
import { ToolgramError } from "../../src/errors.js";
import { canonicalJson, type JsonObject, type JsonValue } from "../../src/json.js";

function call(name: string, args: JsonValue): string {
  return `<tool_call>\n${canonicalJson({ name, arguments: args })}\n</tool_call>`;
}

const ok: JsonObject = { name: "ok", parameters: { type: "object", properties: { a: { type: "string" } } } };
// uniqueItems over strings: not a finite domain, so no grammar enforces it
const unique: JsonObject = {
  name: "unique",
  parameters: {
    type: "object",
    properties: { xs: { type: "array", items: { type: "string" }, uniqueItems: true } },
  },
};
const bigEnum: JsonObject = {
  name: "big_enum",
  parameters: { type: "object", properties: { c: { enum: ["a", "b", "c", "d"] } } },
};

function refusal(f: () => unknown): ToolgramError {
  try {
    f();
  } catch (e) {
    if (e instanceof ToolgramError) return e;
    throw e;
  }
  throw new Error("expected a refusal");
}

describe("compileTools onRefusedTool", () => {
  it('defaults to "error": one refused tool refuses the set', () => {
    const e = refusal(() => compileTools([ok, unique]));
    expect(e.code).toBe("UNSUPPORTED_KEYWORD");
    expect(e.schemaPath).toBe("/1/parameters/properties/xs/uniqueItems");
  });

  it('"drop" serves the other tools and names the dropped one with the refusal\'s code and path', () => {
    const c = compileTools([ok, unique], { onRefusedTool: "drop" });
    expect(c.accepts(call("ok", { a: "x" }))).toBe(true);
    expect(c.accepts(call("unique", { xs: ["x"] }))).toBe(false);
    expect(c.tools.map((t) => t.name)).toEqual(["ok"]);
    expect(c.warnings).toEqual([
      expect.objectContaining({
        code: "TOOL_DROPPED",
        tool: "unique",
        refusalCode: "UNSUPPORTED_KEYWORD",
        schemaPath: "/1/parameters/properties/xs/uniqueItems",
      }),
    ]);
    expect(JSON.stringify(c.toJsonSchema())).not.toContain('"unique"');
  });

  it('"relax" compiles the refused tool as a superset, with its warnings', () => {
    const c = compileTools([ok, unique], { onRefusedTool: "relax" });
    expect(c.accepts(call("unique", { xs: ["x", "x"] }))).toBe(true);
    expect(c.warnings.map((w) => w.code)).toEqual(["OVER_APPROXIMATED", "TOOL_RELAXED"]);
    expect(c.warnings[1]).toMatchObject({ tool: "unique", refusalCode: "UNSUPPORTED_KEYWORD" });
  });

  it('"relax" drops what strict: false cannot compile either (a per-tool limit)', () => {
    const c = compileTools([ok, bigEnum], { onRefusedTool: "relax", limits: { maxEnumSize: 3 } });
    expect(c.warnings).toEqual([expect.objectContaining({ code: "TOOL_DROPPED", refusalCode: "LIMIT_ENUM_SIZE" })]);
    expect(c.accepts(call("big_enum", { c: "a" }))).toBe(false);
    expect(c.accepts(call("ok", {}))).toBe(true);
  });

  it("the compile's own step budget still refuses the set", () => {
    const e = refusal(() => compileTools([ok, unique], { onRefusedTool: "drop", limits: { maxCompileSteps: 50 } }));
    expect(e.code).toBe("LIMIT_COMPILE_STEPS");
  });

  it("a required call with every callable tool dropped is the first refusal", () => {
    expect(refusal(() => compileTools([unique], { onRefusedTool: "drop", toolChoice: "required" })).code).toBe(
      "UNSUPPORTED_KEYWORD",
    );
    expect(refusal(() => compileTools([ok, unique], { onRefusedTool: "drop", toolChoice: "unique" })).code).toBe(
      "UNSUPPORTED_KEYWORD",
    );
    // with auto, text alone remains
    const c = compileTools([unique], { onRefusedTool: "drop" });
    expect(c.accepts("hello")).toBe(true);
  });

  it("an invalid declaration is not a refusal, and a bad value is named", () => {
    const invalid: JsonObject = { name: "invalid", parameters: { type: "object", properties: { a: { type: 5 } } } };
    expect(refusal(() => compileTools([ok, invalid], { onRefusedTool: "drop" })).code).toMatch(/^INVALID/);
    const e = refusal(() => compileTools([ok], { onRefusedTool: "skip" as never }));
    expect(e.code).toBe("INVALID_OPTION");
    expect(e.message).toContain('"drop"');
  });
});

describe("toolgram compile --on-refused-tool", () => {
  async function cli(args: string[], stdin: string): Promise<{ code: number; stdout: string; stderr: string }> {
    let stdout = "";
    let stderr = "";
    const io: CliIO = {
      stdout: (t) => void (stdout += t),
      stderr: (t) => void (stderr += t),
      readText: () => Promise.resolve(stdin),
    };
    const code = await runCli(args, io);
    return { code, stdout, stderr };
  }
  const tools = JSON.stringify([ok, unique]);

  it("drops the refused tool with a warning on stderr", async () => {
    const r = await cli(["compile", "-", "--on-refused-tool", "drop"], tools);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(
      /^toolgram: warning TOOL_DROPPED at \/1\/parameters\/properties\/xs\/uniqueItems: tool "unique"/,
    );
    expect(r.stdout).toContain("root ::=");
  });

  it("refuses by default and rejects an unknown value", async () => {
    expect((await cli(["compile", "-"], tools)).code).toBe(2);
    expect((await cli(["compile", "-", "--on-refused-tool", "skip"], tools)).stderr).toContain(
      "--on-refused-tool must be error, drop or relax",
    );
  });
});
