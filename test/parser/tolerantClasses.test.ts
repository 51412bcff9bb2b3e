/**
 * Tolerant reading of what real models write, one small case per drift class of issue 22 (items 4 and 5), each
 * written here: Qwen3-Coder / Qwen3 XML values that hold the format's own markers, values typed by the tool's schema
 * in every raw-value format, both Mistral generations, Llama 3's several objects, xLAM's wrapped lists and Kimi K2's
 * names. Every case is read the same by the stream, one character at a time and at random chunkings, as by the
 * batch parse; strict mode never reads a drift (each case that needs a repair is dropped or left as text there).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseToolCalls } from "../../src/parser/parseToolCalls.js";
import { ToolCallStream } from "../../src/parser/ToolCallStream.js";
import type { FormatName } from "../../src/formats/FormatName.js";

interface Case {
  /** The drift class, then what the case shows. */
  id: string;
  format: FormatName;
  text: string;
  tools: unknown[];
  calls: { name: string; arguments: Record<string, unknown> }[];
  /** Issue codes the reading records, in order. */
  issues: string[];
  /** The content, when the case is about it. */
  content?: string;
  /** Whether the calls validate (default true). */
  valid?: boolean;
}

const tool = (name: string, properties: Record<string, unknown>) => ({
  type: "function",
  function: { name, parameters: { type: "object", properties } },
});
const WRITE = tool("write_file", { path: { type: "string" }, content: { type: "string" } });
const WEATHER = tool("get_weather", { city: { type: "string" } });
const TIME = tool("get_time", { tz: { type: "string" } });
const LOOKUP = tool("lookup", {
  code: { anyOf: [{ type: "string" }, { type: "null" }] },
  limit: { type: ["integer", "null"] },
  filters: { type: "object" },
  tags: { type: "array", items: { type: "string" } },
  exact: { type: "boolean" },
  ratio: { type: "number" },
});
const qwenCall = (name: string, params: [string, string][]) =>
  `<tool_call>\n<function=${name}>\n${params.map(([k, v]) => `<parameter=${k}>\n${v}\n</parameter>\n`).join("")}</function>\n</tool_call>`;

