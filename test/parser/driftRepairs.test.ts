import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { FormatName } from "../../src/formats/FormatName.js";
import { parseToolCalls } from "../../src/parser/parseToolCalls.js";
import { ToolCallStream } from "../../src/parser/ToolCallStream.js";
import type { ParseMode, ParseOptions, StreamEvent } from "../../src/parser/types.js";
import { SEED, chunked } from "../support/parser/arbitraries.js";

/** Two drifts real models make that tolerant parsing repairs (issue codes MISSING_CLOSING_BRACKETS, FENCED_CALL). */
const TOOLS = [
  { name: "read_file", parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] } },
  {
    name: "list_dir",
    parameters: { type: "object", properties: { path: { type: "string" }, depth: { type: "integer" } } },
  },
];

function parse(
  text: string,
  mode: ParseMode = "tolerant",
  format: FormatName = "qwen3",
  tools: readonly unknown[] | null = TOOLS,
) {
  const o: ParseOptions = { format, mode };
  if (tools) o.tools = tools;
  return parseToolCalls(text, o);
}

const codes = (r: { issues: { code: string }[] }): string[] => r.issues.map((i) => i.code);

/** Stream = batch at random chunkings, events included (every started call ends once, text deltas are the content). */
function expectStreamAgrees(texts: string[], format: FormatName = "qwen3"): void {
  for (const mode of ["tolerant", "strict"] as const) {
    fc.assert(
      fc.property(fc.constantFrom(...texts), fc.array(fc.nat(), { maxLength: 10 }), (t, cuts) => {
        const batch = parse(t, mode, format);
        const s = new ToolCallStream({ tools: TOOLS, format, mode });
        const events: StreamEvent[] = [];
        for (const c of chunked(t, cuts)) events.push(...s.push(c));
        events.push(...s.flush());
        expect(s.end()).toEqual(batch);
        expect(events.flatMap((e) => (e.type === "text" ? [e.delta] : [])).join("")).toBe(batch.content);
        const starts = events.filter((e) => e.type === "call_start").map((e) => e.index);
        const ends = events.flatMap((e) => (e.type === "call_end" ? [e] : []));
        expect(ends.map((e) => e.index).sort((a, b) => a - b)).toEqual(starts);
        expect(ends.flatMap((e) => (e.call ? [e.call] : []))).toEqual(batch.calls);
        for (const c of batch.calls) expect(t.slice(c.span[0], c.span[1])).toBe(c.raw);
      }),
      { seed: SEED, numRuns: 120 },
    );
  }
}

describe("a closed block whose JSON lacks its last closing brackets", () => {
  const dropped = '<tool_call>\n{"name": "read_file", "arguments": {"path": "a.txt"}\n</tool_call>';

  it("is repaired in tolerant mode, with MISSING_CLOSING_BRACKETS", () => {
    const r = parse(dropped);
    expect(r.calls.map((c) => [c.name, c.arguments, c.valid])).toEqual([["read_file", { path: "a.txt" }, true]]);
    expect(codes(r)).toEqual(["MISSING_CLOSING_BRACKETS"]);
    expect(r.dropped).toBe(0);
    expect(r.calls[0].raw).toBe(dropped);
  });

  it("two missing brackets, and the repair beside other calls", () => {
    const two = '<tool_call>\n{"name": "read_file", "arguments": {"path": "a.txt"\n</tool_call>';
    expect(parse(two).calls.map((c) => c.arguments)).toEqual([{ path: "a.txt" }]);
    const good = '<tool_call>\n{"name": "list_dir", "arguments": {"path": "."}}\n</tool_call>';
    const r = parse(`Reading.\n${dropped}\n${good}`);
    expect(r.calls.map((c) => c.name)).toEqual(["read_file", "list_dir"]);
    expect(codes(r)).toEqual(["MISSING_CLOSING_BRACKETS"]);
  });

  it("is dropped in strict mode (not the canonical rendering)", () => {
    const r = parse(dropped, "strict");
    expect(r.calls).toEqual([]);
    expect(r.dropped).toBe(1);
    expect(codes(r)).toEqual(["NONCANONICAL"]);
  });

  it("is never repaired when the block was cut off (the input ended)", () => {
    for (const cut of [
      '<tool_call>\n{"name": "read_file", "arguments": {"path": "a.txt"}',
      '<tool_call>\n{"name": "read_file", "arguments": {"path": "a.txt"}\n',
    ]) {
      const r = parse(cut);
      expect(r.calls).toEqual([]);
      expect(codes(r)).toEqual(["TRUNCATED"]);
    }
  });

  it("is not repaired when more than closing brackets is missing or they would not match", () => {
    for (const body of [
      '{"name": "read_file", "arguments": {"path": "a.txt}', // ends inside a string
      '{"name": "read_file", "arguments": {"path":', // a value is missing
      '{"name": "read_file", "arguments": [1}', // a bracket closes the wrong kind
    ]) {
      const r = parse(`<tool_call>\n${body}\n</tool_call>`);
      expect(r.calls, body).toEqual([]);
      expect(codes(r)).not.toContain("MISSING_CLOSING_BRACKETS");
    }
  });

  it("stream = batch at random chunkings", () => {
    expectStreamAgrees([
      dropped,
      `Let me look.\n${dropped}\n<tool_call>\n{"name": "list_dir", "arguments": {}}\n</tool_call>`,
      '<tool_call>\n{"name": "read_file", "arguments": {"path": "a</tool_call>"\n</tool_call>',
      '<tool_call>\n{"name": "read_file", "arguments": {"path": "a.txt"}',
    ]);
  });
});

