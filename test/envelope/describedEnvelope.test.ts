import { describe, expect, it } from "vitest";
import { compileTools, type ToolCompileOptions } from "../../src/compile.js";
import { FORMAT_DESCRIPTIONS } from "../../src/formats/descriptions.js";
import { parseToolCalls } from "../../src/parser/parseToolCalls.js";
import { renderToolCalls, type CallToRender } from "../../src/parser/renderToolCalls.js";
import type { FormatName } from "../../src/formats/FormatName.js";
import { DESCRIBED_FORMATS, MIXED_TOOLS, SMALL_TOOLS, withFormatIds } from "../support/envelope/formatTools.js";

const paris: CallToRender = { name: "get_weather", arguments: { city: "Paris" } };
const oslo: CallToRender = { name: "get_weather", arguments: { city: "Oslo", unit: "c" } };
const ping: CallToRender = { name: "ping", arguments: {} };

function lang(format: FormatName, o: ToolCompileOptions = {}, tools: unknown[] = SMALL_TOOLS): (s: string) => boolean {
  const c = compileTools(tools, { format, ...o });
  return (s) => c.accepts(s);
}

/** The calls as the format writes them, with the ids its grammar requires (withFormatIds). */
const render = (calls: CallToRender[], format: FormatName): string =>
  renderToolCalls(withFormatIds(calls, format), format);

describe("every format: calls, policy and what is refused", () => {
  for (const format of DESCRIBED_FORMATS) {
    const d = FORMAT_DESCRIPTIONS[format];
    const ok = lang(format);
    const one = render([paris], format);
    const many = d.maxCalls > 1 ? render([paris, ping, oslo], format) : undefined;
    // a turn of text as the format writes it (Functionary v3.2 addresses it: `all\n…`)
    const justText = renderToolCalls([], format, { content: "Just text." });

    it(`${format}: the canonical rendering of valid calls, and plain text`, () => {
      // a unit with an idForm: its grammar requires the id (its templates write one in every call)
      if ("idForm" in d.unit && d.unit.idForm !== undefined) expect(ok(renderToolCalls([paris], format))).toBe(false);
      expect(ok(one)).toBe(true);
      if (many) expect(ok(many)).toBe(true);
      expect(ok(justText)).toBe(true);
      // the empty turn: a family that always closes its reasoning block (MiniMax M3) writes that close alone
      expect(ok(d.reasoning?.closeAlone === true ? d.reasoning.close : "")).toBe(true);
      expect(compileTools(SMALL_TOOLS, { format }).format).toBe(format);
    });

    it(`${format}: undeclared tools, invalid arguments, text after the calls are rejected`, () => {
      expect(ok(render([{ name: "get_wether", arguments: { city: "Paris" } }], format))).toBe(false);
      expect(ok(render([{ name: "get_weather", arguments: {} }], format))).toBe(false);
      expect(ok(render([{ name: "get_weather", arguments: { city: "Paris", unit: "k" } }], format))).toBe(false);
      expect(ok(render([{ name: "get_weather", arguments: { city: "Paris", extra: 1 } }], format))).toBe(false);
      // a tagged-parameter format (and MiniMax M3's elements) writes the number 3 as the text of the string "3", which city admits
      if (d.unit.kind !== "xml-parameters" && d.unit.kind !== "xml-elements")
        expect(ok(render([{ name: "get_weather", arguments: { city: 3 } }], format))).toBe(false);
      expect(ok(`${one} Done.`)).toBe(false);
      expect(ok(`${one}\n`)).toBe(false);
    });

    it(`${format}: toolChoice required / none / a named tool, parallel bounds`, () => {
      const req = lang(format, { toolChoice: "required" });
      expect(req(one)).toBe(true);
      expect(req(justText)).toBe(false);
      expect(req("")).toBe(false);
      const none = lang(format, { toolChoice: "none" });
      expect(none(justText)).toBe(true);
      expect(none(one)).toBe(false);
      const named = lang(format, { toolChoice: "ping" });
      expect(named(render([ping], format))).toBe(true);
      expect(named(one)).toBe(false);
      if (d.maxCalls > 1) {
        expect(lang(format, { parallel: false })(render([paris, ping], format))).toBe(false);
        expect(lang(format, { parallel: 2 })(render([paris, ping], format))).toBe(true);
        expect(lang(format, { parallel: 2 })(render([paris, ping, oslo], format))).toBe(false);
      }
    });

    it(`${format}: strict parsing reads the canonical renderings with zero issues`, () => {
      for (const text of [one, ...(many ? [many] : []), justText]) {
        const r = parseToolCalls(text, { tools: SMALL_TOOLS, format, mode: "strict" });
        expect(r.issues).toEqual([]);
        expect(r.dropped).toBe(0);
      }
    });
  }
});

