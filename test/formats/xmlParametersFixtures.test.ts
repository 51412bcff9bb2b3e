import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseToolCalls, ToolCallStream } from "../../src/index.js";

/**
 * llama.cpp's real model outputs (test/fixtures/chat-outputs, from tests/test-chat.cpp) for the templates that
 * write tagged-parameter calls: each complete output with calls parses, tolerantly, into exactly the calls
 * llama.cpp expects, with the declared tools typing the values (a string parameter holding `5123123` stays a string).
 * Reasoning before `</think>` is cut off first (reading reasoning blocks is the shared turn grammar's job).
 */
const DIR = join(import.meta.dirname, "..", "fixtures", "chat-outputs");
const TOOLS = (JSON.parse(readFileSync(join(DIR, "tools.json"), "utf8")) as { tools: Record<string, unknown> }).tools;

interface Case {
  line: number;
  text: string;
  tools: string[];
  settings: Record<string, unknown>;
  expect?: { content: string; reasoning: string; toolCalls: { name: string; arguments: string }[] };
}

const FAMILIES: Record<string, string[]> = {
  // Qwen3-Coder's tolerant reading also takes the outputs of the models that write its calls with other whitespace
  "qwen3-coder": ["Qwen3-Coder", "Qwen3.5-4B", "NVIDIA-Nemotron-3-Nano-30B-A3B-BF16", "StepFun3.5-Flash"],
  "nemotron-3-nano": ["NVIDIA-Nemotron-3-Nano-30B-A3B-BF16"],
  "step-3.5": ["StepFun3.5-Flash"],
  "glm-4.5": ["GLM-4.6"],
  "glm-4.7": ["GLM-4.7-Flash"],
  "seed-oss": ["ByteDance-Seed-OSS"],
  "minimax-m2": ["MiniMax-M2"],
  // DSML: the `string="true|false"` markers say how each value is written
  "deepseek-v3.2": ["deepseek-ai-DeepSeek-V3.2"],
  "deepseek-v4": ["deepseek-ai-DeepSeek-V4", "deepseek-ai-DeepSeek-V4-Flash-0731"],
};

function casesOf(template: string): Case[] {
  const f = JSON.parse(readFileSync(join(DIR, `${template}.json`), "utf8")) as { cases: Case[] };
  return f.cases.filter((c) => !("is_partial" in c.settings) && (c.expect?.toolCalls.length ?? 0) > 0);
}

/** The text after the reasoning block, when the case has one. */
function afterReasoning(c: Case): string {
  const k = c.text.lastIndexOf("</think>");
  return k >= 0 ? c.text.slice(k + "</think>".length) : c.text;
}

describe.each(Object.entries(FAMILIES))("%s: llama.cpp's real outputs", (format, templates) => {
  it.each(templates)(
    "%s: every complete output with calls parses into the expected calls (batch = stream)",
    (template) => {
      const cases = casesOf(template);
      expect(cases.length).toBeGreaterThan(0);
      for (const c of cases) {
        const tools = c.tools.map((t) => TOOLS[t]);
        const text = afterReasoning(c);
        const r = parseToolCalls(text, { format, tools });
        const where = `${template} line ${c.line}`;
        expect(r.dropped, where).toBe(0);
        expect(
          r.calls.map((x) => ({ name: x.name, arguments: x.arguments })),
          where,
        ).toEqual(
          c.expect!.toolCalls.map((x) => ({
            name: x.name,
            arguments: JSON.parse(x.arguments === "" ? "{}" : x.arguments) as unknown,
          })),
        );
        // one character at a time, the stream reads the same
        const s = new ToolCallStream({ format, tools });
        for (const ch of text) s.push(ch);
        expect(s.end(), where).toEqual(r);
      }
    },
  );
});
