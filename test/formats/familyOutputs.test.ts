/**
 * Per model family: llama.cpp's real model outputs (test/fixtures/chat-outputs) parse into their expected calls, and
 * the family's chat templates' own renders (1 and 2 calls, with reasoning where the template shows it) are accepted
 * by the compiled grammar, parse strictly into exactly the probe calls, and render back byte for byte.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { OUTPUTS_DIR, type ChatOutputCase } from "../../scripts/extract-chat-outputs.js";
import { compileTools } from "../../src/compile.js";
import { describeFormat } from "../../src/formats/describeFormat.js";
import { withoutCallTurnEnd } from "../../src/formats/callTurnEnd.js";
import { contentBeforeCalls } from "../../src/formats/layoutText.js";
import type { FormatName } from "../../src/formats/FormatName.js";
import { parseToolCalls } from "../../src/parser/parseToolCalls.js";
import { renderToolCalls } from "../../src/parser/renderToolCalls.js";
import { formatFromChatTemplate } from "../../src/templates/formatFromChatTemplate.js";
import { PROBE, PROBE_CALLS, PROBE_TOOLS } from "../../src/templates/probeTemplate.js";
import { llamaCppSource, type LlamaCppSource } from "../../src/testing/llamaCppSource.js";

/**
 * Each family's fixtures (chat-outputs files) and templates (llama.cpp's models/templates). `reasoningClose`: the
 * outputs of cases that expect reasoning start inside the block the generation prompt opened, closed by this marker.
 * (Tagged-parameter families' outputs are also read with their tools typing the values in xmlParametersFixtures.test.ts.)
 */
const FAMILIES: Partial<
  Record<
    FormatName,
    { outputs: string[]; templates: string[]; reasoningClose?: string; skipLines?: Record<number, string> }
  >
