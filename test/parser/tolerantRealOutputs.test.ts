/**
 * Tolerant reading of real model outputs that drift from the format (issue 22, item 4), with the stream reading
 * every case exactly as the batch parse does. Cases marked "vLLM" are copied from vLLM's tool-parser tests
 * (https://github.com/vllm-project/vllm, Apache-2.0, © the vLLM project contributors), file and commit named; the
 * others are written here for the drift classes issue 22 lists from those tests (a value holding the format's own
 * markers, a left-out closing tag, a broken name, values typed by the schema).
 */
import { describe, expect, it } from "vitest";
import { parseToolCalls } from "../../src/parser/parseToolCalls.js";
import { ToolCallStream } from "../../src/parser/ToolCallStream.js";
import type { FormatName } from "../../src/formats/FormatName.js";

interface Case {
  id: string;
  format: FormatName;
  text: string;
  tools: unknown[];
  calls: { name: string; arguments: Record<string, unknown> }[];
  /** Issue codes the reading records (in order, as the parse reports them). */
  issues: string[];
}

const tool = (name: string, properties: Record<string, unknown>) => ({
  type: "function",
  function: { name, parameters: { type: "object", properties } },
});

const VLLM_QWEN3 = "vLLM tests/tool_parsers/test_qwen3_xml_coder_shared.py @ 00d0a333ba9b8e40eb35fc0b54b4ae96114f30b3";
const TYPES = tool("test_types", {
  int_param: { type: "integer" },
  float_param: { type: "float" },
  bool_param: { type: "boolean" },
  str_param: { type: "string" },
  obj_param: { type: "object" },
});
const WRITE = tool("write_file", { path: { type: "string" }, content: { type: "string" } });
const OPTIONAL = tool("lookup", {
  code: { anyOf: [{ type: "string" }, { type: "null" }] },
  limit: { type: ["integer", "null"] },
  filters: { type: "object" },
});

const CASES: Case[] = [
  {
    id: `${VLLM_QWEN3} test_extract_tool_calls_type_conversion`,
    format: "qwen3-coder",
    text: '<tool_call>\n<function=test_types>\n<parameter=int_param>\n42\n</parameter>\n<parameter=float_param>\n3.14\n</parameter>\n<parameter=bool_param>\ntrue\n</parameter>\n<parameter=str_param>\nhello world\n</parameter>\n<parameter=obj_param>\n{"key": "value"}\n</parameter>\n</function>\n</tool_call>',
    tools: [TYPES],
    calls: [
      {
        name: "test_types",
        arguments: {
          int_param: 42,
          float_param: 3.14,
          bool_param: true,
          str_param: "hello world",
          obj_param: { key: "value" },
        },
      },
    ],
    issues: [],
  },
  {
    id: `${VLLM_QWEN3} test_extract_tool_calls_complex_type_with_single_quote`,
    format: "qwen3-coder",
    text: "<tool_call>\n<function=test_types>\n<parameter=obj_param>\n{'key': 'value'}\n</parameter>\n</function>\n</tool_call>",
    tools: [TYPES],
    calls: [{ name: "test_types", arguments: { obj_param: { key: "value" } } }],
    issues: ["SINGLE_QUOTES"],
  },
  {
    id: "a value holding `</parameter>` not followed by the next parameter or the call's end (a coding model's code)",
    format: "qwen3-coder",
    text: "<tool_call>\n<function=write_file>\n<parameter=path>\nparse.py\n</parameter>\n<parameter=content>\nEND = '</parameter>'\nprint(text.split(END))\n</parameter>\n</function>\n</tool_call>",
    tools: [WRITE],
    calls: [
      { name: "write_file", arguments: { path: "parse.py", content: "END = '</parameter>'\nprint(text.split(END))" } },
    ],
    issues: ["RAW_VALUE_HOLDS_MARKER"],
  },
  {
    id: "a value holding a whole `<parameter=…>…</parameter>` element (a template in a test file)",
    format: "qwen3-coder",
    text: "<tool_call>\n<function=write_file>\n<parameter=path>\nt.txt\n</parameter>\n<parameter=content>\n<parameter=city>\nParis\n</parameter>\nis how a value is written\n</parameter>\n</function>\n</tool_call>",
    tools: [WRITE],
    calls: [
      {
        name: "write_file",
        arguments: { path: "t.txt", content: "<parameter=city>\nParis\n</parameter>\nis how a value is written" },
      },
    ],
    issues: ["RAW_VALUE_HOLDS_MARKER"],
  },
  {
    id: "a `</parameter>` left out before the next declared parameter",
    format: "qwen3-coder",
    text: "<tool_call>\n<function=write_file>\n<parameter=path>\nnotes.md\n<parameter=content>\nhello\n</parameter>\n</function>\n</tool_call>",
    tools: [WRITE],
    calls: [{ name: "write_file", arguments: { path: "notes.md", content: "hello" } }],
    issues: ["UNCLOSED_PARAMETER"],
  },
  {
    id: "a broken function name (`bad_func_no_gt\\n</function`, issue 22) is dropped, the next call kept",
    format: "qwen3-coder",
    text: "<tool_call>\n<function=bad_func_no_gt\n</function>\n</tool_call>\n<tool_call>\n<function=write_file>\n<parameter=path>\na\n</parameter>\n</function>\n</tool_call>",
    tools: [WRITE],
    calls: [{ name: "write_file", arguments: { path: "a" } }],
    issues: ["MISSING_NAME"],
  },
  {
    id: "values typed by the schema: `42` stays a string for anyOf [string, null]; None and null are null where allowed",
    format: "qwen3-coder",
    text: "<tool_call>\n<function=lookup>\n<parameter=code>\n42\n</parameter>\n<parameter=limit>\nNone\n</parameter>\n</function>\n</tool_call>\n<tool_call>\n<function=lookup>\n<parameter=code>\nNone\n</parameter>\n<parameter=limit>\n7\n</parameter>\n<parameter=filters>\n{'tag': 'x', 'open': True, 'owner': None}\n</parameter>\n</function>\n</tool_call>",
    tools: [OPTIONAL],
    calls: [
      { name: "lookup", arguments: { code: "42", limit: null } },
      { name: "lookup", arguments: { code: null, limit: 7, filters: { tag: "x", open: true, owner: null } } },
    ],
    // each call records a repair code once
    issues: ["VALUE_READ_BY_SCHEMA", "PYTHON_LITERAL", "PYTHON_LITERAL", "SINGLE_QUOTES"],
  },
];

describe("tolerant reading of real outputs", () => {
  for (const c of CASES) {
    it(`${c.format}: ${c.id}`, () => {
      const batch = parseToolCalls(c.text, { format: c.format, tools: c.tools as never, mode: "tolerant" });
      expect(batch.calls.map((x) => ({ name: x.name, arguments: x.arguments }))).toEqual(c.calls);
      expect(batch.calls.every((x) => x.valid)).toBe(true);
      expect(batch.issues.map((i) => i.code)).toEqual(c.issues);
      // the stream, fed one character at a time, reads exactly what the batch parse reads
      const s = new ToolCallStream({ format: c.format, tools: c.tools as never, mode: "tolerant" });
      for (const ch of c.text) s.push(ch);
      expect(s.end()).toEqual(batch);
    });
  }
});