describe("formats with an opening marker", () => {
  it("text before the calls never contains the marker", () => {
    for (const format of ["tools-array", "mistral", "glaive"] as const) {
      const open = FORMAT_DESCRIPTIONS[format].open as string;
      const ok = lang(format);
      expect(ok(`Let me check.\n${render([paris], format)}`)).toBe(true);
      expect(ok(`I will use ${open} now\n${render([paris], format)}`)).toBe(false);
      expect(ok(`text ${open} text`)).toBe(false);
      expect(ok(`mentions ${open.slice(0, -1)} only`)).toBe(true);
    }
  });

  it("list bodies are one block of at least one call; no calls is no block", () => {
    expect(lang("tools-array")("<tools>[]</tools>")).toBe(false);
    expect(lang("mistral")("[TOOL_CALLS][]")).toBe(false);
    expect(lang("mistral")(`${render([paris], "mistral")}${render([ping], "mistral")}`)).toBe(false);
  });

  it("glaive blocks are joined by one newline", () => {
    const ok = lang("glaive");
    expect(ok(render([paris, ping], "glaive"))).toBe(true);
    expect(ok(`${render([paris], "glaive")}\n\n${render([ping], "glaive")}`)).toBe(false);
  });

  it("an optional id of 1-64 characters [A-Za-z0-9_-] after the name (tools-array, mistral)", () => {
    for (const format of ["tools-array", "mistral"] as const) {
      const ok = lang(format);
      expect(
        ok(
          render(
            [
              { ...paris, id: "a1B2c3D4e" },
              { ...ping, id: "call_0-x" },
            ],
            format,
          ),
        ),
      ).toBe(true);
      expect(ok(render([{ ...paris, id: "x".repeat(64) }], format))).toBe(true);
      expect(ok(render([{ ...paris, id: "x".repeat(65) }], format))).toBe(false);
      expect(ok(render([{ ...paris, id: "a b" }], format))).toBe(false);
      expect(ok(render([{ ...paris, id: "" }], format))).toBe(false);
    }
    expect(lang("glaive")(`<functioncall> {"name": "get_weather", "id": "a", "arguments": '{"city": "Paris"}'}`)).toBe(
      false,
    );
  });

  it("mistral's [TOOL_CALLS] is a special token node; the other formats' markers are text", () => {
    const ir = (format: FormatName): string =>
      JSON.stringify([...compileTools(SMALL_TOOLS, { format }).grammar.rules.values()]);
    expect(ir("mistral")).toContain('{"type":"token","text":"[TOOL_CALLS]"}');
    for (const format of ["tools-array", "glaive", "llama3-json", "pythonic"] as const)
      expect(ir(format)).not.toContain('"type":"token"');
  });
});

