import type { LlamaContextSequence, TokenBias } from "node-llama-cpp";
import { describe, expect, it } from "vitest";
import { cacheBiasConversion, type BiasArrays } from "../../src/llama-cpp/cacheBiasConversion.js";

// A stand-in for node-llama-cpp's sequence: its `_resolveSamplerConfig` converts a bias (here a list of ids) the way
// `getTokenBiasesForAddon` does, and counts the conversions.
function fakeSequence(convert: (ids: number[]) => number[]): {
  sequence: LlamaContextSequence;
  conversions: () => number;
} {
  let conversions = 0;
  const sequence = {
    _resolveSamplerConfig(options: { tokenBias?: unknown }): Record<string, unknown> {
      const given = options.tokenBias as (number[] & object) | (() => number[]) | undefined;
      const bias = typeof given === "function" ? given() : given;
      if (bias === undefined || bias.length === 0) return { temperature: 1 };
      conversions++;
      const keys = convert(bias);
      return {
        temperature: 1,
        tokenBiasKeys: Uint32Array.from(keys),
        tokenBiasValues: new Float32Array(keys.length).fill(-Infinity),
      };
    },
  };
  return { sequence: sequence as unknown as LlamaContextSequence, conversions: () => conversions };
}

const bias = [3, 17, 40] as unknown as TokenBias;
const arrays: BiasArrays = { keys: Uint32Array.from([3, 17, 40]), values: new Float32Array(3).fill(-Infinity) };
const resolve = (sequence: LlamaContextSequence, tokenBias: unknown): Record<string, unknown> =>
  (sequence as unknown as { _resolveSamplerConfig(o: unknown): Record<string, unknown> })._resolveSamplerConfig({
    tokenBias,
  });

describe("cacheBiasConversion", () => {
  it("converts only the first step's bias (the check), then hands over the cached arrays with the rest of the configuration", () => {
    const { sequence, conversions } = fakeSequence((ids) => ids);
    const { stats, restore } = cacheBiasConversion(sequence, (b) => (b === bias ? arrays : undefined));
    let calls = 0;
    for (let step = 0; step < 5; step++) {
      const config = resolve(sequence, () => {
        calls++;
        return bias;
      });
      expect([...(config.tokenBiasKeys as Uint32Array)]).toEqual([3, 17, 40]);
      expect(config.temperature).toBe(1);
    }
    expect(calls).toBe(5);
    expect(conversions()).toBe(1);
    expect(stats).toEqual({ cachedSteps: 4, convertedSteps: 1, enabled: true });
    // a bias it does not know is node-llama-cpp's to convert
    resolve(sequence, [5]);
    expect(conversions()).toBe(2);
    restore();
    expect(Object.hasOwn(sequence, "_resolveSamplerConfig")).toBe(true); // the stand-in's own method, put back
    resolve(sequence, bias);
    expect(conversions()).toBe(3);
  });

  it("steps aside for the rest of the generation when node-llama-cpp's conversion differs from the cached arrays", () => {
    const { sequence, conversions } = fakeSequence((ids) => [...ids].reverse());
    const { stats } = cacheBiasConversion(sequence, () => arrays);
    for (let step = 0; step < 4; step++)
      expect([...(resolve(sequence, bias).tokenBiasKeys as Uint32Array)]).toEqual([40, 17, 3]);
    expect(conversions()).toBe(4);
    expect(stats).toEqual({ cachedSteps: 0, convertedSteps: 1, enabled: false });
  });

  it("changes nothing where the sequence has no such method", () => {
    const sequence = {} as LlamaContextSequence;
    const { stats, restore } = cacheBiasConversion(sequence, () => arrays);
    expect(stats.enabled).toBe(false);
    expect(Object.keys(sequence)).toEqual([]);
    restore();
  });
});