const CASES: Case[] = [
  // 1. Qwen3-Coder XML: values holding the format's markers, a missing </parameter>, a broken name
  {
    id: "xml-marker-in-value: a `</parameter>` followed by code, not by the next parameter",
    format: "qwen3-coder",
    text: qwenCall("write_file", [
      ["path", "p.py"],
      ["content", "CLOSE = '</parameter>'\nassert CLOSE in text"],
    ]),
    tools: [WRITE],
    calls: [
      { name: "write_file", arguments: { path: "p.py", content: "CLOSE = '</parameter>'\nassert CLOSE in text" } },
    ],
    issues: ["RAW_VALUE_HOLDS_MARKER"],
  },
  {
    id: "xml-marker-in-value: `</parameter>` then `</function>` inside the value (a nested call's end), read whole",
    format: "qwen3-coder",
    text: qwenCall("write_file", [
      ["path", "t.txt"],
      ["content", "x\n</parameter>\n</function>\nmore"],
    ]),
    tools: [WRITE],
    calls: [{ name: "write_file", arguments: { path: "t.txt", content: "x\n</parameter>\n</function>\nmore" } }],
    issues: ["RAW_VALUE_HOLDS_MARKER"],
  },
  {
    id: "xml-marker-in-value: a `<parameter=…>` element inside the value",
    format: "qwen3-coder",
    text: qwenCall("write_file", [["content", "<parameter=city>\nParis\n</parameter>\nis the syntax"]]),
    tools: [WRITE],
    calls: [{ name: "write_file", arguments: { content: "<parameter=city>\nParis\n</parameter>\nis the syntax" } }],
    issues: ["RAW_VALUE_HOLDS_MARKER"],
  },
  {
    id: "xml-marker-in-value: a `<tool_call>` string inside the value",
    format: "qwen3-coder",
    text: qwenCall("write_file", [["content", 'OPEN = "<tool_call>"; CLOSE = "</tool_call>"']]),
    tools: [WRITE],
    calls: [{ name: "write_file", arguments: { content: 'OPEN = "<tool_call>"; CLOSE = "</tool_call>"' } }],
    issues: ["RAW_VALUE_HOLDS_MARKER"],
  },
  {
    id: "xml-marker-in-value: a whole nested call inside the value (a test fixture)",
    format: "qwen3-coder",
    text: qwenCall("write_file", [
      ["path", "fixture.txt"],
      ["content", qwenCall("get_weather", [["city", "Paris"]])],
    ]),
    tools: [WRITE, WEATHER],
    calls: [
      {
        name: "write_file",
        arguments: { path: "fixture.txt", content: qwenCall("get_weather", [["city", "Paris"]]) },
      },
    ],
    issues: ["RAW_VALUE_HOLDS_MARKER"],
  },
  {
    id: "xml-marker-in-value: a nested call inside a value, then a second call",
    format: "qwen3-coder",
    text: `${qwenCall("write_file", [["content", qwenCall("get_weather", [["city", "Oslo"]])]])}\n${qwenCall("get_time", [["tz", "UTC"]])}`,
    tools: [WRITE, WEATHER, TIME],
    calls: [
      { name: "write_file", arguments: { content: qwenCall("get_weather", [["city", "Oslo"]]) } },
      { name: "get_time", arguments: { tz: "UTC" } },
    ],
    issues: ["RAW_VALUE_HOLDS_MARKER"],
  },
  {
    id: "xml-missing-close: `</parameter>` left out before the next parameter",
    format: "qwen3-coder",
    text: "<tool_call>\n<function=write_file>\n<parameter=path>\na.md\n<parameter=content>\nhi\n</parameter>\n</function>\n</tool_call>",
    tools: [WRITE],
    calls: [{ name: "write_file", arguments: { path: "a.md", content: "hi" } }],
    issues: ["UNCLOSED_PARAMETER"],
  },
  {
    id: "xml-missing-close: the last `</parameter>` left out before `</function>`",
    format: "qwen3-coder",
    text: "<tool_call>\n<function=get_weather>\n<parameter=city>\nRome\n</function>\n</tool_call>",
    tools: [WEATHER],
    calls: [{ name: "get_weather", arguments: { city: "Rome" } }],
    issues: ["UNCLOSED_PARAMETER"],
  },
  {
    id: "xml-broken-name: `<function=bad_func_no_gt` then `</function` is dropped, not a call",
    format: "qwen3-coder",
    text: "<tool_call>\n<function=bad_func_no_gt\n</function>\n</tool_call>",
    tools: [WEATHER],
    calls: [],
    issues: ["MISSING_NAME"],
  },
  {
    id: "xml-marker-in-value: a lone `<tool_call>` in a value (a nested call never closed) reads to the block's close",
    format: "qwen3-coder",
    text: "<tool_call>\n<function=write_file>\n<parameter=content>\nx <tool_call> y\n</parameter>\n</function>\n</tool_call>",
    tools: [WRITE],
    calls: [{ name: "write_file", arguments: { content: "x <tool_call> y" } }],
    issues: ["RAW_VALUE_HOLDS_MARKER"],
  },
  // 2. values typed by the schema, in every raw-value format
  {
    id: "typed-by-schema qwen3-coder: `42` stays a string for anyOf [string, null], None is null, a dict literal an object",
    format: "qwen3-coder",
    text: qwenCall("lookup", [
      ["code", "42"],
      ["limit", "None"],
      ["filters", "{'open': True, 'owner': None}"],
      ["tags", "['a', 'b']"],
      ["exact", "False"],
      ["ratio", "0.5"],
    ]),
    tools: [LOOKUP],
    calls: [
      {
        name: "lookup",
        arguments: {
          code: "42",
          limit: null,
          filters: { open: true, owner: null },
          tags: ["a", "b"],
          exact: false,
          ratio: 0.5,
        },
      },
    ],
    issues: ["VALUE_READ_BY_SCHEMA", "PYTHON_LITERAL", "SINGLE_QUOTES"],
  },
  {
    id: "typed-by-schema qwen3-coder: `null` is null where allowed, `None` for a string-or-null parameter too",
    format: "qwen3-coder",
    text: qwenCall("lookup", [
      ["code", "None"],
      ["limit", "null"],
    ]),
    tools: [LOOKUP],
    calls: [{ name: "lookup", arguments: { code: null, limit: null } }],
    issues: ["PYTHON_LITERAL"],
  },
  {
    id: "typed-by-schema glm-4.5: the same rule (`42` a string, None null, a list literal an array)",
    format: "glm-4.5",
    text: "<tool_call>lookup\n<arg_key>code</arg_key>\n<arg_value>42</arg_value>\n<arg_key>limit</arg_key>\n<arg_value>None</arg_value>\n<arg_key>tags</arg_key>\n<arg_value>['x']</arg_value>\n</tool_call>",
    tools: [LOOKUP],
    calls: [{ name: "lookup", arguments: { code: "42", limit: null, tags: ["x"] } }],
    issues: ["VALUE_READ_BY_SCHEMA", "PYTHON_LITERAL", "SINGLE_QUOTES"],
  },
  {
    id: "typed-by-schema glm-4.7: arguments spread over newlines, typed by the schema",
    format: "glm-4.7",
    text: "<tool_call>lookup\n<arg_key>limit</arg_key>\n<arg_value>7</arg_value>\n<arg_key>exact</arg_key>\n<arg_value>true</arg_value>\n</tool_call>",
    tools: [LOOKUP],
    calls: [{ name: "lookup", arguments: { limit: 7, exact: true } }],
    issues: ["WHITESPACE_AROUND_TAGS"],
  },
  {
    id: "typed-by-schema glm-4.7: a string value with a newline between its tags",
    format: "glm-4.7",
    text: "<tool_call>get_weather<arg_key>city</arg_key>\n<arg_value>Paris</arg_value></tool_call>",
    tools: [WEATHER],
    calls: [{ name: "get_weather", arguments: { city: "Paris" } }],
    issues: ["WHITESPACE_AROUND_TAGS"],
  },
  {
    id: "typed-by-schema minimax-m2: a number where the schema says number, a dict literal, `42` a string",
    format: "minimax-m2",
    text: '\n<minimax:tool_call>\n<invoke name="lookup">\n<parameter name="ratio">2</parameter>\n<parameter name="filters">{\'k\': None}</parameter>\n<parameter name="code">42</parameter>\n</invoke>\n</minimax:tool_call>',
    tools: [LOOKUP],
    calls: [{ name: "lookup", arguments: { ratio: 2, filters: { k: null }, code: "42" } }],
    issues: ["SINGLE_QUOTES", "PYTHON_LITERAL", "VALUE_READ_BY_SCHEMA"],
  },
  {
    id: "typed-by-schema deepseek-v3.2: a string-flagged `None` is null for integer-or-null, a JSON-flagged 42 a string for string-or-null",
    format: "deepseek-v3.2",
    text: '<｜DSML｜function_calls>\n<｜DSML｜invoke name="lookup">\n<｜DSML｜parameter name="limit" string="true">None</｜DSML｜parameter>\n<｜DSML｜parameter name="code" string="false">42</｜DSML｜parameter>\n</｜DSML｜invoke>\n</｜DSML｜function_calls>',
    tools: [LOOKUP],
    calls: [{ name: "lookup", arguments: { limit: null, code: "42" } }],
    issues: ["VALUE_TYPE_MISMATCH", "PYTHON_LITERAL", "VALUE_READ_BY_SCHEMA"],
  },
  // 3. Mistral: both generations, one tolerant reading
  {
    id: "mistral-generations: the v0.3 list under `mistral`",
    format: "mistral",
    text: '[TOOL_CALLS] [{"name": "get_weather", "arguments": {"city": "Paris"}}, {"name": "get_time", "arguments": {"tz": "UTC"}}]',
    tools: [WEATHER, TIME],
    calls: [
      { name: "get_weather", arguments: { city: "Paris" } },
      { name: "get_time", arguments: { tz: "UTC" } },
    ],
    issues: [],
  },
  {
    id: "mistral-generations: `[TOOL_CALLS]NAME[ARGS]{…}` twice under `mistral`",
    format: "mistral",
    text: '[TOOL_CALLS]get_weather[ARGS]{"city": "Paris"}[TOOL_CALLS]get_time[ARGS]{"tz": "UTC"}',
    tools: [WEATHER, TIME],
    calls: [
      { name: "get_weather", arguments: { city: "Paris" } },
      { name: "get_time", arguments: { tz: "UTC" } },
    ],
    issues: ["OTHER_GENERATION", "OTHER_GENERATION"],
  },
  {
    id: "mistral-generations: `[TOOL_CALLS]NAME{…}` (no [ARGS]) after text under `mistral`",
    format: "mistral",
    text: 'Checking.[TOOL_CALLS]get_weather{"city": "Paris"}',
    tools: [WEATHER, TIME],
    calls: [{ name: "get_weather", arguments: { city: "Paris" } }],
    issues: ["OTHER_GENERATION", "NAME_SEPARATOR"],
    content: "Checking.",
  },
  {
    id: "mistral-generations: the v0.3 list with ids under `mistral-v11`",
    format: "mistral-v11",
    text: '[TOOL_CALLS][{"name": "get_weather", "arguments": {"city": "Paris"}, "id": "abcDEF123"}]',
    tools: [WEATHER],
    calls: [{ name: "get_weather", arguments: { city: "Paris" } }],
    issues: ["OTHER_GENERATION"],
  },
  {
    id: "mistral-generations: `[TOOL_CALLS]NAME[CALL_ID]ID[ARGS]{…}` under `mistral-nemo`",
    format: "mistral-nemo",
    text: '[TOOL_CALLS]get_time[CALL_ID]abcDEF123[ARGS]{"tz": "CET"}',
    tools: [TIME],
    calls: [{ name: "get_time", arguments: { tz: "CET" } }],
    issues: ["OTHER_GENERATION"],
  },
  // 4. Llama 3 JSON: several objects, calls after text
  {
    id: "llama3-several: objects separated by `; `",
    format: "llama3-json",
    text: '{"name": "get_weather", "parameters": {"city": "Paris"}}; {"name": "get_time", "parameters": {"tz": "UTC"}}',
    tools: [WEATHER, TIME],
    calls: [
      { name: "get_weather", arguments: { city: "Paris" } },
      { name: "get_time", arguments: { tz: "UTC" } },
    ],
    issues: ["MORE_CALLS"],
    content: "",
  },
  {
    id: "llama3-several: objects on lines of their own after the python tag",
    format: "llama3-json",
    text: '<|python_tag|>{"name": "get_weather", "parameters": {"city": "Paris"}}\n{"name": "get_time", "parameters": {"tz": "UTC"}}\n{"name": "get_time", "parameters": {"tz": "CET"}}',
    tools: [WEATHER, TIME],
    calls: [
      { name: "get_weather", arguments: { city: "Paris" } },
      { name: "get_time", arguments: { tz: "UTC" } },
      { name: "get_time", arguments: { tz: "CET" } },
    ],
    issues: ["MORE_CALLS", "MORE_CALLS"],
    content: "",
  },
  {
    id: "llama3-several: objects separated by a comma",
    format: "llama3-json",
    text: '{"name": "get_time", "parameters": {"tz": "UTC"}}, {"name": "get_time", "parameters": {"tz": "CET"}}',
    tools: [TIME],
    calls: [
      { name: "get_time", arguments: { tz: "UTC" } },
      { name: "get_time", arguments: { tz: "CET" } },
    ],
    issues: ["MORE_CALLS"],
    content: "",
  },
  {
    id: "llama3-after-text: a call after a sentence",
    format: "llama3-json",
    text: 'Let me look that up. {"name": "get_weather", "parameters": {"city": "Lima"}}',
    tools: [WEATHER],
    calls: [{ name: "get_weather", arguments: { city: "Lima" } }],
    issues: ["CALL_AFTER_TEXT"],
    content: "Let me look that up. ",
  },
  {
    id: "llama3-after-text: text that only mentions JSON stays text",
    format: "llama3-json",
    text: 'Use {"a": 1}; then {name} is fine.',
    tools: [WEATHER],
    calls: [],
    issues: [],
    content: 'Use {"a": 1}; then {name} is fine.',
  },
  // 5. xLAM: the list wrapped
  {
    id: "xlam-wrapped: inside a ```json fence",
    format: "xlam",
    text: '```json\n[{"name": "get_weather", "arguments": {"city": "Paris"}}]\n```',
    tools: [WEATHER],
    calls: [{ name: "get_weather", arguments: { city: "Paris" } }],
    issues: ["CALL_AFTER_TEXT"],
  },
  {
    id: "xlam-wrapped: after <think>…</think>",
    format: "xlam",
    text: '<think>The user wants weather.</think>\n[{"name": "get_weather", "arguments": {"city": "Paris"}}]',
    tools: [WEATHER],
    calls: [{ name: "get_weather", arguments: { city: "Paris" } }],
    issues: ["CALL_AFTER_TEXT"],
  },
  {
    id: "xlam-wrapped: after [TOOL_CALLS]",
    format: "xlam",
    text: '[TOOL_CALLS][{"name": "get_weather", "arguments": {"city": "Paris"}}, {"name": "get_time", "arguments": {"tz": "UTC"}}]',
    tools: [WEATHER, TIME],
    calls: [
      { name: "get_weather", arguments: { city: "Paris" } },
      { name: "get_time", arguments: { tz: "UTC" } },
    ],
    issues: ["CALL_AFTER_TEXT"],
  },
  {
    id: "xlam-wrapped: inside <tool_call> tags",
    format: "xlam",
    text: '<tool_call>\n[{"name": "get_weather", "arguments": {"city": "Paris"}}]\n</tool_call>',
    tools: [WEATHER],
    calls: [{ name: "get_weather", arguments: { city: "Paris" } }],
    issues: ["CALL_AFTER_TEXT"],
  },
  {
    id: "xlam-wrapped: a bracketed remark is text",
    format: "xlam",
    text: "[1] See the docs.",
    tools: [WEATHER],
    calls: [],
    issues: [],
    content: "[1] See the docs.",
  },
  // 6. Kimi K2 names
  {
    id: "kimi-names: `NAME:IDX` without the functions. prefix",
    format: "kimi-k2",
    text: '<|tool_calls_section_begin|><|tool_call_begin|>get_weather:0<|tool_call_argument_begin|>{"city": "Paris"}<|tool_call_end|><|tool_calls_section_end|>',
    tools: [WEATHER],
    calls: [{ name: "get_weather", arguments: { city: "Paris" } }],
    issues: ["NAME_SEPARATOR"],
  },
  {
    id: "kimi-names: `functions.NAME` without the index",
    format: "kimi-k2",
    text: '<|tool_calls_section_begin|><|tool_call_begin|>functions.get_weather<|tool_call_argument_begin|>{"city": "Paris"}<|tool_call_end|><|tool_calls_section_end|>',
    tools: [WEATHER],
    calls: [{ name: "get_weather", arguments: { city: "Paris" } }],
    issues: ["NAME_SEPARATOR"],
  },
  {
    id: "kimi-names: a name that is no tool is kept, not valid, with UNKNOWN_TOOL",
    format: "kimi-k2",
    text: '<|tool_calls_section_begin|><|tool_call_begin|>functions.get_wether:0<|tool_call_argument_begin|>{"city": "Paris"}<|tool_call_end|><|tool_calls_section_end|>',
    tools: [WEATHER],
    calls: [{ name: "get_wether", arguments: { city: "Paris" } }],
    issues: ["UNKNOWN_TOOL"],
    valid: false,
  },
];

