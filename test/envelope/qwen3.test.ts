import { describe, expect, it } from "vitest";
import { compileTools, type ToolCompileOptions } from "../../src/compile.js";
import { qwen3 } from "../../src/formats/descriptions.js";
import { canonicalJson, type JsonObject } from "../../src/json.js";

const tools = [
  {
    type: "function",
    function: {
      name: "get_weather",
      parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
    },
  },
  {
    type: "function",
    function: {
      name: "get_time",
      parameters: { type: "object", properties: { tz: { type: "string", enum: ["UTC", "CET"] } } },
    },
  },
];

/** One call as Qwen3's chat template writes it. */
function call(name: string, args: JsonObject): string {
  return `${qwen3.open}\n${canonicalJson({ name, arguments: args })}\n${qwen3.close}`;
}

const w = call("get_weather", { city: "Paris" });
const t = call("get_time", { tz: "UTC" });
const t0 = call("get_time", {});

function lang(o: ToolCompileOptions = {}): (s: string) => boolean {
  const c = compileTools(tools, o);
  return (s) => c.accepts(s);
}

describe("qwen3 envelope: calls", () => {
  const ok = lang();

  it("accepts valid calls, alone, after text, and several separated by one newline", () => {
    expect(ok(w)).toBe(true);
    expect(ok(t0)).toBe(true);
    expect(ok(`Let me check.\n\n${w}`)).toBe(true);
    expect(ok(`${w}\n${t}\n${w}`)).toBe(true);
    expect(ok("Just text.")).toBe(true);
    expect(ok("")).toBe(true);
  });

  it("the name selects the arguments grammar", () => {
    expect(ok(call("get_weather", { tz: "UTC" }))).toBe(false);
    expect(ok(call("get_time", { city: "Paris" }))).toBe(false);
    expect(ok(call("get_time", { tz: "PST" }))).toBe(false);
    expect(ok(call("get_weather", {}))).toBe(false);
  });

  it("rejects unknown names, extra keys and other spellings of the envelope", () => {
    expect(ok(call("get_wether", { city: "Paris" }))).toBe(false);
    expect(ok(call("get_weather", { city: "Paris", extra: 1 }))).toBe(false);
    expect(ok(`<tool_call>\n{"arguments": {"city": "Paris"}, "name": "get_weather"}\n</tool_call>`)).toBe(false);
    expect(ok(`<tool_call>{"name": "get_weather", "arguments": {"city": "Paris"}}</tool_call>`)).toBe(false);
    expect(ok(`${w}\n\n${t}`)).toBe(false);
    expect(ok(`${w}${t}`)).toBe(false);
  });

  it("nothing after the last call", () => {
    expect(ok(`${w}\n`)).toBe(false);
    expect(ok(`${w} Done.`)).toBe(false);
  });

  it("free text never contains <tool_call>, so a broken call cannot hide in it", () => {
    expect(ok(`<tool_call>\n{"name": "get_weather", "arguments": {"city": 3}}\n</tool_call>`)).toBe(false);
    expect(ok("text <tool_call> more text")).toBe(false);
    expect(ok(`I will call <tool_call> now\n${w}`)).toBe(false);
    expect(ok("mentions </tool_call> and <tool_call without closing")).toBe(true);
  });
});

describe("qwen3 envelope: toolChoice, parallel, freeText", () => {
  it("required: at least one call, no text by default", () => {
    const ok = lang({ toolChoice: "required" });
    expect(ok(w)).toBe(true);
    expect(ok(`${w}\n${t}`)).toBe(true);
    expect(ok("")).toBe(false);
    expect(ok("Just text.")).toBe(false);
    expect(ok(`Sure.\n${w}`)).toBe(false);
    expect(lang({ toolChoice: "required", freeText: true })(`Sure.\n${w}`)).toBe(true);
  });

  it("none: text only", () => {
    const ok = lang({ toolChoice: "none" });
    expect(ok("Just text.")).toBe(true);
    expect(ok(w)).toBe(false);
  });

  it("a named tool (string or OpenAI object): only that tool, at least once", () => {
    for (const toolChoice of ["get_time", { type: "function" as const, function: { name: "get_time" } }]) {
      const ok = lang({ toolChoice });
      expect(ok(t)).toBe(true);
      expect(ok(`${t}\n${t0}`)).toBe(true);
      expect(ok(w)).toBe(false);
      expect(ok(`${t}\n${w}`)).toBe(false);
      expect(ok("")).toBe(false);
    }
  });

  it("parallel false: at most one call; N: at most N", () => {
    const one = lang({ parallel: false });
    expect(one(w)).toBe(true);
    expect(one(`text ${w}`)).toBe(true);
    expect(one(`${w}\n${t}`)).toBe(false);
    const two = lang({ parallel: 2 });
    expect(two(`${w}\n${t}`)).toBe(true);
    expect(two(`${w}\n${t}\n${w}`)).toBe(false);
  });

  it("auto with freeText: false is calls or nothing", () => {
    const ok = lang({ freeText: false });
    expect(ok(w)).toBe(true);
    expect(ok("")).toBe(true);
    expect(ok("text")).toBe(false);
  });

  it("an unknown tool in toolChoice is INVALID_OPTION", () => {
    expect(() => compileTools(tools, { toolChoice: "nope" })).toThrow(
      expect.objectContaining({ code: "INVALID_OPTION" }),
    );
  });

  it("<tool_call> and </tool_call> are token nodes in the IR", () => {
    const c = compileTools(tools);
    const s = JSON.stringify([...c.grammar.rules.values()]);
    expect(s).toContain('{"type":"token","text":"<tool_call>"}');
    expect(s).toContain('{"type":"token","text":"</tool_call>"}');
  });
});
