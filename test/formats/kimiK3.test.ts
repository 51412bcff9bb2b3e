/**
 * Kimi K3's typed tagged parameters (XmlParametersUnit.valueType) and call index (XmlParametersUnit.callIndex): the
 * grammar ties each written type to the value the schema admits, the reader takes a value's kind from its type, and
 * the index is the call's id. The template's own renders are checked in familyOutputs.test.ts and by template acceptance.
 */
import { describe, expect, it } from "vitest";
import { compileTools } from "../../src/compile.js";
import { parseToolCalls } from "../../src/parser/parseToolCalls.js";
import { renderToolCalls } from "../../src/parser/renderToolCalls.js";

const TOOLS = [
  {
    type: "function",
    function: {
      name: "f",
      parameters: {
        type: "object",
        properties: {
          s: { type: "string" },
          n: { type: "integer" },
          o: { type: ["integer", "null"] },
          e: { enum: [1, true] },
        },
        required: ["s", "n"],
        additionalProperties: false,
      },
    },
  },
];

const head = '<|close|>response<|sep|><|open|>tools<|sep|><|open|>call tool="f" index="1"<|sep|>';
const tail = "<|close|>call<|sep|><|close|>tools<|sep|>";
const arg = (k: string, type: string, v: string) =>
  `<|open|>argument key="${k}" type="${type}"<|sep|>${v}<|close|>argument<|sep|>`;

describe("kimi-k3", () => {
  const g = compileTools(TOOLS, { format: "kimi-k3", toolChoice: "required" });

  it("writes each value's JSON type, and the grammar allows only the type of the value the schema admits", () => {
    const text = renderToolCalls([{ name: "f", arguments: { s: "42", n: 3, o: null, e: true } }], "kimi-k3");
    expect(text).toBe(
      head +
        arg("s", "string", "42") +
        arg("n", "number", "3") +
        arg("o", "null", "null") +
        arg("e", "boolean", "true") +
        tail,
    );
    expect(g.accepts(text)).toBe(true);
    expect(g.accepts(head + arg("s", "string", "x") + arg("n", "string", "3") + tail)).toBe(false);
    expect(
      g.accepts(head + arg("s", "string", "x") + arg("n", "number", "3") + arg("o", "number", "null") + tail),
    ).toBe(false);
    expect(g.accepts(head + arg("s", "string", "x") + arg("n", "number", "3") + arg("o", "number", "5") + tail)).toBe(
      true,
    );
    expect(g.accepts(head + arg("s", "string", "x") + arg("n", "number", "3") + arg("e", "number", "1") + tail)).toBe(
      true,
    );
    expect(g.accepts(head + arg("s", "string", "x") + arg("n", "number", "3") + arg("e", "boolean", "1") + tail)).toBe(
      false,
    );
  });

  it("reads a value by its written type, without the tools too", () => {
    const text = head + arg("s", "string", "42") + arg("n", "number", "3") + tail;
    for (const tools of [undefined, TOOLS]) {
      const r = parseToolCalls(text, { format: "kimi-k3", mode: "strict", ...(tools ? { tools } : {}) });
      expect(r.issues).toEqual([]);
      expect(r.calls.map((c) => [c.name, c.arguments, c.id])).toEqual([["f", { s: "42", n: 3 }, "1"]]);
    }
  });

  it("counts the calls from 1 as their ids, keeping a call's own index", () => {
    const calls = [
      { name: "f", arguments: { s: "a", n: 1 }, id: "call_x" },
      { name: "f", arguments: { s: "b", n: 2 }, id: "7" },
    ];
    const text = renderToolCalls(calls, "kimi-k3");
    expect(text).toContain('index="1"');
    expect(text).toContain('index="7"');
    expect(g.accepts(text)).toBe(true);
    expect(parseToolCalls(text, { tools: TOOLS, format: "kimi-k3", mode: "strict" }).calls.map((c) => c.id)).toEqual([
      "1",
      "7",
    ]);
    expect(g.accepts(text.replace('index="7"', 'index="07"'))).toBe(false);
  });
});
