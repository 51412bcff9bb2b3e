import { describe, expect, it } from "vitest";
import { compileTools } from "../../src/compile.js";
import { parseToolCalls } from "../../src/parser/parseToolCalls.js";
import { renderToolCalls } from "../../src/parser/renderToolCalls.js";
import { ToolCallStream } from "../../src/parser/ToolCallStream.js";
import type { ParseOptions } from "../../src/parser/types.js";

/**
 * Section markers padded with newlines (MiniMax M2's `\n<minimax:tool_call>\n` … `\n</minimax:tool_call>`, MiniMax-M1's
 * `<tool_calls>\n` … `\n</tool_calls>`): models write them without that padding, and tolerant parsing still reads
 * the section (the padding it has is consumed, none of the marker is content), reporting WHITESPACE_AROUND_TAGS;
 * strict parsing wants the exact marker. The texts are llama.cpp's and vLLM's test outputs for MiniMax M2
 * (test/fixtures/chat-outputs/MiniMax-M2.json, test/fixtures/vllm-tool-parsers/cases.json).
 */
const M2 = { format: "minimax-m2" } as const;
const THINKING = { ...M2, reasoning: "required", reasoningMarkers: { open: "", close: "\n</think>\n\n" } } as const;

/** The result, checked to be the same fed one character at a time and in chunks of 7. */
function parse(text: string, options: ParseOptions): ReturnType<typeof parseToolCalls> {
  const batch = parseToolCalls(text, options);
  for (const size of [1, 7]) {
    const s = new ToolCallStream(options);
    for (let i = 0; i < text.length; i += size) s.push(text.slice(i, i + size));
    expect(s.end(), `chunks of ${size}`).toEqual(batch);
  }
  return batch;
}

const summary = (r: ReturnType<typeof parseToolCalls>) => ({
  content: r.content,
  reasoning: r.reasoning,
  calls: r.calls.map((c) => [c.name, c.arguments]),
  issues: r.issues.map((i) => i.code),
});