> = {
  openai: { outputs: ["openai-gpt-oss-120b.json"], templates: ["openai-gpt-oss-120b.jinja"] },
  "mistral-v11": {
    outputs: ["mistralai-Ministral-3-14B-Reasoning-2512.json", "unsloth-mistral-Devstral-Small-2507.json"],
    templates: ["mistralai-Ministral-3-14B-Reasoning-2512.jinja", "unsloth-mistral-Devstral-Small-2507.jinja"],
  },
  "mistral-v11-call-id": {
    outputs: ["Mistral-Small-3.2-24B-Instruct-2506.json"],
    templates: ["Mistral-Small-3.2-24B-Instruct-2506.jinja"],
  },
  "mistral-nemo": {
    outputs: ["mistralai-Mistral-Nemo-Instruct-2407.json"],
    templates: ["mistralai-Mistral-Nemo-Instruct-2407.jinja"],
  },
  "nemotron-v2": { outputs: ["NVIDIA-Nemotron-Nano-v2.json"], templates: ["NVIDIA-Nemotron-Nano-v2.jinja"] },
  "functionary-v3.1": {
    outputs: ["meetkai-functionary-medium-v3.1.json"],
    templates: ["meetkai-functionary-medium-v3.1.jinja"],
  },
  "functionary-v3.2": {
    outputs: ["meetkai-functionary-medium-v3.2.json"],
    templates: ["meetkai-functionary-medium-v3.2.jinja"],
  },
  "muse-glimmer": { outputs: ["muse-glimmer.json"], templates: ["muse-glimmer.jinja"] },
  hy3: { outputs: [], templates: ["tencent-Hy3.jinja"] },
  // llama.cpp's outputs start after the prompt's `<|open|>think<|sep|>`: reasoning (when any), then the response section
  "kimi-k3": {
    outputs: ["Kimi-K3.json"],
    templates: ["Kimi-K3.jinja"],
    reasoningClose: "<|close|>think<|sep|><|open|>response<|sep|>",
  },
  lfm2: {
    outputs: ["LFM2.5-8B-A1B.json", "LFM2-8B-A1B.json", "LFM2.5-Instruct.json"],
    templates: ["LFM2.5-8B-A1B.jinja"],
  },
  gigachat3: { outputs: ["GigaChat3-10B-A1.8B.json"], templates: [] }, // one call per turn: the acceptance report checks its template
  "gigachat3-1": { outputs: ["GigaChat3.1-10B-A1.8B.json"], templates: [] }, // one call per turn: the acceptance report checks its template
  "glm-4.5": {
    outputs: ["GLM-4.6.json"],
    templates: ["GLM-4.6.jinja", "poolside-Laguna-XS-2.1.jinja", "poolside-Laguna-XS.2.jinja"],
  },
  "glm-4.7": { outputs: ["GLM-4.7-Flash.json"], templates: ["GLM-4.7-Flash.jinja", "poolside-Laguna-S-2.1.jinja"] },
  // the R1 distill's and V3.1's templates render reasoning beside calls garbled (a thinking object printed after the
  // calls, or none): their calls pass the acceptance harness (docs/template-acceptance.md), which skips inferred reasoning
  "deepseek-v3": {
    outputs: ["llama-cpp-deepseek-r1.json", "deepseek-ai-DeepSeek-R1-Distill-Qwen-32B.json"],
    templates: ["llama-cpp-deepseek-r1.jinja"],
  },
  "deepseek-v3.1": { outputs: ["deepseek-ai-DeepSeek-V3.1.json"], templates: [] },
  "kimi-k2": {
    outputs: ["moonshotai-Kimi-K2.json", "Kimi-K2-Instruct.json", "Kimi-K2-Thinking.json"],
    templates: ["moonshotai-Kimi-K2.jinja", "Kimi-K2-Instruct.jinja", "Kimi-K2-Thinking.jinja"],
  },
  "minimax-m1": { outputs: [], templates: ["MiniMax-M1.jinja"] },
  "minimax-m2": { outputs: ["MiniMax-M2.json"], templates: ["MiniMax-M2.jinja"], reasoningClose: "\n</think>\n\n" },
  // llama.cpp keeps the elements of a `string | object` parameter as the string's text (line 5389); here a string
  // never holds the tag prefix, so they are the object (test/formats/minimaxM3.test.ts reads it with its tools)
  "minimax-m3": {
    outputs: ["MiniMax-M3.json"],
    templates: ["MiniMax-M3.jinja"],
    skipLines: { 5389: "elements read as the object, not as a string" },
  },
  "nemotron-3-nano": {
    outputs: ["NVIDIA-Nemotron-3-Nano-30B-A3B-BF16.json"],
    templates: ["NVIDIA-Nemotron-3-Nano-30B-A3B-BF16.jinja"],
  },
  "step-3.5": { outputs: [], templates: ["StepFun3.5-Flash.jinja"] },
  apertus: { outputs: ["Apertus-8B-Instruct.json"], templates: ["Apertus-8B-Instruct.jinja"] },
  // R7B's outputs open the reasoning themselves; Cohere2 MoE's generation prompt opens it (its outputs have no opener)
  "command-r7b": {
    outputs: ["CohereForAI-c4ai-command-r7b-12-2024-tool_use.json", "Cohere2MoE.json"],
    templates: ["CohereForAI-c4ai-command-r7b-12-2024-tool_use.jinja", "Cohere2MoE.jinja"],
  },
  // llama.cpp's output writes the list compact and closes it `]\n```` (the template: indented, `\n]```\n`): its call
  // is read, the close is left as text (UNCLOSED_SECTION)
  "command-r-plus": {
    outputs: ["CohereForAI-c4ai-command-r-plus-tool_use.json"],
    templates: ["CohereForAI-c4ai-command-r-plus-tool_use.jinja"],
  },
  "seed-oss": { outputs: ["ByteDance-Seed-OSS.json"], templates: ["ByteDance-Seed-OSS.jinja"] },
  // llama.cpp has no test outputs of Solar Open
  "solar-open": { outputs: [], templates: ["upstage-Solar-Open-100B.jinja"] },
  "reka-edge": { outputs: ["Reka-Edge.json"], templates: ["Reka-Edge.jinja"], reasoningClose: "\n</think>\n\n" },
  "deepseek-v3.2": {
    outputs: ["deepseek-ai-DeepSeek-V3.2.json"],
    templates: ["deepseek-ai-DeepSeek-V3.2.jinja"],
    reasoningClose: "</think>",
  },
  "deepseek-v4": {
    outputs: ["deepseek-ai-DeepSeek-V4.json", "deepseek-ai-DeepSeek-V4-Flash-0731.json"],
    templates: ["deepseek-ai-DeepSeek-V4.jinja", "deepseek-ai-DeepSeek-V4-Flash-0731.jinja"],
    reasoningClose: "</think>",
    // llama.cpp ends V4's reasoning at the calls' section too; here an unclosed block holds everything after it
    // (a call inside the reasoning is not a call), so this output's call is not read: docs/formats.md says so
    skipLines: { 4258: "reasoning never closed before the calls" },
  },
  // the main template ends a call turn with `<|tool_response>` (callTurnEnd), where llama.cpp's outputs stop
  // the template reads the tools from `functions` and the date from `datetime` (ChatTemplate passes both, as llama.cpp does)
  "firefunction-v2": {
    outputs: ["fireworks-ai-llama-3-firefunction-v2.json"],
    templates: ["fireworks-ai-llama-3-firefunction-v2.jinja"],
  },
  gemma4: {
    outputs: ["google-gemma-4-31B-it.json"],
    templates: ["google-gemma-4-31B-it.jinja", "google-gemma-4-31B-it-interleaved.jinja"],
  },
};

const sameJson = (a: string, b: unknown): boolean =>
  JSON.stringify(sortKeys(JSON.parse(a === "" ? "{}" : a))) === JSON.stringify(sortKeys(b));
