import type { LlamaContextSequence, TokenBias } from "node-llama-cpp";

/** A TokenBias in the shape llama.cpp's sampler takes it: token ids and their logit biases, in the bias's order. */
export interface BiasArrays {
  readonly keys: Uint32Array;
  readonly values: Float32Array;
}

/** What a generation's sampling steps did with their token bias. */
export interface BiasConversionStats {
  /** Steps whose bias reached llama.cpp as arrays built once per bias. */
  cachedSteps: number;
  /** Steps with a non-empty bias of the cache that node-llama-cpp converted itself (at most the first, checked one). */
  convertedSteps: number;
  /** False when this node-llama-cpp does not have the method, or its conversion did not match (then nothing is cached). */
  enabled: boolean;
}

interface SamplerConfig {
  tokenBiasKeys?: Uint32Array;
  tokenBiasValues?: Float32Array;
}
type TokenBiasOption = TokenBias | (() => TokenBias) | undefined;
type ResolveSamplerConfig = (this: unknown, options: { tokenBias?: TokenBiasOption }) => SamplerConfig;

/**
 * node-llama-cpp 3.21.1 turns the token bias into two typed arrays at every sampling step
 * (`LlamaContextSequence._resolveSamplerConfig` → `getTokenBiasesForAddon`: a walk of the bias's Map with two JS arrays
 * grown by push, ≈ 125 bytes of garbage per biased token), even when the bias is the same object as the step before;
 * inside a string that is ≈ 5,000 ids a step, and the conversion and its garbage collection were most of what the
 * matcher path cost over an unconstrained step. This hands llama.cpp the arrays of the biases `arraysOf` knows
 * (built once per mask, see MaskBiasCache) instead, on `sequence` alone and until `restore`: the rest of the sampler
 * configuration is still node-llama-cpp's own (its method is called without the bias, and the arrays added).
 *
 * It relies on that internal method, so it checks itself: the first cached bias is converted by node-llama-cpp too,
 * and unless its arrays are the same as the cached ones (ids and values, in order), nothing is cached for the rest of
 * the generation. Where the method does not exist, nothing changes.
 */
export function cacheBiasConversion(
  sequence: LlamaContextSequence,
  arraysOf: (bias: TokenBias) => BiasArrays | undefined,
): { stats: BiasConversionStats; restore(): void } {
  const target = sequence as unknown as { _resolveSamplerConfig?: ResolveSamplerConfig };
  const original = target._resolveSamplerConfig;
  const stats: BiasConversionStats = { cachedSteps: 0, convertedSteps: 0, enabled: typeof original === "function" };
  if (typeof original !== "function") return { stats, restore: () => undefined };
  const own = Object.getOwnPropertyDescriptor(target, "_resolveSamplerConfig");
  let checked = false;
  target._resolveSamplerConfig = function (this: unknown, options) {
    const given = options.tokenBias;
    // the bias function is called once per step, here, as node-llama-cpp would
    const bias = typeof given === "function" ? given() : given;
    const resolved = given === bias ? options : { ...options, tokenBias: bias };
    const arrays = bias === undefined || !stats.enabled ? undefined : arraysOf(bias);
    if (arrays === undefined || arrays.keys.length === 0) return original.call(this, resolved);
    if (!checked) {
      checked = true;
      const reference = original.call(this, resolved);
      stats.convertedSteps++;
      if (!sameArrays(reference, arrays)) stats.enabled = false;
      return reference;
    }
    const config = original.call(this, { ...options, tokenBias: undefined });
    config.tokenBiasKeys = arrays.keys;
    config.tokenBiasValues = arrays.values;
    stats.cachedSteps++;
    return config;
  };
  return {
    stats,
    restore: () => {
      if (own !== undefined) Object.defineProperty(target, "_resolveSamplerConfig", own);
      else delete target._resolveSamplerConfig;
    },
  };
}

function sameArrays(config: SamplerConfig, arrays: BiasArrays): boolean {
  const { tokenBiasKeys: keys, tokenBiasValues: values } = config;
  if (!(keys instanceof Uint32Array) || !(values instanceof Float32Array)) return false;
  if (keys.length !== arrays.keys.length || values.length !== arrays.values.length) return false;
  for (let i = 0; i < keys.length; i++) if (keys[i] !== arrays.keys[i] || values[i] !== arrays.values[i]) return false;
  return true;
}
