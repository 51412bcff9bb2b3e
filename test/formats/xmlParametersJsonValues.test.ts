/**
 * Tagged-parameter formats write non-string values as JSON; a string nested in such a value must never hold a marker
 * of the format, or the reader would cut the value (and the block) there. The grammar and the renderer spell `<` as
 * `\u003c` inside these values, so what the grammar accepts always parses back into the same arguments.
 */
import { describe, expect, it } from "vitest";
import { compileTools, parseToolCalls, renderToolCalls } from "../../src/index.js";

const tools = [
  {
    type: "function",
    function: {
      name: "annotate",
      parameters: {
        type: "object",
        properties: {
          path: { type: "string" },
          note: {
            type: "object",
            properties: { text: { type: "string" } },
            required: ["text"],
            additionalProperties: false,
          },
          tags: { type: "array", items: { type: "string" } },
        },
        required: ["path", "note", "tags"],
      },
    },
  },
];

describe("qwen3-coder: markers never inside a JSON-valued parameter", () => {
  const compiled = compileTools(tools, { format: "qwen3-coder", toolChoice: "required" });
  const call = {
    name: "annotate",
    arguments: { path: "a<b.txt", note: { text: "x</parameter>\n</function>y" }, tags: ["</tool_call>", "<"] },
  };

  it("renders nested < as \\u003c, and the grammar accepts exactly that spelling", () => {
    const text = renderToolCalls([call], "qwen3-coder");
    expect(text).toContain('{"text": "x\\u003c/parameter>\\n\\u003c/function>y"}');
    expect(text).toContain("a<b.txt"); // raw strings stay raw
    expect(compiled.accepts(text)).toBe(true);
    expect(compiled.accepts(text.replace("\\u003c/parameter>", "</parameter>"))).toBe(false);
  });

  it("reads a nested `\\u003c` beside a number in another spelling the grammar emits (0e-97) strictly", () => {
    const numbers = [
      {
        type: "function",
        function: {
          name: "mark",
          parameters: { type: "object", properties: { at: { type: "array", items: {} } }, required: ["at"] },
        },
      },
    ];
    const g = compileTools(numbers, { format: "qwen3-coder", toolChoice: "required" });
    const canonical = renderToolCalls([{ name: "mark", arguments: { at: ["<", 0, 1.5] } }], "qwen3-coder");
    const respelled = canonical.replace("0, 1.5]", "0e-97, 15e-1]");
    expect(respelled).not.toBe(canonical);
    expect(g.accepts(respelled)).toBe(true);
    const r = parseToolCalls(respelled, { tools: numbers, format: "qwen3-coder", mode: "strict" });
    expect(r.issues).toEqual([]);
    expect(r.calls.map((c) => c.arguments)).toEqual([{ at: ["<", 0, 1.5] }]);
    expect(canonical).toContain('["\\u003c", 0, 1.5]');
  });

  it("parses what it renders into the same arguments, strictly and with no issues", () => {
    const text = renderToolCalls([call], "qwen3-coder");
    const r = parseToolCalls(text, { tools, format: "qwen3-coder", mode: "strict" });
    expect(r.issues).toEqual([]);
    expect(r.calls.map((c) => c.arguments)).toEqual([call.arguments]);
  });
});