function parse(c: Case, mode: "strict" | "tolerant" = "tolerant") {
  return parseToolCalls(c.text, { format: c.format, tools: c.tools as never, mode });
}

describe("tolerant reading by drift class", () => {
  for (const c of CASES) {
    it(`${c.format}: ${c.id}`, () => {
      const batch = parse(c);
      expect(batch.calls.map((x) => ({ name: x.name, arguments: x.arguments }))).toEqual(c.calls);
      expect(batch.calls.every((x) => x.valid)).toBe(c.valid ?? true);
      expect(batch.issues.map((i) => i.code)).toEqual(c.issues);
      if (c.content !== undefined) expect(batch.content).toBe(c.content);
      const s = new ToolCallStream({ format: c.format, tools: c.tools as never, mode: "tolerant" });
      for (const ch of c.text) s.push(ch);
      expect(s.end()).toEqual(batch);
      // strict mode reads no drift: a case that needed a repair yields fewer calls, or the same with none repaired
      if (c.issues.length > 0 && c.valid !== false) {
        const strict = parse(c, "strict");
        expect(strict.calls.length < c.calls.length || strict.issues.length > 0).toBe(true);
      }
    });
  }

  it("stream = batch at random chunkings (seeded)", () => {
    const seed = 20261128;
    console.log(`tolerant classes: fast-check seed ${seed}`);
    const cases = CASES;
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: cases.length - 1 }),
        fc.array(fc.integer({ min: 1, max: 12 }), { minLength: 1, maxLength: 40 }),
        (k, sizes) => {
          const c = cases[k];
          const s = new ToolCallStream({ format: c.format, tools: c.tools as never });
          let at = 0;
          for (let j = 0; at < c.text.length; j++) {
            const n = sizes[j % sizes.length];
            s.push(c.text.slice(at, at + n));
            at += n;
          }
          expect(s.end()).toEqual(parse(c));
        },
      ),
      { seed, numRuns: 200 },
    );
  });
});
