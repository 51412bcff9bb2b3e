import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { FORMAT_DESCRIPTIONS, FORMAT_NAMES } from "../../src/formats/index.js";
import { tierRuns } from "../support/tier.js";
import { renderToolCalls } from "../../src/parser/renderToolCalls.js";
import { parseToolCalls } from "../../src/parser/parseToolCalls.js";
import { ToolCallStream } from "../../src/parser/ToolCallStream.js";
import type { FormatName } from "../../src/formats/FormatName.js";
import type { ParseMode, StreamEvent } from "../../src/parser/types.js";
import { SEED, callsArb, chunked, mutated, replyArb, trickyString } from "../support/parser/arbitraries.js";
import { TOOLS } from "../support/parser/tools.js";

function streamed(chunks: string[], format: FormatName, mode: ParseMode) {
  const s = new ToolCallStream({ tools: TOOLS, format, mode });
  const events: StreamEvent[] = [];
  for (const c of chunks) events.push(...s.push(c));
  events.push(...s.flush());
  return { events, result: s.end() };
}

describe("ToolCallStream = parseToolCalls at every chunking", () => {
  for (const format of FORMAT_NAMES) {
    for (const mode of ["tolerant", "strict"] as const) {
      it(`${format} / ${mode}`, () => {
        const text = fc.oneof(replyArb(format), mutated(replyArb(format)), trickyString);
        fc.assert(
          fc.property(text, fc.array(fc.nat(), { maxLength: 8 }), (t, cuts) => {
            const batch = parseToolCalls(t, { tools: TOOLS, format, mode });
            const { events, result } = streamed(chunked(t, cuts), format, mode);
            expect(result).toEqual(batch);
            const deltas = events.flatMap((e) => (e.type === "text" ? [e.delta] : [])).join("");
            expect(deltas).toBe(batch.content);
            // every started call ends once; kept calls come out in order
            const starts = events.filter((e) => e.type === "call_start").map((e) => e.index);
            const ends = events.flatMap((e) => (e.type === "call_end" ? [e] : []));
            expect(ends.map((e) => e.index).sort((a, b) => a - b)).toEqual(starts);
            expect(ends.flatMap((e) => (e.call ? [e.call] : []))).toEqual(batch.calls);
            // raw is the text at span, spans ascend and do not overlap
            let last = 0;
            for (const c of batch.calls) {
              expect(t.slice(c.span[0], c.span[1])).toBe(c.raw);
              expect(c.span[0]).toBeGreaterThanOrEqual(last);
              last = c.span[1];
            }
          }),
          { seed: SEED, numRuns: tierRuns(30, 150) },
        );
      });
    }
  }

  it("one-character chunks equal the batch on a multi-call reply", () => {
    const t =
      'Let me check.\n<tool_call>\n{"name": "get_weather", "arguments": {"city": "a</tool_call>b"}}\n</tool_call>\n<tool_call>\n{"name": "search", "arguments": {"query": "x", "limit": 2}}\n</tool_call>';
    const { result } = streamed([...t], "qwen3", "tolerant");
    expect(result).toEqual(parseToolCalls(t, { tools: TOOLS }));
    expect(result.calls.map((c) => c.name)).toEqual(["get_weather", "search"]);
  });

  it("holds back a partial marker at a chunk edge", () => {
    const s = new ToolCallStream({ tools: TOOLS });
    expect(s.push("Hello <tool_")).toEqual([{ type: "text", delta: "Hello " }]);
    const ev = s.push('call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call>');
    expect(ev.filter((e) => e.type === "text")).toEqual([]);
    expect(ev.map((e) => e.type)).toEqual(["call_start", "call_name", "arguments_delta", "call_end"]);
    expect(ev.find((e) => e.type === "arguments_delta")).toEqual({
      type: "arguments_delta",
      index: 0,
      delta: '{"city": "Paris"}',
    });
    // a held prefix that turns out not to be a marker is released
    const s2 = new ToolCallStream();
    expect(s2.push("a <tool_")).toEqual([{ type: "text", delta: "a " }]);
    expect(s2.push("x")).toEqual([{ type: "text", delta: "<tool_x" }]);
    expect(s2.push("<")).toEqual([]);
    expect(s2.flush()).toEqual([{ type: "text", delta: "<" }]);
    expect(s2.end().content).toBe("a <tool_x<");
  });

  it("streams argument deltas that concatenate to the arguments text", () => {
    const t = '<tool_call>\n{"name": "search", "arguments": {"query": "}{\\"", "limit": 3}}\n</tool_call>';
    const { events } = streamed([...t], "qwen3", "tolerant");
    const args = events.flatMap((e) => (e.type === "arguments_delta" ? [e.delta] : [])).join("");
    expect(args).toBe('{"query": "}{\\"", "limit": 3}');
    expect(events.find((e) => e.type === "call_name")).toEqual({ type: "call_name", index: 0, name: "search" });
  });

  it("is linear: a million one-byte chunks", () => {
    const call = `<tool_call>\n{"name": "search", "arguments": {"query": "${"x".repeat(200)}", "limit": 1}}\n</tool_call>\n`;
    const unit = `Some text with < and > and <tool_ but no call. ${call}`;
    const text = unit.repeat(Math.ceil(1_000_000 / unit.length)).slice(0, 1_000_000);
    // no verdict on the clock: a quadratic stream would run for hours here and hit the test's timeout
    const s = new ToolCallStream({ tools: TOOLS });
    for (let i = 0; i < text.length; i++) s.push(text[i]);
    const r = s.end();
    expect(r).toEqual(parseToolCalls(text, { tools: TOOLS }));
    expect(r.calls.length).toBeGreaterThan(3000);
  });
});

