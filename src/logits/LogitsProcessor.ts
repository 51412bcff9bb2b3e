import type { MatcherOptions } from "../automaton/createMatcher.js";
import type { TokenMatcher } from "../automaton/TokenMatcher.js";
import type { CompiledGrammar } from "../CompiledGrammar.js";
import type { Vocabulary } from "../vocab/Vocabulary.js";
import { applyMask, type LogitsArray } from "./applyMask.js";

/** What a logits processor receives: a `[batch, vocab]` tensor (transformers.js `Tensor`) or anything shaped so. */
export interface LogitsTensorLike {
  /** Row-major `[batch, vocab]` values; a typed array (`Float32Array`, `Float16Array`, `Float64Array`). */
  data: LogitsArray & { subarray(begin: number, end: number): LogitsArray };
  /** The tensor's shape: the last dimension is the row width (`vocab`); `data` must hold rows × width values. */
  dims: readonly number[];
}

/** A token id as runtimes pass it: transformers.js uses `bigint`. */
export type TokenIdLike = number | bigint;

/** Options of {@link createLogitsProcessor}: the matcher's options and the token budget the output must end within. */
export interface LogitsProcessorOptions {
  /** Options of `compiled.createMatcher` (e.g. `specialTokens`). */
  matcher?: MatcherOptions;
  /**
   * The most new tokens the generation may take (the runtime's `max_new_tokens`). When set, the mask is narrowed
   * with `fillNextTokenBitmaskWithin` so that the output always ends within it (a closed call, not a truncated one).
   */
  maxNewTokens?: number;
}

/**
 * A callable with the shape of a transformers.js `LogitsProcessor`: `processor(inputIds, logits)` masks `logits`
 * in place and returns it, and `_call` is the same function (what `LogitsProcessorList` and `generate` invoke).
 */
export interface ToolgramLogitsProcessor {
  /**
   * Feeds each row's new tokens of `inputIds` to its matcher, then masks that row of `logits` in place and returns
   * `logits`. Throws a RangeError when `logits` does not hold `inputIds.length` rows of its last dimension.
   */
  <T extends LogitsTensorLike>(inputIds: readonly (readonly TokenIdLike[])[], logits: T): T;
  /** The same function as the call itself, under the name transformers.js's `LogitsProcessorList` invokes. */
  _call<T extends LogitsTensorLike>(inputIds: readonly (readonly TokenIdLike[])[], logits: T): T;
  /** One matcher per batch row, created on the first call. */
  readonly matchers: readonly TokenMatcher[];
  /**
   * Tokens that arrived although the mask forbade them (another processor re-enabled them, or a runtime sampled
   * outside the mask): per row, the first such token stops the matcher and only end tokens stay allowed.
   */
  readonly violations: readonly { row: number; tokenId: number; step: number }[];
  /** Forget all rows, to reuse the processor for another `generate` call. */
  reset(): void;
}

/**
 * Mask logits with toolgram's matcher inside a runtime that calls processors per step, as transformers.js's
 * generation utilities do: `generate({ ..., logits_processor: [createLogitsProcessor(compiled, vocab)] })`.
 *
 * At each call, the tokens appended to each row of `inputIds` since the previous call are fed to that row's matcher
 * (the first call only records the prompt length), then the row's logits get −∞ wherever the mask is clear.
 */
export function createLogitsProcessor(
  compiled: CompiledGrammar,
  vocab: Vocabulary,
  options: LogitsProcessorOptions = {},
): ToolgramLogitsProcessor {
  let matchers: TokenMatcher[] = [];
  let seen: number[] = [];
  let promptLength: number[] = [];
  let dead: boolean[] = [];
  let violations: { row: number; tokenId: number; step: number }[] = [];
  let bits: Uint32Array | undefined;

  const call = <T extends LogitsTensorLike>(inputIds: readonly (readonly TokenIdLike[])[], logits: T): T => {
    const rows = inputIds.length;
    const width = logits.dims[logits.dims.length - 1];
    if (logits.data.length !== rows * width)
      throw new RangeError(`logits hold ${logits.data.length} values, expected ${rows} rows × ${width}`);
    for (let r = 0; r < rows; r++) {
      const ids = inputIds[r];
      if (!matchers[r]) {
        matchers[r] = compiled.createMatcher(vocab, options.matcher);
        seen[r] = promptLength[r] = ids.length;
        dead[r] = false;
      }
      const m = matchers[r];
      bits ??= new Uint32Array(m.bitmaskSize);
      for (; seen[r] < ids.length; seen[r]++) {
        const id = Number(ids[seen[r]]);
        if (!dead[r] && !m.acceptToken(id)) {
          dead[r] = true;
          violations.push({ row: r, tokenId: id, step: seen[r] - promptLength[r] });
        }
      }
      if (dead[r]) {
        bits.fill(0);
        for (const e of vocab.eosTokenIds) bits[e >>> 5] |= 1 << (e & 31);
      } else if (options.maxNewTokens !== undefined) {
        m.fillNextTokenBitmaskWithin(bits, Math.max(1, options.maxNewTokens - (seen[r] - promptLength[r])));
      } else {
        m.fillNextTokenBitmask(bits);
      }
      applyMask(logits.data.subarray(r * width, (r + 1) * width), bits);
    }
    return logits;
  };

  const processor = call as ToolgramLogitsProcessor;
  Object.defineProperties(processor, {
    _call: { value: call },
    matchers: { get: () => matchers },
    violations: { get: () => violations },
    reset: {
      value: () => {
        matchers = [];
        seen = [];
        promptLength = [];
        dead = [];
        violations = [];
      },
    },
  });
  return processor;
}
