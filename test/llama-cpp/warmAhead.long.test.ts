import { readFileSync } from "node:fs";
import type { LlamaModel } from "node-llama-cpp";
import { beforeAll, describe, expect, it } from "vitest";
import { compiledFor, vocabularyOf } from "../../src/llama-cpp/generateToolCalls.js";
import { generateWithMask, type TokenMaskMatcher } from "../../src/llama-cpp/generateWithMask.js";
import type { Vocabulary } from "../../src/vocab/Vocabulary.js";
import { tinyQwen3Model } from "../support/tinyQwen3.js";

// generateWithMask warms ahead of the generation while each generated token is evaluated: the same tokens as without,
// and only after a token was sampled. Counts calls, never time.
const PROMPT = "<|im_start|>user\nWhat is the weather in Paris?<|im_end|>\n<|im_start|>assistant\n";
const tools: unknown = JSON.parse(readFileSync(new URL("../../examples/weather.tools.json", import.meta.url), "utf8"));
const sampling = { temperature: 1, repeatPenalty: { penalty: 1.5, lastTokens: 64 } } as const;

let model: LlamaModel;
let vocab: Vocabulary;

beforeAll(async () => {
  model = await tinyQwen3Model();
  vocab = await vocabularyOf(model);
});

describe("warming ahead while a generated token is evaluated", () => {
  it("gives the same tokens as without, and warms only after a token was sampled", async () => {
    for (const seed of [4, 7]) {
      const common = { model, prompt: PROMPT, maxTokens: 40, seed, ...sampling, jumpForward: false };
      const plain = await generateWithMask({
        ...common,
        matcher: compiledFor(tools, "required", false).createMatcher(vocab),
        warmAhead: false,
      });
      const inner = compiledFor(tools, "required", false).createMatcher(vocab);
      let sampled = 0;
      let aheadCalls = 0;
      let aheadBeforeSampling = 0;
      const matcher: TokenMaskMatcher = {
        fillNextTokenBitmask: (bits) => inner.fillNextTokenBitmask(bits),
        fillNextTokenBitmaskWithin: (bits, left) => inner.fillNextTokenBitmaskWithin(bits, left),
        acceptToken: (token) => inner.acceptToken(token),
        isCompleted: () => inner.isCompleted(),
        forcedText: () => inner.forcedText(),
        warmAhead: (work) => {
          aheadCalls++;
          if (sampled === 0) aheadBeforeSampling++;
          expect(work).toBeGreaterThan(0);
          return inner.warmAhead(work);
        },
      };
      const ahead = await generateWithMask({ ...common, matcher, onToken: () => sampled++ });
      expect(ahead.tokens).toEqual(plain.tokens);
      expect(ahead.tokens.length).toBeGreaterThan(5);
      expect(aheadBeforeSampling).toBe(0);
      expect(aheadCalls).toBeGreaterThan(0);
    }
  });
});
