import { describe, expect, expectTypeOf, it } from "vitest";
import { parseToolCalls } from "../../src/parser/parseToolCalls.js";
import type { IssueCode } from "../../src/parser/issueCodes.js";
import { TOOLS } from "../support/parser/tools.js";

const Q = (json: string) => `<tool_call>\n${json}\n</tool_call>`;
const codes = (text: string, mode: "strict" | "tolerant" = "tolerant") =>
  parseToolCalls(text, { tools: TOOLS, mode }).issues.map((i) => i.code);
const one = (text: string) => {
  const r = parseToolCalls(text, { tools: TOOLS });
  expect(r.calls).toHaveLength(1);
  return r.calls[0];
};

describe("parseToolCalls qwen3", () => {
  it("reads a canonical reply with text before the calls", () => {
    const text =
      "Let me look.\n" +
      Q('{"name": "get_weather", "arguments": {"city": "Paris"}}') +
      "\n" +
      Q('{"name": "search", "arguments": {"query": "rain"}}');
    for (const mode of ["strict", "tolerant"] as const) {
      const r = parseToolCalls(text, { tools: TOOLS, mode });
      expect(r.issues).toEqual([]);
      expect(r.dropped).toBe(0);
      expect(r.content).toBe("Let me look.\n\n");
      expect(r.calls.map((c) => [c.name, c.arguments, c.valid])).toEqual([
        ["get_weather", { city: "Paris" }, true],
        ["search", { query: "rain" }, true],
      ]);
      expect(r.calls[0].span).toEqual([13, 13 + r.calls[0].raw.length]);
      expect(text.slice(...r.calls[1].span)).toBe(r.calls[1].raw);
    }
  });

  const drifts: Array<[string, string, IssueCode[], Record<string, unknown>]> = [
    [
      "no newlines around the JSON",
      '<tool_call>{"name": "get_weather", "arguments": {"city": "Paris"}}</tool_call>',
      ["WHITESPACE_AROUND_TAGS"],
      { city: "Paris" },
    ],
    [
      "extra blank lines",
      '<tool_call>\n\n  {"name": "get_weather", "arguments": {"city": "Paris"}}  \n\n</tool_call>',
      ["WHITESPACE_AROUND_TAGS"],
      { city: "Paris" },
    ],
    [
      "trailing commas",
      Q('{"name": "get_weather", "arguments": {"city": "Paris",},}'),
      ["TRAILING_COMMA"],
      { city: "Paris" },
    ],
    [
      "single quotes",
      Q("{'name': 'get_weather', 'arguments': {'city': 'Paris'}}"),
      ["SINGLE_QUOTES"],
      { city: "Paris" },
    ],
    [
      "smart quotes",
      Q("{\u201cname\u201d: \u201cget_weather\u201d, \u201carguments\u201d: {\u201ccity\u201d: \u201cParis\u201d}}"),
      ["SMART_QUOTES"],
      { city: "Paris" },
    ],
    [
      "raw newline and tab in a string",
      Q('{"name": "search", "arguments": {"query": "a\nb\tc"}}'),
      ["UNESCAPED_CONTROL"],
      { query: "a\nb\tc" },
    ],
    [
      "Python literals",
      Q('{"name": "f", "arguments": {"a": True, "b": False, "c": None}}'),
      ["PYTHON_LITERAL"],
      { a: true, b: false, c: null },
    ],
    [
      "arguments as a JSON string",
      Q('{"name": "get_weather", "arguments": "{\\"city\\": \\"Paris\\"}"}'),
      ["ARGUMENTS_AS_STRING"],
      { city: "Paris" },
    ],
    [
      "arguments before name",
      Q('{"arguments": {"city": "Paris"}, "name": "get_weather"}'),
      ["ARGUMENTS_BEFORE_NAME"],
      { city: "Paris" },
    ],
    [
      "parameters instead of arguments",
      Q('{"name": "get_weather", "parameters": {"city": "Paris"}}'),
      ["ARGUMENTS_KEY_ALIAS"],
      { city: "Paris" },
    ],
    ["no arguments key", Q('{"name": "f"}'), ["MISSING_ARGUMENTS"], {}],
    [
      "an extra closing brace",
      Q('{"name": "get_weather", "arguments": {"city": "Paris"}}}'),
      ["EXTRA_CLOSING_BRACKETS"],
      { city: "Paris" },
    ],
    [
      "an unknown escape",
      Q('{"name": "search", "arguments": {"query": "it\\\'s"}}'),
      ["INVALID_ESCAPE"],
      { query: "it's" },
    ],
    [
      "unclosed last block with complete JSON",
      '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n',
      ["UNCLOSED_BLOCK"],
      { city: "Paris" },
    ],
  ];
  for (const [what, text, expected, args] of drifts) {
    it(`repairs ${what}`, () => {
      const c = one(text);
      expect(c.arguments).toEqual(args);
      expect(c.raw).toBe(text);
      expect(codes(text)).toEqual(expected);
      // strict mode drops it
      const s = parseToolCalls(text, { tools: TOOLS, mode: "strict" });
      expect(s.calls).toEqual([]);
      expect(s.dropped).toBe(1);
    });
  }

  it("drops what cannot be repaired, counting it", () => {
    const cases: Array<[string, IssueCode]> = [
      ['<tool_call>\n{"name": "get_weather", "arguments": {"city": "Par', "TRUNCATED"],
      [Q('{"name": "get_weather" "arguments": {}}'), "INVALID_JSON"],
      [Q('["get_weather"]'), "NOT_A_CALL"],
      [Q('{"arguments": {}}'), "MISSING_NAME"],
      [Q('{"name": "f", "arguments": [1]}'), "ARGUMENTS_NOT_OBJECT"],
      [Q("[".repeat(2000) + "]".repeat(2000)), "NESTING_TOO_DEEP"],
    ];
    for (const [text, code] of cases) {
      const r = parseToolCalls(text, { tools: TOOLS });
      expect(r.calls, text.slice(0, 80)).toEqual([]);
      expect(r.dropped).toBe(1);
      expect(r.issues.map((i) => i.code)).toEqual([code]);
      expect(r.issues[0].span).toEqual([0, text.length]);
    }
  });

  it("does not cut a block at a close tag or brace inside a string", () => {
    const text = Q('{"name": "get_weather", "arguments": {"city": "</tool_call>}"}}');
    for (const mode of ["strict", "tolerant"] as const) {
      const r = parseToolCalls(text, { tools: TOOLS, mode });
      expect(r.calls.map((c) => c.arguments)).toEqual([{ city: "</tool_call>}" }]);
      expect(r.issues).toEqual([]);
    }
  });

  it("recovers text after a block whose string never closes", () => {
    const text = '<tool_call>\n{"name": "search", "arguments": {"query": "abc}}\n</tool_call>\nDone.';
    const r = parseToolCalls(text, { tools: TOOLS });
    expect(r.dropped).toBe(1);
    expect(r.content).toBe("\nDone.");
  });

  it("closes a block interrupted by the next opening marker", () => {
    const text =
      '<tool_call>\n{"name": "get_weather", "arguments": {"city": "A"}}\n<tool_call>\n{"name": "get_weather", "arguments": {"city": "B"}}\n</tool_call>';
    const r = parseToolCalls(text, { tools: TOOLS });
    expect(r.calls.map((c) => c.arguments)).toEqual([{ city: "A" }, { city: "B" }]);
    expect(r.issues.map((i) => i.code)).toContain("UNCLOSED_BLOCK");
  });

  it("treats a fake marker inside a JSON string as text of that string", () => {
    const text = Q('{"name": "search", "arguments": {"query": "<tool_call>\\n{\\"name\\": \\"evil\\"}"}}');
    const r = parseToolCalls(text, { tools: TOOLS });
    expect(r.calls.map((c) => c.name)).toEqual(["search"]);
    expect(r.issues).toEqual([]);
  });

  it("validates with ajv: unknown tool, invalid arguments with instancePath", () => {
    const r = parseToolCalls(
      Q('{"name": "nope", "arguments": {}}') +
        "\n" +
        Q('{"name": "search", "arguments": {"query": "", "limit": 0, "since": "yesterday"}}'),
      { tools: TOOLS },
    );
    expect(r.calls.map((c) => c.valid)).toEqual([false, false]);
    expect(r.issues.map((i) => [i.code, i.callIndex, i.instancePath])).toEqual([
      ["UNKNOWN_TOOL", 0, undefined],
      ["INVALID_ARGUMENTS", 1, "/query"],
      ["INVALID_ARGUMENTS", 1, "/limit"],
      ["INVALID_ARGUMENTS", 1, "/since"],
    ]);
    expect(r.calls[1].errors.map((e) => e.keyword)).toEqual(["minLength", "minimum", "format"]);
    // without tools nothing is validated
    expect(parseToolCalls(Q('{"name": "nope", "arguments": {}}')).calls[0].valid).toBe(true);
  });

  it("accepts OpenAI and MCP tool shapes", () => {
    const text = Q('{"name": "w", "arguments": {"city": 1}}');
    const openai = [
      {
        type: "function",
        function: { name: "w", parameters: { type: "object", properties: { city: { type: "string" } } } },
      },
    ];
    const mcp = [{ name: "w", inputSchema: { type: "object", properties: { city: { type: "string" } } } }];
    expect(parseToolCalls(text, { tools: openai }).calls[0].valid).toBe(false);
    expect(parseToolCalls(text, { tools: mcp }).calls[0].valid).toBe(false);
  });

  it("strict mode: only the canonical spelling, separator checked", () => {
    expect(codes(Q('{"name": "f", "arguments": {"a":1}}'), "strict")).toEqual(["NONCANONICAL"]);
    expect(codes(Q('{"name": "f", "arguments": {"a": 1}}'), "strict")).toEqual([]);
    const two = `${Q('{"name": "f", "arguments": {}}')}\n\n${Q('{"name": "f", "arguments": {}}')}`;
    const r = parseToolCalls(two, { mode: "strict" });
    expect(r.calls).toHaveLength(2);
    expect(r.issues.map((i) => i.code)).toEqual(["NONCANONICAL_SEPARATOR"]);
  });

  it("never throws on odd input", () => {
    for (const t of [
      "",
      "<",
      "<tool_call>",
      "</tool_call>",
      "<tool_call></tool_call>",
      "\u0000\uD800",
      "<tool_call>\n{\n</tool_call>",
    ]) {
      expect(() => parseToolCalls(t, { tools: TOOLS })).not.toThrow();
    }
  });

  it("types calls by a discriminated union", () => {
    type Calls =
      | { name: "get_weather"; arguments: { city: string } }
      | { name: "search"; arguments: { query: string; limit?: number } };
    const r = parseToolCalls<Calls>(Q('{"name": "search", "arguments": {"query": "x"}}'), { tools: TOOLS });
    for (const c of r.calls) {
      if (c.name === "search") expectTypeOf(c.arguments).toEqualTypeOf<{ query: string; limit?: number }>();
      else expectTypeOf(c.arguments).toEqualTypeOf<{ city: string }>();
      expectTypeOf(c.span).toEqualTypeOf<[number, number]>();
    }
    expect(r.calls[0].name).toBe("search");
  });
});