describe("ToolCallStream reports each call's name as soon as it is known", () => {
  // every format whose unit names the call before its arguments: the name comes in a call_name event (or on
  // call_start), before any of the call's argument text and before its end, at every chunking
  for (const format of FORMAT_NAMES) {
    const d = FORMAT_DESCRIPTIONS[format];
    if (d.unit.kind === "python-call" && d.grouping === "block") continue;
    it(`${format} (${d.unit.kind}, ${d.grouping})`, () => {
      fc.assert(
        fc.property(callsArb(format), fc.array(fc.nat(), { maxLength: 8 }), (calls, cuts) => {
          const text = renderToolCalls(calls, format);
          const { events, result } = streamed(chunked(text, cuts), format, "tolerant");
          expect(result.calls.map((c) => c.name)).toEqual(calls.map((c) => c.name));
          for (let index = 0; index < calls.length; index++) {
            const at = events.findIndex(
              (e) => (e.type === "call_name" || e.type === "call_start") && e.index === index && e.name !== undefined,
            );
            expect(at, `call ${index}'s name is reported`).toBeGreaterThanOrEqual(0);
            expect((events[at] as { name: string }).name).toBe(calls[index].name);
            const firstArgs = events.findIndex((e) => e.type === "arguments_delta" && e.index === index);
            const end = events.findIndex((e) => e.type === "call_end" && e.index === index);
            if (firstArgs >= 0) expect(at).toBeLessThan(firstArgs);
            expect(at).toBeLessThan(end);
            expect(events.filter((e) => e.type === "call_name" && e.index === index)).toHaveLength(
              at >= 0 && events[at].type === "call_name" ? 1 : 0,
            );
          }
        }),
        { seed: SEED, numRuns: tierRuns(20, 100) },
      );
    });
  }

  it("names a harmony call and a Qwen3-Coder call before their ends, one character at a time", () => {
    const harmony = ' to=functions.get_weather<|channel|>commentary json<|message|>{"city": "Paris"}<|call|>';
    const h = streamed([...harmony], "openai", "tolerant").events;
    expect(h.findIndex((e) => e.type === "call_name")).toBeLessThan(h.findIndex((e) => e.type === "call_end"));
    expect(h.find((e) => e.type === "call_name")).toEqual({ type: "call_name", index: 0, name: "get_weather" });
    const coder = "<tool_call>\n<function=search>\n<parameter=query>\nx\n</parameter>\n</function>\n</tool_call>";
    const q = streamed([...coder], "qwen3-coder", "tolerant").events;
    const name = q.findIndex((e) => e.type === "call_name");
    expect(q[name]).toEqual({ type: "call_name", index: 0, name: "search" });
    // reported when the name's closing ">" arrives, long before the block ends
    expect(q.slice(0, name).filter((e) => e.type === "call_start")).toHaveLength(1);
    expect(name).toBeLessThan(q.findIndex((e) => e.type === "call_end"));
  });
});
