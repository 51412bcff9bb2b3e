import type { LlamaModel, Token, TokenBias } from "node-llama-cpp";
import type { GenerateOptions, GenerateResult } from "./generationTypes.js";
import { loadNodeLlamaCpp } from "./loadNodeLlamaCpp.js";
import { cacheBiasConversion, type BiasConversionStats } from "./cacheBiasConversion.js";
import { MaskBiasCache, type MaskEntry } from "./MaskBiasCache.js";
import { promptTokens, samplingOptions, withSequence } from "./withSequence.js";

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

/**
 * Options of {@link generateWithMask}: the generation settings and the token matcher whose masks constrain sampling.
 */
export interface GenerateWithMaskOptions extends GenerateOptions {
  /** The constraint: a fresh matcher (e.g. `compiled.createMatcher(vocab)`), advanced by every generated token. */
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
  /**
   * Compute each step's mask while llama.cpp evaluates the previous token (its forward pass runs on a worker thread;
   * node-llama-cpp reads the token bias only once the logits are ready). false computes the mask after the forward
   * pass, when the bias is read. The tokens are the same either way: only when the work happens differs.
   * @defaultValue true
   */
  readonly overlapMasks?: boolean;
  /**
   * `"cached"`: each mask's token bias reaches llama.cpp as arrays built once per mask (cacheBiasConversion, which
   * checks itself against node-llama-cpp's own conversion and steps aside if they differ). `"node-llama-cpp"`: the
   * binding converts the bias at every step, as its public API does. The tokens are the same either way.
   * @defaultValue "cached"
   */
  readonly biasConversion?: "cached" | "node-llama-cpp";
  /**
   * Where masks' token biases are kept. Internal: tests give a fresh cache to count conversions; the cache's class is
   * not part of the API.
   * @defaultValue the cache shared by every generation on the model (`MaskBiasCache.of`)
   * @internal
   */
  readonly biasCache?: MaskBiasCache;
}

/**
 * What {@link generateWithMask} produced: a {@link GenerateResult} and counts of how the masks were applied (forced tokens,
 * budget steps, resampled steps, cached and converted biases).
 */