describe("formats whose call is the whole reply (llama3-json, pythonic)", () => {
  it("llama3-json carries one call whatever parallel says", () => {
    for (const parallel of [true, 3]) {
      const ok = lang("llama3-json", { parallel });
      const one = render([paris], "llama3-json");
      expect(ok(one)).toBe(true);
      expect(ok(one + one)).toBe(false);
      expect(ok(`${one}\n${one}`)).toBe(false);
      // text to the parser (an object body starts with "{"), so the grammar may accept it as text
      expect(parseToolCalls(`[${one}, ${one}]`, { format: "llama3-json", mode: "strict" }).calls).toEqual([]);
    }
  });

  it("text is an alternative to the call and cannot start like one", () => {
    for (const format of ["llama3-json", "pythonic"] as const) {
      const ok = lang(format);
      const one = render([paris], format);
      // a call after text is text to the parser, and the grammar's text
      expect(ok(`Sure. ${one}`)).toBe(true);
      expect(parseToolCalls(`Sure. ${one}`, { tools: SMALL_TOOLS, format, mode: "strict" })).toMatchObject({
        calls: [],
        issues: [],
      });
      expect(ok(` ${one}`)).toBe(false);
      expect(ok(`\n${one}`)).toBe(false);
      expect(ok(" leading space")).toBe(false);
      expect(ok(format === "pythonic" ? "[1] is a citation" : "{ not json")).toBe(false);
      expect(ok("Hello { there")).toBe(true);
    }
    const llama = lang("llama3-json");
    expect(llama(`<|python_tag|>${render([paris], "llama3-json")}`)).toBe(false);
    expect(llama("<|python_tag|> hi")).toBe(false);
    expect(llama("<|python")).toBe(true);
    expect(llama("<b>bold</b>")).toBe(true);
  });

  it("text never reads as a call: every accepted text above parses as content", () => {
    for (const [format, text] of [
      ["llama3-json", "<|python"],
      ["llama3-json", "<b>x</b>"],
      ["pythonic", "Hello [x("],
      ["llama3-json", "Hello {"],
    ] as const) {
      const r = parseToolCalls(text, { tools: SMALL_TOOLS, format, mode: "strict" });
      expect(r).toMatchObject({ content: text, calls: [], issues: [], dropped: 0 });
    }
  });

  it("a required call cannot have text before it: freeText: true is INVALID_OPTION", () => {
    for (const format of ["llama3-json", "pythonic"] as const) {
      expect(() => compileTools(SMALL_TOOLS, { format, toolChoice: "required", freeText: true })).toThrow(
        expect.objectContaining({ code: "INVALID_OPTION" }),
      );
      expect(lang(format, { freeText: false })("text")).toBe(false);
      expect(lang(format, { freeText: false })("")).toBe(true);
    }
  });
});

describe("glaive: arguments in apostrophes", () => {
  const ok = lang("glaive", {}, MIXED_TOOLS);

  it("an apostrophe in a string is written \\u0027, never raw", () => {
    const text = render([{ name: "note", arguments: { text: "it's", tag: "it's" } }], "glaive");
    expect(text).toContain("it\\u0027s");
    expect(ok(text)).toBe(true);
    expect(ok(text.replaceAll("\\u0027", "'"))).toBe(false);
    expect(ok(`<functioncall> {"name": "note", "arguments": '{"text": "a\\\\u0027"}'}`)).toBe(true);
  });

  it("strict parsing accepts the number spellings the grammar emits, and nothing else beyond the canonical text", () => {
    const clean = (text: string): boolean => {
      const r = parseToolCalls(text, { tools: MIXED_TOOLS, format: "glaive", mode: "strict" });
      return r.issues.length === 0 && r.dropped === 0;
    };
    for (const n of ["1.0", "1e2", "-0", "2.50E-3"]) {
      const text = `<functioncall> {"name": "note", "arguments": '{"text": "a", "n": ${n}}'}`;
      expect(ok(text), n).toBe(true);
      expect(clean(text), n).toBe(true);
    }
    expect(clean(`<functioncall> {"name": "note", "arguments": '{"text": "it's"}'}`)).toBe(false);
    expect(clean(`<functioncall> {"name": "note", "arguments": '{"text": "a",  "n": 1}'}`)).toBe(false);
    expect(clean(`<functioncall> {"name": "note", "arguments": '{"text": "\\u0041"}'}`)).toBe(false);
  });
});

