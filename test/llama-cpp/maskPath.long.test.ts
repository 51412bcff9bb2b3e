import { readFileSync } from "node:fs";
import type { LlamaModel } from "node-llama-cpp";
import { beforeAll, describe, expect, it } from "vitest";
import { compiledFor, vocabularyOf } from "../../src/llama-cpp/generateToolCalls.js";
import { eogTable, generateWithMask, type TokenMaskMatcher } from "../../src/llama-cpp/generateWithMask.js";
import { loadNodeLlamaCpp } from "../../src/llama-cpp/loadNodeLlamaCpp.js";
import { MaskBiasCache } from "../../src/llama-cpp/MaskBiasCache.js";
import type { Vocabulary } from "../../src/vocab/Vocabulary.js";
import { tierSample } from "../support/tier.js";
import { tinyQwen3Model } from "../support/tinyQwen3.js";

// How the matcher path drives node-llama-cpp: one sampler per generation, masks computed during the forward pass,
// token biases built once per distinct mask. Counts work, never time.
const PROMPT = "<|im_start|>user\nWhat is the weather in Paris?<|im_end|>\n<|im_start|>assistant\n";
const tools: unknown = JSON.parse(readFileSync(new URL("../../examples/weather.tools.json", import.meta.url), "utf8"));
const sampling = { temperature: 1, repeatPenalty: { penalty: 1.5, lastTokens: 64 } } as const;

let model: LlamaModel;
let vocab: Vocabulary;

beforeAll(async () => {
  model = await tinyQwen3Model();
  vocab = await vocabularyOf(model);
});

/** The weather tools' matcher, recording the content of every mask it fills (in `sequence` too, in order). */
function recordingMatcher(masks: Set<string>, sequence: string[] = []): TokenMaskMatcher {
  const inner = compiledFor(tools, "required", false).createMatcher(vocab);
  const record = (bits: Uint32Array): void => {
    const key = Buffer.from(bits.buffer, bits.byteOffset, bits.byteLength).toString("base64");
    masks.add(key);
    sequence.push(key);
  };
  return {
    fillNextTokenBitmask: (bits) => {
      inner.fillNextTokenBitmask(bits);
      record(bits);
    },
    fillNextTokenBitmaskWithin: (bits, tokensLeft) => {
      const narrowed = inner.fillNextTokenBitmaskWithin(bits, tokensLeft);
      record(bits);
      return narrowed;
    },
    acceptToken: (token) => inner.acceptToken(token),
    isCompleted: () => inner.isCompleted(),
  };
}

