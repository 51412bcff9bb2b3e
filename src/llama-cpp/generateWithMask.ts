import type { LlamaContextSequence, LlamaModel, Token, TokenBias } from "node-llama-cpp";
import type { GenerateOptions, GenerateResult } from "./generationTypes.js";
import { loadNodeLlamaCpp } from "./loadNodeLlamaCpp.js";
import { MaskBiasCache } from "./MaskBiasCache.js";
import { asTokens, promptTokens, samplingOptions, withSequence } from "./withSequence.js";

/**
 * The per-step constraint `generateWithMask` drives: toolgram's TokenMatcher has this shape, and so can any other
 * token-mask engine.
 */
export interface TokenMaskMatcher {
  /** Sets bit i of `bits` (length ceil(vocabulary size / 32)) iff token i is allowed next; an EOS bit when complete. */
  fillNextTokenBitmask(bits: Uint32Array): void;
  /** Advances on `token`; false (state unchanged) if the token is not allowed. */
  acceptToken(token: number): boolean;
  /** The output so far is a complete match. */
  isCompleted(): boolean;
  /** The unique continuation, if any ("" when none); used for jump-forward decoding. */
  forcedText?(): string;
  /**
   * The mask narrowed to a token budget (`tokensLeft` more tokens, the end token included), so that the output is
   * complete before the budget runs out; returns whether the budget removed anything. Used when `closeWithinBudget`
   * is on. See TokenMatcher.
   */
  fillNextTokenBitmaskWithin?(bits: Uint32Array, tokensLeft: number): boolean;
}

export interface GenerateWithMaskOptions extends GenerateOptions {
  readonly matcher: TokenMaskMatcher;
  /**
   * When the matcher has a forced continuation, tokenize and append it without sampling (jump-forward decoding).
   * The forced text is tokenized on its own, so its tokens may differ from what the model would have produced.
   * @defaultValue false
   */
  readonly jumpForward?: boolean;
  /**
   * Narrow the masks near the end of `maxTokens` so that the output is always complete, and ended, within it (the
   * matcher's `fillNextTokenBitmaskWithin`). Without it, a model that never closes a string is cut at `maxTokens`
   * with a valid but unfinished prefix. Ignored when the matcher has no such method. @defaultValue true
   */
  readonly closeWithinBudget?: boolean;
}

export interface GenerateWithMaskResult extends GenerateResult {
  /** Tokens appended by jump-forward decoding rather than sampled. */
  readonly forcedTokens: number;
  /** Steps at which the token budget narrowed the mask. */
  readonly budgetSteps: number;
  /** Steps that had to be sampled twice because an unmaskable end-of-generation token came first. */
  readonly resampledSteps: number;
}


const eogCache = new WeakMap<LlamaModel, Uint8Array>();

/** Which token ids end generation (Qwen3 has several), computed once per model; its length is the vocabulary size. */
export function eogTable(model: LlamaModel): Uint8Array {
  let table = eogCache.get(model);
  if (table === undefined) {
    let size = 0;
    for (const id of model.iterateAllTokens()) size = Math.max(size, id + 1);
    table = new Uint8Array(size);
    for (let id = 0; id < size; id++) if (model.isEogToken(id as Token)) table[id] = 1;
    eogCache.set(model, table);
  }
  return table;
}

const eogCounts = new WeakMap<Uint8Array, number>();

function eogCount(eog: Uint8Array): number {
  let n = eogCounts.get(eog);
  if (n === undefined) {
    n = eog.reduce((a, b) => a + b, 0);
    eogCounts.set(eog, n);
  }
  return n;
}