describe("pythonic: keyword arguments and Python literals", () => {
  const ok = lang("pythonic", {}, MIXED_TOOLS);

  it("True / False / None, in arguments, enums and any-values; JSON's spelling is rejected", () => {
    expect(ok(`[note(text="it's", flag=None, tag=True, any={"a": [False, None]})]`)).toBe(true);
    expect(ok(`[note(text="x", flag=null)]`)).toBe(false);
    expect(ok(`[note(text="x", tag=true)]`)).toBe(false);
    expect(ok(`[note(text="x", any=[true])]`)).toBe(false);
    expect(ok(`[note(text="x", meta={"deep": {"on": False}})]`)).toBe(true);
    expect(ok(`[note({"text": "x"})]`)).toBe(false);
    expect(ok(`[ping(), note(text="x")]`)).toBe(true);
    expect(ok(`[ping()]`)).toBe(true);
    expect(ok(`[]`)).toBe(false);
  });

  it("number spellings the grammar emits parse strictly", () => {
    for (const n of ["1.0", "1e2", "-0"]) {
      const text = `[note(text="a", n=${n})]`;
      expect(ok(text)).toBe(true);
      expect(parseToolCalls(text, { tools: MIXED_TOOLS, format: "pythonic", mode: "strict" }).issues).toEqual([]);
    }
    expect(
      parseToolCalls(`[note(text="a", n=1 )]`, { tools: MIXED_TOOLS, format: "pythonic", mode: "strict" }).dropped,
    ).toBe(1);
  });

  it("schemas that are not keyword arguments are refused with UNSUPPORTED_KEYWORD at their place", () => {
    const refuse =
      (parameters: unknown, options: ToolCompileOptions = {}) =>
      () =>
        compileTools([{ name: "f", parameters }], { format: "pythonic", ...options });
    expect(refuse({ type: "object", properties: { "not-an-id": { type: "string" } } })).toThrow(
      expect.objectContaining({ code: "UNSUPPORTED_KEYWORD", schemaPath: "/0/parameters/properties/not-an-id" }),
    );
    expect(refuse({ type: "object", properties: { a: { type: "string" } } }, { additionalProperties: "spec" })).toThrow(
      expect.objectContaining({ code: "UNSUPPORTED_KEYWORD", schemaPath: "/0/parameters/additionalProperties" }),
    );
    expect(refuse({ type: "object", patternProperties: { "^x": { type: "string" } } })).toThrow(
      expect.objectContaining({ code: "UNSUPPORTED_KEYWORD" }),
    );
    expect(
      refuse({
        anyOf: [
          { type: "object", properties: { a: { type: "string" } } },
          { type: "object", properties: { b: { type: "string" } } },
        ],
      }),
    ).toThrow(expect.objectContaining({ code: "UNSUPPORTED_KEYWORD", schemaPath: "/0/parameters" }));
    // the same schemas compile in the JSON formats
    expect(() =>
      compileTools([{ name: "f", parameters: { type: "object", properties: { "not-an-id": { type: "string" } } } }], {
        format: "mistral",
      }),
    ).not.toThrow();
  });

  it("a tool name that is not one name token is INVALID_TOOL", () => {
    expect(() =>
      compileTools([{ name: "1st", parameters: { type: "object", properties: {} } }], { format: "pythonic" }),
    ).toThrow(expect.objectContaining({ code: "INVALID_TOOL" }));
    expect(() =>
      compileTools([{ name: "ns.get-x", parameters: { type: "object", properties: {} } }], { format: "pythonic" }),
    ).not.toThrow();
  });
});

describe("toJsonSchema describes the format's call objects", () => {
  it("parameters / arguments keys and the optional id", () => {
    const schema = (format: FormatName) =>
      compileTools([SMALL_TOOLS[1]], { format }).toJsonSchema() as {
        anyOf: { properties: Record<string, unknown>; required: string[] }[];
      };
    expect(Object.keys(schema("tools-array").anyOf[0].properties)).toEqual(["name", "id", "parameters"]);
    expect(schema("tools-array").anyOf[0].required).toEqual(["name", "parameters"]);
    expect(Object.keys(schema("llama3-json").anyOf[0].properties)).toEqual(["name", "parameters"]);
    expect(Object.keys(schema("mistral").anyOf[0].properties)).toEqual(["name", "id", "arguments"]);
    expect(Object.keys(schema("glaive").anyOf[0].properties)).toEqual(["name", "arguments"]);
    expect(Object.keys(schema("pythonic").anyOf[0].properties)).toEqual(["name", "arguments"]);
    expect(Object.keys(schema("qwen3").anyOf[0].properties)).toEqual(["name", "arguments"]);
  });
});