describe("a call in a Markdown code block, without the format's markers", () => {
  const fenced = '```json\n{"name": "read_file", "arguments": {"path": "a.txt"}}\n```';

  it("is read in tolerant mode, with FENCED_CALL; the block is not content", () => {
    const r = parse(`I will read it.\n${fenced}\nDone.`);
    expect(r.calls.map((c) => [c.name, c.arguments, c.valid])).toEqual([["read_file", { path: "a.txt" }, true]]);
    expect(codes(r)).toEqual(["FENCED_CALL"]);
    expect(r.content).toBe("I will read it.\n\nDone.");
    expect(r.calls[0].raw).toBe(fenced);
    expect(r.calls[0].span).toEqual([16, 16 + fenced.length]);
  });

  it("is reported, not read, in strict mode", () => {
    const text = `I will read it.\n${fenced}`;
    const r = parse(text, "strict");
    expect(r.calls).toEqual([]);
    expect(r.dropped).toBe(1);
    expect(codes(r)).toEqual(["FENCED_CALL"]);
    expect(r.content).toBe(text);
  });

  it("in every format, with the format's keys where it has JSON calls", () => {
    expect(parse(fenced, "tolerant", "pythonic").calls.map((c) => c.name)).toEqual(["read_file"]);
    expect(parse(fenced, "tolerant", "mistral").calls.map((c) => c.name)).toEqual(["read_file"]);
    const r = parse('```\n{"name": "list_dir", "parameters": {"path": "."}}\n```', "tolerant", "llama3-json");
    expect(r.calls.map((c) => c.arguments)).toEqual([{ path: "." }]);
    expect(codes(r)).toEqual(["FENCED_CALL"]);
  });

  it("stays text when it is not a call of a declared tool, or when no tools are given", () => {
    for (const text of [
      '```json\n{"name": "delete_everything", "arguments": {}}\n```',
      '```json\n{"path": "a.txt"}\n```',
      '```json\n{"name": "read_file", "arguments": {"path": "a.txt"}\n```', // not JSON
      '```python\nprint("hi")\n```',
      '```json\n{"name": "read_file", "arguments": {}}', // never closed
    ]) {
      const r = parse(text);
      expect(r.calls, text).toEqual([]);
      expect(r.issues).toEqual([]);
      expect(r.content).toBe(text);
    }
    expect(parse(fenced, "tolerant", "qwen3", null).calls).toEqual([]);
  });

  it("a format block inside the code block is read as the format's block", () => {
    const text = '```\n{"a": 1} <tool_call>\n{"name": "read_file", "arguments": {"path": "a.txt"}}\n</tool_call>\n```';
    const r = parse(text);
    expect(r.calls.map((c) => c.name)).toEqual(["read_file"]);
    expect(codes(r)).not.toContain("FENCED_CALL");
  });

  it("stream = batch at random chunkings", () => {
    const call = '<tool_call>\n{"name": "list_dir", "arguments": {"depth": 1}}\n</tool_call>';
    expectStreamAgrees([
      `I will read it.\n${fenced}\nDone.`,
      `${fenced}\n${fenced.replace("a.txt", "b.txt")}`,
      `${call}\n${fenced}`,
      '``json\n{"name": "read_file"} `` ```\n```json\n{"name": "read_file", "arguments": {"path": "`"}}```',
      '```json\n{"name": "read_file", "arguments": {"path": "a.txt"}}',
      '```json\n  \n{"a": "<tool_call>"} <tool_call>\n{"name": "read_file", "arguments": {"path": "x"}}\n</tool_call>',
    ]);
    expectStreamAgrees([`Sure.\n${fenced}`, fenced], "llama3-json");
  });

  it("an unclosed code block holds back no more than its bound, and stream = batch", () => {
    const text = `\`\`\`json\n{${"a".repeat(70000)}\`\`\` then text`;
    const r = parse(text);
    expect(r.content).toBe(text);
    const s = new ToolCallStream({ tools: TOOLS });
    let emitted = 0;
    for (let i = 0; i < text.length; i += 1000) {
      for (const e of s.push(text.slice(i, i + 1000))) if (e.type === "text") emitted += e.delta.length;
    }
    // decided (as text) once the block outgrew the bound, before the input ended
    expect(emitted).toBeGreaterThan(60000);
    s.flush();
    expect(s.end()).toEqual(r);
  });
});