function popcount(x: number): number {
  x = x - ((x >>> 1) & 0x55555555);
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (((x + (x >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

function isAllowed(bits: Uint32Array, token: number): boolean {
  return (bits[token >>> 5] & (1 << (token & 31))) !== 0;
}

/**
 * Generates with a custom token mask computed in JS at every step, through node-llama-cpp's
 * `sequence.controlledEvaluate`. node-llama-cpp exposes no mask filter, and its token bias cannot touch
 * end-of-generation tokens, so each step picks one of two exact encodings of the mask:
 *  - an end is allowed: disallowed ordinary tokens get -Infinity, and the model chooses freely between the allowed
 *    tokens and ending;
 *  - an end is not allowed: allowed tokens get a large logit boost (the relative odds among them are unchanged), or,
 *    when most of the vocabulary is allowed, the rest get -Infinity and a sampled end is undone and resampled with
 *    the boost.
 * Every sampled token is checked against the mask and fed to `matcher.acceptToken`; a mismatch throws.
 */
export async function generateWithMask(options: GenerateWithMaskOptions): Promise<GenerateWithMaskResult> {
  const { TokenBias: TokenBiasClass } = await loadNodeLlamaCpp();
  const { model, matcher } = options;
  const maxTokens = options.maxTokens ?? 256;
  const temperature = options.temperature ?? 0;
  const seed = options.seed ?? 0;
  const eog = eogTable(model);
  const size = eog.length;
  const bits = new Uint32Array(Math.ceil(size / 32));
  const input = promptTokens(model, options.prompt);
  const budgeted = options.closeWithinBudget !== false && matcher.fillNextTokenBitmaskWithin !== undefined;

  const biases = new MaskBiasCache(model, TokenBiasClass, eog);
  const ordinary = size - eogCount(eog);
  // the end-of-generation bits of each mask word, to count and test them word by word; kept ones (a closing marker
  // that llama.cpp counts as an end) apart: where the mask allows one, it is a token of the output, not its end
  const eogWords = new Uint32Array(bits.length);
  for (let id = 0; id < size; id++) if (eog[id] === 1) eogWords[id >>> 5] |= 1 << (id & 31);
  const kept = (options.keepEog ?? []).filter((id) => id >= 0 && id < size && eog[id] === 1);
  const keptWords = new Uint32Array(bits.length);
  for (const id of kept) keptWords[id >>> 5] |= 1 << (id & 31);
  const isKept = (token: number): boolean => (keptWords[token >>> 5] & (1 << (token & 31))) !== 0;

  // The generated tokens, for the repeat penalty (filled below).
  const generated: Token[] = [];
  const sampleOnce = async (sequence: LlamaContextSequence, pending: Token[], step: number, tokenBias: TokenBias): Promise<Token> => {
    const last = pending.length - 1;
    const results = await sequence.controlledEvaluate([
      ...pending.slice(0, last),
      [pending[last], { generateNext: { token: true, options: { temperature, seed: seed + step, tokenBias, ...samplingOptions(options, generated) } } }],
    ]);
    const token = results[last]?.next.token;
    if (token === undefined || token === null) throw new Error("llama.cpp returned no token for a masked step.");
    return token;
  };

  return withSequence(options, async (sequence, plan) => {
    const tokens = generated;
    let pending = plan.rest;
    let forcedTokens = 0;
    let resampledSteps = 0;
    let budgetSteps = 0;
    let finishReason: GenerateResult["finishReason"] = "length";
    const started = performance.now();

    while (tokens.length < maxTokens) {
      if (options.signal?.aborted === true) {
        finishReason = "stop";
        break;
      }
      if (options.jumpForward === true && matcher.forcedText !== undefined) {
        const forced = matcher.forcedText();
        if (forced !== "") {
          let appended = 0;
          for (const token of model.tokenize(forced, true)) {
            if (tokens.length >= maxTokens || !matcher.acceptToken(token)) break;
            tokens.push(token);
            options.onToken?.(token);
            pending = [...pending, token];
            appended++;
          }
          forcedTokens += appended;
          if (appended > 0) continue;
        }
      }

      bits.fill(0);
      if (budgeted) {
        if (matcher.fillNextTokenBitmaskWithin!(bits, maxTokens - tokens.length)) budgetSteps++;
      }
      else matcher.fillNextTokenBitmask(bits);
      if (size % 32 !== 0) bits[bits.length - 1] &= (1 << (size % 32)) - 1; // ids past the model's vocabulary
      // Count instead of listing: a mask inside a string allows most of the vocabulary.
      let allowedCount = 0;
      let endAllowed = false;
      let keptAllowed = -1;
      for (let w = 0; w < bits.length; w++) {
        const ordinaryBits = bits[w] & ~eogWords[w];
        if (ordinaryBits !== 0) allowedCount += popcount(ordinaryBits);
        if ((bits[w] & eogWords[w] & ~keptWords[w]) !== 0) endAllowed = true;
        const keptBits = bits[w] & keptWords[w];
        if (keptBits !== 0 && keptAllowed < 0) keptAllowed = w * 32 + (31 - Math.clz32(keptBits & -keptBits));
      }
      const step = tokens.length;
      let token: Token;
      if (allowedCount === 0) {
        if (endAllowed || matcher.isCompleted()) {
          finishReason = "stop";
          break;
        }
        if (keptAllowed < 0) throw new Error(`The matcher allows no token after ${tokens.length} generated tokens and is not complete.`);
        // the closing marker is all that may come: append it as a forced token (a bias cannot raise an end token)
        token = keptAllowed as Token;
        forcedTokens++;
      } else if (endAllowed) {
        token = await sampleOnce(sequence, pending, step, biases.biasFor(bits, "never"));
        if (eog[token] === 1 && !(isKept(token) && isAllowed(bits, token))) {
          finishReason = "stop";
          break;
        }
      } else if (keptAllowed < 0 && allowedCount <= ordinary - allowedCount) {
        token = await sampleOnce(sequence, pending, step, biases.biasFor(bits, "boost"));
      } else {
        token = await sampleOnce(sequence, pending, step, biases.biasFor(bits, "never"));
        if (eog[token] === 1 && !(isKept(token) && isAllowed(bits, token))) {
          // Undo the decode of the last pending token so that it can be evaluated again with the other encoding.
          resampledSteps++;
          const end = sequence.nextTokenIndex;
          await sequence.eraseContextTokenRanges([{ start: end - 1, end }]);
          token = await sampleOnce(sequence, [pending[pending.length - 1]], step, biases.biasFor(bits, "boost"));
        }
      }
      if (!isAllowed(bits, token)) throw new Error(`llama.cpp sampled token ${token}, which the mask does not allow.`);
      if (!matcher.acceptToken(token)) throw new Error(`The matcher refused token ${token}, which its own mask allowed.`);
      tokens.push(token);
      options.onToken?.(token);
      pending = [token];
    }
    const elapsedMs = performance.now() - started;
    return {
      text: model.detokenize(tokens, true),
      tokens,
      finishReason,
      promptTokens: input.length,
      cachedTokens: plan.cachedTokens,
      elapsedMs,
      tokensPerSecond: tokens.length / (elapsedMs / 1000),
      forcedTokens,
      resampledSteps,
      budgetSteps,
    };
  }, input);
}
