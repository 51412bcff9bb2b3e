/**
 * Stream = batch on the texts around a call that the stream holds back to decide: Llama 4's
 * `<|python_start|>…<|python_end|>` wrapper (vLLM's llama4_pythonic test outputs) and the whitespace after a
 * message's recipient in a turn of messages, at every chunking into two and three pieces.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseToolCalls } from "../../src/parser/parseToolCalls.js";
import { MAX_VALUE_GAP, ToolCallStream } from "../../src/parser/ToolCallStream.js";
import type { ParseMode } from "../../src/parser/types.js";

interface Case {
  format: string;
  id: string;
  text: string;
  calls: { name: string; arguments: Record<string, unknown> }[];
}

const fixture = JSON.parse(
  readFileSync(new URL("../fixtures/vllm-tool-parsers/cases.json", import.meta.url), "utf8"),
) as { cases: Case[] };

function streamed(chunks: string[], format: string, mode: ParseMode) {
  const s = new ToolCallStream({ format, mode });
  for (const c of chunks) s.push(c);
  return s.end();
}

/** Every split of `t` into two pieces, and into three with the second cut `step` characters apart. */
function chunkings(t: string, step: number): string[][] {
  const out: string[][] = [];
  for (let a = 0; a <= t.length; a++) {
    out.push([t.slice(0, a), t.slice(a)]);
    for (let b = a + 1; b <= t.length; b += step) out.push([t.slice(0, a), t.slice(a, b), t.slice(b)]);
  }
  return out;
}

describe("Llama 4's <|python_start|> wrapper streams as it parses", () => {
  const wrapped = fixture.cases.filter((c) => c.format === "pythonic" && c.text.includes("<|python_start|>"));
  it("the fixture holds vLLM's wrapped outputs", () => {
    expect(wrapped.length).toBeGreaterThanOrEqual(3);
  });
  for (const c of wrapped) {
    for (const mode of ["tolerant", "strict"] as const) {
      it(`${c.id} / ${mode}`, () => {
        const batch = parseToolCalls(c.text, { format: c.format, mode });
        if (mode === "tolerant") {
          expect(batch.calls.map((x) => ({ name: x.name, arguments: x.arguments }))).toEqual(c.calls);
          // neither marker is content
          expect(batch.content).toBe("");
        } else expect(batch.calls).toEqual([]);
        for (const chunks of chunkings(c.text, 7)) expect(streamed(chunks, c.format, mode)).toEqual(batch);
        expect(streamed([...c.text], c.format, mode)).toEqual(batch);
      });
    }
  }

  it("keeps text after the wrapper, and an end marker without a start prefix, as content", () => {
    const after = parseToolCalls("<|python_start|>[get_weather(city='LA')]<|python_end|> Done.", {
      format: "pythonic",
    });
    expect(after.calls.map((x) => x.name)).toEqual(["get_weather"]);
    expect(after.content).toBe(" Done.");
    const bare = parseToolCalls("[get_weather(city='LA')]<|python_end|>", { format: "pythonic" });
    expect(bare.calls.map((x) => x.name)).toEqual(["get_weather"]);
    expect(bare.content).toBe("<|python_end|>");
  });
});

describe("Granite 3.1's <tool_call> spelling of <|tool_call|> streams as it parses", () => {
  const variant = fixture.cases.filter((c) => c.format === "granite" && c.text.startsWith("<tool_call>"));
  it("the fixture holds vLLM's <tool_call> outputs", () => {
    expect(variant.length).toBeGreaterThanOrEqual(3);
  });
  for (const c of variant) {
    for (const mode of ["tolerant", "strict"] as const) {
      it(`${c.id} / ${mode}`, () => {
        const batch = parseToolCalls(c.text, { format: c.format, mode });
        if (mode === "tolerant") {
          expect(batch.calls.map((x) => ({ name: x.name, arguments: x.arguments }))).toEqual(c.calls);
          expect(batch.issues.map((i) => [i.code, i.span])).toContainEqual([
            "OPEN_MARKER_VARIANT",
            [0, "<tool_call>".length],
          ]);
          expect(batch.content).toBe("");
        } else {
          // the grammar writes the token: the other spelling is text to strict parsing
          expect(batch.calls).toEqual([]);
          expect(batch.content).toBe(c.text);
        }
        for (const chunks of chunkings(c.text, 13)) expect(streamed(chunks, c.format, mode)).toEqual(batch);
      });
    }
  }
});

interface ChatOutputCase {
  line: number;
  text: string;
  expect: { toolCalls: { name: string }[] };
}

function chatOutputs(file: string): ChatOutputCase[] {
  return (
    JSON.parse(readFileSync(new URL(`../fixtures/chat-outputs/${file}`, import.meta.url), "utf8")) as {
      cases: ChatOutputCase[];
    }
  ).cases;
}

/** llama.cpp's test-chat outputs with one call, and where its recipient's closing marker ends. */
const MESSAGE_CALLS = [
  { format: "functionary-v3.2", file: "meetkai-functionary-medium-v3.2.json", close: "special_function\n" },
  { format: "muse-glimmer", file: "muse-glimmer.json", close: "to=special_function<|message|>" },
].map((f) => {
  const c = chatOutputs(f.file).find((x) => x.expect.toolCalls.length === 1 && x.text.includes(f.close));
  if (c === undefined) throw new Error(`no call of special_function in ${f.file}`);
  return { ...f, text: c.text, at: c.text.indexOf(f.close) + f.close.length };
});

describe("whitespace after a message's recipient is bounded", () => {
  for (const m of MESSAGE_CALLS) {
    for (const n of [0, 1, MAX_VALUE_GAP - 1, MAX_VALUE_GAP, MAX_VALUE_GAP + 1, 3 * MAX_VALUE_GAP]) {
      it(`${m.format}: ${n} spaces before the value, stream = batch`, () => {
        const t = m.text.slice(0, m.at) + " ".repeat(n) + m.text.slice(m.at);
        const tolerant = parseToolCalls(t, { format: m.format });
        // a call while the gap stays under the bound; text beyond it
        expect(tolerant.calls.map((c) => c.name)).toEqual(n < MAX_VALUE_GAP ? ["special_function"] : []);
        for (const mode of ["tolerant", "strict"] as const) {
          const batch = parseToolCalls(t, { format: m.format, mode });
          for (const chunks of chunkings(t, 31)) expect(streamed(chunks, m.format, mode)).toEqual(batch);
        }
      });
    }

    it(`${m.format}: endless whitespace after a recipient is not held back`, () => {
      const s = new ToolCallStream({ format: m.format });
      let released = "";
      const take = (events: ReturnType<ToolCallStream["push"]>) => {
        for (const e of events) if (e.type === "text") released += e.delta;
      };
      take(s.push(m.text.slice(0, m.at)));
      for (let k = 0; k < 10 * MAX_VALUE_GAP; k++) take(s.push(" "));
      // everything but a bounded tail has come out as text, and the stream still equals the batch
      const pushed = m.text.slice(0, m.at) + " ".repeat(10 * MAX_VALUE_GAP);
      expect(pushed.length - released.length).toBeLessThanOrEqual(m.at + MAX_VALUE_GAP);
      expect(s.end()).toEqual(parseToolCalls(pushed, { format: m.format }));
    });
  }
});