function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v !== null && typeof v === "object")
    return Object.fromEntries(
      Object.keys(v)
        .sort()
        .map((k) => [k, sortKeys((v as Record<string, unknown>)[k])]),
    );
  return v;
}

describe("real model outputs parse into their expected calls", () => {
  for (const [format, family] of Object.entries(FAMILIES) as [
    FormatName,
    { outputs: string[]; reasoningClose?: string; skipLines?: Record<number, string> },
  ][]) {
    for (const file of family.outputs) {
      it(`${format}: ${file}`, () => {
        const fixture = JSON.parse(readFileSync(join(OUTPUTS_DIR, file), "utf8")) as { cases: ChatOutputCase[] };
        const cases = fixture.cases.filter(
          (c) =>
            (c.expect?.toolCalls.length ?? 0) > 0 &&
            !("is_partial" in c.settings) &&
            family.skipLines?.[c.line] === undefined,
        );
        expect(cases.length).toBeGreaterThan(0);
        const misses: string[] = [];
        for (const c of cases) {
          const thinks = family.reasoningClose !== undefined && (c.expect?.reasoning ?? "") !== "";
          const reasoning = thinks
            ? { reasoning: "required" as const, reasoningMarkers: { open: "", close: family.reasoningClose as string } }
            : {};
          const r = parseToolCalls(c.text, { format, mode: "tolerant", ...reasoning });
          const want = c.expect?.toolCalls ?? [];
          const ok =
            r.calls.length === want.length &&
            want.every((w, i) => r.calls[i].name === w.name && sameJson(w.arguments, r.calls[i].arguments));
          if (!ok)
            misses.push(
              `line ${c.line}: ${JSON.stringify(r.calls.map((x) => [x.name, x.arguments]))} ${JSON.stringify(r.issues.map((i) => i.code))}`,
            );
        }
        expect(misses).toEqual([]);
      });
    }
  }
});

describe("the family's chat templates: grammar accepts, strict parse, render byte for byte", () => {
  let src: LlamaCppSource | undefined;
  beforeAll(async () => {
    src = await llamaCppSource();
    if (src === undefined)
      console.warn("skipped: llama.cpp's source is not available (node-llama-cpp's bundle or git missing)");
  }, 300_000);

  for (const [format, family] of Object.entries(FAMILIES) as [FormatName, { templates: string[] }][]) {
    for (const file of family.templates) {
      it(`${format}: ${file}`, ({ skip }) => {
        if (src === undefined) skip();
        const t = formatFromChatTemplate(
          readFileSync(join((src as LlamaCppSource).dir, "models", "templates", file), "utf8"),
        );
        expect(t.format).toBe(format);
        const markers = { open: t.reasoningMarkers.start, close: t.reasoningMarkers.end };
        const cases = [
          { turn: t.probe.oneCall, calls: PROBE_CALLS.one, reasoning: false },
          { turn: t.singleCall ? undefined : t.probe.twoCalls, calls: PROBE_CALLS.two, reasoning: false },
          {
            turn: t.reasoning === "none" ? undefined : t.probe.oneCallWithReasoning,
            calls: PROBE_CALLS.one,
            reasoning: true,
          },
          {
            turn: t.reasoning === "none" || t.singleCall ? undefined : t.probe.twoCallsWithReasoning,
            calls: PROBE_CALLS.two,
            reasoning: true,
          },
        ].filter((c) => c.turn !== undefined);
        expect(cases.length).toBeGreaterThanOrEqual(2);
        for (const c of cases) {
          // a call turn's own end-of-turn token (Functionary's `<|eom_id|>`) ends generation: not part of the reply
          const text = withoutCallTurnEnd(describeFormat(format), c.turn?.body ?? "");
          const options = c.reasoning
            ? { reasoning: t.reasoning, reasoningMarkers: markers }
            : { reasoning: "none" as const };
          expect(compileTools(PROBE_TOOLS, { format, ...options }).accepts(text), text).toBe(true);
          const r = parseToolCalls(text, { tools: PROBE_TOOLS, format, mode: "strict", ...options });
          expect(r.issues, text).toEqual([]);
          expect(r.calls.map((x) => ({ name: x.name, arguments: x.arguments }))).toEqual(c.calls);
          if (c.reasoning) expect(r.reasoning).toBe(PROBE.reasoning);
          // the content holds the text between and after the blocks too, which renderToolCalls writes itself
          const content = contentBeforeCalls(describeFormat(format), r.content, c.calls.length);
          // templates that write call ids render the probe's, which the parse returns
          const calls = c.calls.map((x, i) => (r.calls[i]?.id !== undefined ? { ...x, id: r.calls[i].id } : x));
          const again = renderToolCalls(calls, format, {
            ...(c.reasoning ? { reasoning: PROBE.reasoning, reasoningMarkers: markers } : {}),
            content,
          });
          expect(again).toBe(text);
        }
      });
    }
  }
});