describe("tolerant reading of a section's markers without their padding", () => {
  it("llama.cpp's MiniMax M2 outputs: `</think>\\n\\n<minimax:tool_call>` leaves no content", () => {
    const text =
      'Let\'s call a tool:\n</think>\n\n<minimax:tool_call>\n<invoke name="empty_args">\n</invoke>\n</minimax:tool_call>';
    expect(summary(parse(text, THINKING))).toEqual({
      content: "",
      reasoning: "Let's call a tool:",
      calls: [["empty_args", {}]],
      issues: ["WHITESPACE_AROUND_TAGS"],
    });
    // the same turn as the template writes it (a newline before the section) is canonical: no issue, strict too
    const canonical = text.replace("\n\n<minimax", "\n\n\n<minimax");
    expect(summary(parse(canonical, THINKING)).issues).toEqual([]);
    expect(summary(parse(canonical, { ...THINKING, mode: "strict" })).issues).toEqual([]);
    expect(
      renderToolCalls([{ name: "empty_args", arguments: {} }], "minimax-m2", {
        reasoning: "Let's call a tool:",
        reasoningMarkers: THINKING.reasoningMarkers,
      }),
    ).toBe(canonical);
  });

  it("vLLM's MiniMax M2 test outputs: no newlines at all, text before the section stays content", () => {
    const text =
      'Let me check. <minimax:tool_call><invoke name="get_weather"><parameter name="city">Seattle</parameter></invoke></minimax:tool_call>';
    const r = summary(parse(text, M2));
    expect(r.content).toBe("Let me check. ");
    expect(r.calls).toEqual([["get_weather", { city: "Seattle" }]]);
    expect(r.issues.every((c) => c === "WHITESPACE_AROUND_TAGS")).toBe(true);
    const two =
      '<minimax:tool_call><invoke name="fn_a"><parameter name="x">1</parameter></invoke><invoke name="fn_b"><parameter name="y">2</parameter></invoke></minimax:tool_call>';
    expect(summary(parse(two, M2))).toMatchObject({
      content: "",
      calls: [
        ["fn_a", { x: 1 }],
        ["fn_b", { y: 2 }],
      ],
    });
  });

  it("strict parsing wants the exact markers", () => {
    const text = '<minimax:tool_call>\n<invoke name="f">\n</invoke>\n</minimax:tool_call>';
    const r = parse(text, { ...M2, mode: "strict" });
    expect(r.issues.map((i) => i.code)).toContain("SECTION_LAYOUT");
  });

  it("only the marker's own padding is taken: other whitespace stays content", () => {
    const text = 'Hi\n\n\n<minimax:tool_call>\n<invoke name="f">\n</invoke>\n</minimax:tool_call>';
    expect(summary(parse(text, M2))).toEqual({
      content: "Hi\n\n",
      reasoning: undefined,
      calls: [["f", {}]],
      issues: [],
    });
  });

  it("MiniMax-M1: `<tool_calls>` without its newlines is still the section", () => {
    const text = 'Sure.<tool_calls>{"name": "f", "arguments": {"a": 1}}</tool_calls>';
    expect(summary(parse(text, { format: "minimax-m1" }))).toEqual({
      content: "Sure.",
      reasoning: undefined,
      calls: [["f", { a: 1 }]],
      issues: ["WHITESPACE_AROUND_TAGS", "WHITESPACE_AROUND_TAGS"],
    });
  });

  it("a marker's core cut by a chunk boundary, its padding still to come, is waited for", () => {
    const text = 'x\n<minimax:tool_call>\n<invoke name="f">\n</invoke>\n</minimax:tool_call>';
    const s = new ToolCallStream(M2);
    const text1 = s.push("x\n<minimax:tool_call>").filter((e) => e.type === "text");
    // nothing of the marker, nor its leading newline, went out as text
    expect(text1.map((e) => (e.type === "text" ? e.delta : "")).join("")).toBe("x");
    s.push(text.slice("x\n<minimax:tool_call>".length));
    expect(s.end()).toEqual(parseToolCalls(text, M2));
    expect(s.end().content).toBe("x");
  });

  it("grammars keep a section marker's core out of free text, reasoning and raw values, as strict parsing does", () => {
    const tools = [{ name: "f", parameters: { type: "object", properties: { a: { type: "string" } } } }];
    const g = compileTools(tools, M2);
    const call = (a: string): string =>
      `\n<minimax:tool_call>\n<invoke name="f">\n<parameter name="a">${a}</parameter>\n</invoke>\n</minimax:tool_call>`;
    expect(g.accepts(call("x"))).toBe(true);
    for (const marker of ["</minimax:tool_call>", "<minimax:tool_call>"]) {
      // a raw value holding it: the grammar refuses, the renderer too (the parser would end the block there)
      expect(g.accepts(call(`x${marker}y`)), marker).toBe(false);
      expect(g.accepts(call(`x\n${marker}\ny`)), marker).toBe(false);
      expect(() => renderToolCalls([{ name: "f", arguments: { a: `x${marker}` } }], "minimax-m2")).toThrow(
        /cannot be written/,
      );
    }
    // free text holding the opening marker's core: not text to the grammar, a section to strict parsing
    const text = "Calling<minimax:tool_call> now";
    expect(g.accepts(text)).toBe(false);
    expect(parseToolCalls(text, { ...M2, tools, mode: "strict" }).issues.map((i) => i.code)).toContain(
      "SECTION_LAYOUT",
    );
    // reasoning holding it: the grammar refuses, and the parser says a call there is no call
    const thinking = compileTools(tools, THINKING);
    const reasoned = `I will use <minimax:tool_call> here\n</think>\n\n${call("x")}`;
    expect(thinking.accepts(reasoned)).toBe(false);
    expect(parseToolCalls(reasoned, { ...THINKING, tools, mode: "strict" }).issues.map((i) => i.code)).toContain(
      "CALL_IN_REASONING",
    );
    expect(thinking.accepts(`I will call it\n</think>\n\n${call("x")}`)).toBe(true);
  });

  it("a block left open ends at the section's closing marker in any spacing", () => {
    const text = '<minimax:tool_call><invoke name="f"><parameter name="a">1</parameter></minimax:tool_call>Done.';
    const r = summary(parse(text, M2));
    expect(r.calls).toEqual([["f", { a: 1 }]]);
    expect(r.content).toBe("Done.");
  });
});