describe("the matcher path through node-llama-cpp", () => {
  it("computing each mask during the forward pass gives the same tokens as computing it after", async () => {
    // each seed is two generations on the model: the quick tier takes one seed per case, the long tier all
    for (const seed of tierSample([1, 2, 3], 3)) {
      const common = { model, prompt: PROMPT, maxTokens: 48, seed, ...sampling, jumpForward: false };
      const overlapped = await generateWithMask({
        ...common,
        matcher: compiledFor(tools, "required", false).createMatcher(vocab),
      });
      const serial = await generateWithMask({
        ...common,
        matcher: compiledFor(tools, "required", false).createMatcher(vocab),
        overlapMasks: false,
      });
      expect(overlapped.tokens).toEqual(serial.tokens);
      expect(overlapped.text.startsWith("<tool_call>")).toBe(true);
      expect(serial.overlappedMasks).toBe(0);
    }
  });

  it("warming the matcher while the prompt is evaluated gives the same tokens, and warms only then", async () => {
    const common = { model, prompt: PROMPT, maxTokens: 32, seed: 6, ...sampling, jumpForward: false };
    const plain = await generateWithMask({
      ...common,
      matcher: compiledFor(tools, "required", false).createMatcher(vocab),
      warmWhilePrompt: false,
    });
    expect(plain.promptWarmSlices).toBe(0);
    // the matcher's warm-up recorded: how many slices, and whether any came after the first sampled token
    const inner = compiledFor(tools, "required", false).createMatcher(vocab);
    let sampled = 0;
    let warmCalls = 0;
    let warmAfterSampling = 0;
    const matcher: TokenMaskMatcher = {
      fillNextTokenBitmask: (bits) => inner.fillNextTokenBitmask(bits),
      fillNextTokenBitmaskWithin: (bits, left) => inner.fillNextTokenBitmaskWithin(bits, left),
      acceptToken: (token) => inner.acceptToken(token),
      isCompleted: () => inner.isCompleted(),
      forcedText: () => inner.forcedText(),
      warm: (work) => {
        warmCalls++;
        if (sampled > 0) warmAfterSampling++;
        expect(work).toBeGreaterThan(0);
        return inner.warm(work);
      },
    };
    const warmed = await generateWithMask({ ...common, matcher, onToken: () => sampled++ });
    expect(warmed.tokens).toEqual(plain.tokens);
    expect(warmed.promptWarmSlices).toBe(warmCalls);
    expect(warmAfterSampling).toBe(0);
  });

  it("builds node-llama-cpp's token bias at most once per distinct mask, across generations on the model", async () => {
    const { TokenBias } = await loadNodeLlamaCpp();
    const cache = MaskBiasCache.of(model, TokenBias, eogTable(model));
    const masks = new Set<string>();
    const builds0 = cache.builds;
    const hits0 = cache.hits;
    let resampled = 0;
    let steps = 0;
    for (const seed of [4, 5]) {
      const r = await generateWithMask({
        model,
        prompt: PROMPT,
        maxTokens: 48,
        seed,
        ...sampling,
        matcher: recordingMatcher(masks),
      });
      resampled += r.resampledSteps;
      steps += r.tokens.length;
    }
    const built = cache.builds - builds0;
    // one encoding per mask, and the other one only for a step resampled after an end token
    expect(built).toBeLessThanOrEqual(masks.size + resampled);
    expect(cache.hits - hits0).toBeGreaterThan(0);
    // the same generation again meets only masks already built
    const before = cache.builds;
    const again = await generateWithMask({
      model,
      prompt: PROMPT,
      maxTokens: 48,
      seed: 4,
      ...sampling,
      matcher: recordingMatcher(masks),
    });
    expect(cache.builds).toBe(before);
    expect(again.tokens.length).toBeGreaterThan(0);
    expect(steps).toBeGreaterThan(masks.size);
  });

  it("reads each step's mask once to find it when it repeats, hashes only a changed mask, and counts a mask's tokens once", async () => {
    const { TokenBias } = await loadNodeLlamaCpp();
    const eog = eogTable(model);
    // a cache of its own, so that the counts are this test's alone
    const cache = new MaskBiasCache(model, TokenBias, eog);
    const words = Math.ceil(eog.length / 32);
    const masks = new Set<string>();
    const sequence: string[] = [];
    let steps = 0;
    for (const seed of [6, 7, 6]) {
      const r = await generateWithMask({
        model,
        prompt: PROMPT,
        maxTokens: 64,
        seed,
        ...sampling,
        matcher: recordingMatcher(masks, sequence),
        biasCache: cache,
      });
      steps += r.tokens.length;
    }
    // a mask is read for every step (the last one too, where nothing is left to sample)
    expect(sequence.length).toBeGreaterThanOrEqual(steps);
    const changes = sequence.filter((key, i) => i === 0 || key !== sequence[i - 1]).length;
    // inside a string the mask repeats step after step: those steps are found by one comparison, without a hash
    expect(changes).toBeLessThan(sequence.length);
    expect(cache.wordsHashed).toBeLessThanOrEqual(changes * words);
    // at most a failed comparison with the previous mask and a successful one per step
    expect(cache.wordsCompared).toBeLessThanOrEqual(2 * sequence.length * words);
    // what a step needs of its mask (how many tokens it allows) is counted once per distinct mask, not per step
    expect(cache.counted).toBe(masks.size);
    expect(masks.size).toBeLessThan(sequence.length);
  });

  it("hands llama.cpp each mask's bias as arrays built once per mask, not converted by node-llama-cpp at every step, with the same tokens", async () => {
    for (const seed of tierSample([8, 1], 2)) {
      const common = { model, prompt: PROMPT, maxTokens: 64, seed, ...sampling, jumpForward: false };
      const cached = await generateWithMask({
        ...common,
        matcher: compiledFor(tools, "required", false).createMatcher(vocab),
      });
      const converted = await generateWithMask({
        ...common,
        matcher: compiledFor(tools, "required", false).createMatcher(vocab),
        biasConversion: "node-llama-cpp",
      });
      expect(cached.tokens).toEqual(converted.tokens);
      // node-llama-cpp's own conversion of a mask's bias: every step with one on its path, and on the cached path only
      // the first, which checks the cached arrays against it
      expect(converted.cachedBiasSteps).toBe(0);
      expect(converted.convertedBiasSteps).toBeGreaterThan(10);
      expect(cached.convertedBiasSteps).toBe(1);
      expect(cached.cachedBiasSteps).toBe(converted.convertedBiasSteps - 1);
    }
  });

  it("leaves the sequence's sampler configuration to node-llama-cpp again after the generation", async () => {
    const context = await model.createContext({ contextSize: 512, threads: 1, sequences: 1 });
    try {
      const sequence = context.getSequence();
      const before = (sequence as unknown as { _resolveSamplerConfig: unknown })._resolveSamplerConfig;
      const r = await generateWithMask({
        model,
        sequence,
        prompt: PROMPT,
        maxTokens: 16,
        seed: 2,
        ...sampling,
        matcher: compiledFor(tools, "required", false).createMatcher(vocab),
      });
      expect(r.cachedBiasSteps).toBeGreaterThan(0);
      expect(Object.hasOwn(sequence, "_resolveSamplerConfig")).toBe(false);
      expect((sequence as unknown as { _resolveSamplerConfig: unknown })._resolveSamplerConfig).toBe(before);
    } finally {
      await context.dispose();
    }
  });

  it("an error the matcher throws while a step is in flight reaches the caller, with or without the overlap", async () => {
    for (const overlapMasks of [true, false]) {
      const inner = compiledFor(tools, "required", false).createMatcher(vocab);
      let fills = 0;
      const failing: TokenMaskMatcher = {
        fillNextTokenBitmask: (bits) => {
          if (++fills === 5) throw new Error(`mask 5 failed (overlap ${overlapMasks})`);
          inner.fillNextTokenBitmask(bits);
        },
        acceptToken: (token) => inner.acceptToken(token),
        isCompleted: () => inner.isCompleted(),
      };
      await expect(
        generateWithMask({
          model,
          prompt: PROMPT,
          maxTokens: 32,
          seed: 1,
          ...sampling,
          matcher: failing,
          overlapMasks,
        }),
      ).rejects.toThrow(`mask 5 failed (overlap ${overlapMasks})`);
    }
  });

  it("the cache tells masks by content, not by array, and encodings apart", async () => {
    const { TokenBias } = await loadNodeLlamaCpp();
    const eog = eogTable(model);
    const cache = new MaskBiasCache(model, TokenBias, eog);
    const a = new Uint32Array(Math.ceil(eog.length / 32));
    a[1] = 0b1011;
    const b = a.slice();
    expect(cache.biasFor(b, "boost")).toBe(cache.biasFor(a, "boost"));
    expect(cache.builds).toBe(1);
    expect(cache.hits).toBe(1);
    cache.biasFor(a, "never");
    b[2] = 1;
    cache.biasFor(b, "boost");
    expect(cache.builds).toBe(3);
  });

  it("a mask's bias holds what TokenBias.set gives for its tokens (filled when node-llama-cpp reads it)", async () => {
    const { TokenBias } = await loadNodeLlamaCpp();
    const eog = eogTable(model);
    const cache = new MaskBiasCache(model, TokenBias, eog);
    const words = Math.ceil(eog.length / 32);
    // the words holding end-of-generation tokens (a bias leaves those out), and a few ordinary words
    const eogWords = new Set([...eog.keys()].filter((id) => eog[id] === 1).map((id) => id >>> 5));
    const some = new Set([0, 5, 6, 99, ...eogWords]);
    const read = (bias: object): Array<[number, number]> => [...(bias as { _biases: Map<number, number> })._biases];
    for (const encoding of ["boost", "never"] as const) {
      // few tokens biased either way: allowed ones (boost) or disallowed ones (never)
      const bits = new Uint32Array(words).fill(encoding === "boost" ? 0 : 0xffffffff);
      for (const w of some) bits[w] = encoding === "boost" ? 0xfffffff0 : 0x0000000f;
      const biased = [...eog.keys()].filter(
        (id) => (((bits[id >>> 5] as number) >>> (id & 31)) % 2 === 1) === (encoding === "boost"),
      );
      const bias = cache.biasFor(bits, encoding);
      const reference = new TokenBias(model.tokenizer).set(
        biased as never,
        encoding === "boost" ? { logit: 10_000 } : "never",
      );
      expect(read(bias)).toEqual(read(reference));
      expect(read(bias).length).toBeGreaterThan(100);
      expect(read(bias).length).toBeLessThan(biased.length);
      expect(cache.arraysOf(bias)?.keys).toEqual(Uint32Array.from(read(reference).map(([id]) => id)));
    }
  });
});