export interface GenerateWithMaskResult extends GenerateResult {
  /** Tokens appended by jump-forward decoding rather than sampled. */
  readonly forcedTokens: number;
  /** Steps at which the token budget narrowed the mask. */
  readonly budgetSteps: number;
  /** Steps that had to be sampled twice because an unmaskable end-of-generation token came first. */
  readonly resampledSteps: number;
  /** Masks computed while llama.cpp evaluated the previous token (the rest were computed when the bias was read). */
  readonly overlappedMasks: number;
  /** Sampling steps whose token bias reached llama.cpp as arrays built once per mask (see `biasConversion`). */
  readonly cachedBiasSteps: number;
  /** Sampling steps with a mask's bias that node-llama-cpp converted itself. */
  readonly convertedBiasSteps: number;
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

const eogIdLists = new WeakMap<Uint8Array, readonly number[]>();

/** The ids of `eogTable`, listed once per table. */
function eogIds(eog: Uint8Array): readonly number[] {
  let ids = eogIdLists.get(eog);
  if (ids === undefined) {
    const list: number[] = [];
    for (let id = 0; id < eog.length; id++) if (eog[id] === 1) list.push(id);
    eogIdLists.set(eog, (ids = list));
  }
  return ids;
}

function isAllowed(bits: Uint32Array, token: number): boolean {
  return (bits[token >>> 5] & (1 << (token & 31))) !== 0;
}

/** One step's mask, read once and kept until its token is sampled. */
interface StepMask {
  /** The mask's cache entry (its TokenBias per encoding). */
  readonly entry: MaskEntry;
  /** Ordinary (not end-of-generation) tokens allowed. */
  readonly allowedCount: number;
  /** An end-of-generation token that ends the output is allowed. */
  readonly endAllowed: boolean;
  /** The first kept end token (`keepEog`) the mask allows, or -1. */
  readonly keptAllowed: number;
  /** The bias to sample with; undefined when nothing is to be sampled (no ordinary token allowed). */
  readonly bias: TokenBias | undefined;
  /** The bias is "never" on the disallowed tokens, so that a sampled end token must be resampled with the boost. */
  readonly mayResample: boolean;
}

/**
 * Generates with a custom token mask computed in JS at every step, through node-llama-cpp's `sequence.evaluate`
 * with a token bias read before each sampling step (one sampler for the whole generation, as unconstrained
 * generation has). node-llama-cpp exposes no mask filter, and its token bias cannot touch end-of-generation tokens,
 * so each step picks one of two exact encodings of the mask:
 *  - an end is allowed: disallowed ordinary tokens get -Infinity, and the model chooses freely between the allowed
 *    tokens and ending;
 *  - an end is not allowed: allowed tokens get a large logit boost (the relative odds among them are unchanged), or,
 *    when most of the vocabulary is allowed, the rest get -Infinity and a sampled end is undone and resampled with
 *    the boost.
 * Each mask is computed while llama.cpp runs the forward pass of the previous token (`overlapMasks`), and its
 * TokenBias comes from a per-model cache (`MaskBiasCache`).
 * Every sampled token is checked against the mask and fed to `matcher.acceptToken`; a mismatch throws.
 */
export async function generateWithMask(options: GenerateWithMaskOptions): Promise<GenerateWithMaskResult> {
  const { TokenBias: TokenBiasClass } = await loadNodeLlamaCpp();
  const { model, matcher } = options;
  const maxTokens = options.maxTokens ?? 256;
  const temperature = options.temperature ?? 0;
  const seed = options.seed ?? 0;
  const overlap = options.overlapMasks !== false;
  const eog = eogTable(model);
  const size = eog.length;
  const bits = new Uint32Array(Math.ceil(size / 32));
  const input = promptTokens(model, options.prompt);
  const budgeted = options.closeWithinBudget !== false && matcher.fillNextTokenBitmaskWithin !== undefined;

  const biases = options.biasCache ?? MaskBiasCache.of(model, TokenBiasClass, eog);
  const none = new TokenBiasClass(model.tokenizer);
  const ordinary = size - eogIds(eog).length;
  // End-of-generation tokens are few (Qwen3 has a handful): tested one by one at each step. Kept ones (a closing
  // marker that llama.cpp counts as an end) apart: where the mask allows one, it is a token of the output, not its end.
  const keptIds = [...new Set(options.keepEog ?? [])]
    .filter((id) => id >= 0 && id < size && eog[id] === 1)
    .sort((a, b) => a - b);
  const endIds = eogIds(eog).filter((id) => !keptIds.includes(id));
  const isKept = (token: number): boolean => keptIds.includes(token);

  const tokens: Token[] = [];
  let budgetSteps = 0;
  // The mask of the next sampling step, computed at most once: ahead (overlapped with the forward pass) or when
  // node-llama-cpp reads the bias, whichever comes first. `bits` holds it until its token is sampled.
  let current: StepMask | undefined;
  let resampling = false;
  const readMask = (): StepMask => {
    if (current !== undefined) return current;
    bits.fill(0);
    if (budgeted) {
      if (matcher.fillNextTokenBitmaskWithin!(bits, maxTokens - tokens.length)) budgetSteps++;
    } else matcher.fillNextTokenBitmask(bits);
    if (size % 32 !== 0) bits[bits.length - 1] &= (1 << (size % 32)) - 1; // ids past the model's vocabulary
    // What the step needs of the mask is kept with its cached entry: a mask met before (most are) costs one pass
    // over its words to find it, none to count it.
    const entry = biases.entryFor(bits);
    const allowedCount = entry.ordinary;
    const endAllowed = endIds.some((id) => isAllowed(bits, id));
    const keptAllowed = keptIds.find((id) => isAllowed(bits, id)) ?? -1;
    let bias: TokenBias | undefined;
    let mayResample = false;
    if (allowedCount === 0) bias = undefined;
    else if (endAllowed) bias = biases.biasOf(entry, "never");
    else if (keptAllowed < 0 && allowedCount <= ordinary - allowedCount) bias = biases.biasOf(entry, "boost");
    else {
      bias = biases.biasOf(entry, "never");
      mayResample = true;
    }
    current = { entry, allowedCount, endAllowed, keptAllowed, bias, mayResample };
    return current;
  };
  // What the matcher threw while node-llama-cpp read the bias: thrown again once the step returns, since an error
  // thrown inside node-llama-cpp's batch callback would never reach the caller.
  let maskError: { error: unknown } | undefined;
  // sampling steps with a non-empty bias of a mask
  let biasSteps = 0;
  // read by node-llama-cpp after the forward pass of each step, before sampling
  const tokenBias = (): TokenBias => {
    try {
      const step = readMask();
      const bias = resampling ? biases.biasOf(step.entry, "boost") : (step.bias ?? none);
      if ((biases.arraysOf(bias)?.keys.length ?? 0) > 0) biasSteps++;
      return bias;
    } catch (error) {
      maskError ??= { error };
      return none;
    }
  };

  return withSequence(
    options,
    async (sequence, plan) => {
      let overlappedMasks = 0;
      let forcedTokens = 0;
      let resampledSteps = 0;
      let finishReason: GenerateResult["finishReason"] = "length";
      // tokens appended to the output but not yet evaluated by llama.cpp
      let unevaluated: Token[] = plan.rest;
      let generator: AsyncGenerator<Token, void, Token | Token[] | undefined> | undefined;
      // evaluates `unevaluated` and samples the next token with the bias of `current`; the mask is computed meanwhile
      const evaluateAndSample = async (): Promise<Token | undefined> => {
        const feed = unevaluated;
        unevaluated = [];
        let next: Promise<IteratorResult<Token, void>>;
        if (generator === undefined) {
          generator = sequence.evaluate(feed, {
            temperature,
            seed,
            ...samplingOptions(options, tokens),
            tokenBias,
            yieldEogToken: true,
          });
          next = generator.next();
        } else next = generator.next(feed);
        if (overlap && current === undefined) {
          // node-llama-cpp dispatches the batch in its own promise chain (and at the latest on the next cycle): once a
          // macrotask has passed, the forward pass is running on its worker thread, and the JS thread is free
          await new Promise<void>((resolve) => setImmediate(resolve));
          if (current === undefined) {
            try {
              readMask();
            } catch (error) {
              // let the step in flight finish before the error leaves (its result is dropped)
              await next.catch(() => undefined);
              throw error;
            }
            overlappedMasks++;
          }
        }
        const r = await next;
        if (maskError !== undefined) throw maskError.error;
        return r.done === true ? undefined : r.value;
      };

      const conversion =
        options.biasConversion === "node-llama-cpp"
          ? undefined
          : cacheBiasConversion(sequence, (bias) => biases.arraysOf(bias));
      const started = performance.now();
      try {
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
                unevaluated = [...unevaluated, token];
                appended++;
              }
              forcedTokens += appended;
              if (appended > 0) continue;
            }
          }

          // A complete output may have nothing left to sample (the usual last step): read its mask before evaluating
          // anything, so that the last token is not evaluated for nothing.
          if (!overlap || matcher.isCompleted()) readMask();
          let step = current;
          let token: Token | undefined;
          if (step === undefined || step.allowedCount > 0) {
            token = await evaluateAndSample();
            step = readMask();
          }
          if (step.allowedCount === 0) {
            if (step.endAllowed || matcher.isCompleted()) {
              finishReason = "stop";
              break;
            }
            if (step.keptAllowed < 0)
              throw new Error(
                `The matcher allows no token after ${tokens.length} generated tokens and is not complete.`,
              );
            // the closing marker is all that may come: append it as a forced token (a bias cannot raise an end token);
            // a token sampled meanwhile (the mask was read after the forward pass had started) is dropped
            token = step.keptAllowed as Token;
            forcedTokens++;
            unevaluated = [...unevaluated, token];
          } else {
            if (token === undefined) throw new Error("llama.cpp returned no token for a masked step.");
            if (eog[token] === 1 && !(isKept(token) && isAllowed(bits, token))) {
              if (step.endAllowed) {
                finishReason = "stop";
                break;
              }
              if (step.mayResample) {
                // Undo the evaluation of the last token so that it is evaluated again and sampled with the boost.
                resampledSteps++;
                const end = sequence.nextTokenIndex;
                const last = sequence.contextTokens[end - 1];
                await sequence.eraseContextTokenRanges([{ start: end - 1, end }]);
                unevaluated = [last];
                resampling = true;
                try {
                  token = await evaluateAndSample();
                } finally {
                  resampling = false;
                }
                if (token === undefined) throw new Error("llama.cpp returned no token for a masked step.");
              }
            }
            unevaluated = [token];
          }
          if (!isAllowed(bits, token))
            throw new Error(`llama.cpp sampled token ${token}, which the mask does not allow.`);
          if (!matcher.acceptToken(token))
            throw new Error(`The matcher refused token ${token}, which its own mask allowed.`);
          current = undefined;
          tokens.push(token);
          options.onToken?.(token);
        }
      } finally {
        try {
          await generator?.return();
        } finally {
          conversion?.restore();
        }
      }
      const elapsedMs = performance.now() - started;
      const stats: BiasConversionStats = conversion?.stats ?? { cachedSteps: 0, convertedSteps: 0, enabled: false };
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
        overlappedMasks,
        cachedBiasSteps: stats.cachedSteps,
        convertedBiasSteps: biasSteps - stats.cachedSteps,
      };
    },
    input,
  );
}
