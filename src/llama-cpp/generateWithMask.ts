import type { LlamaContextSequence, LlamaModel, Token } from "node-llama-cpp";
import type { GenerateOptions, GenerateResult } from "./generationTypes.js";
import { loadNodeLlamaCpp } from "./loadNodeLlamaCpp.js";
import { cacheBiasConversion, type BiasConversionStats } from "./cacheBiasConversion.js";
import { MaskBiasCache } from "./MaskBiasCache.js";
import { isAllowed, MaskedSampling } from "./MaskedSampling.js";
import { promptTokens, withSequence } from "./withSequence.js";

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
  /**
   * Awaited before each mask is read (with the token budget left when `closeWithinBudget` narrows it): a matcher that
   * computes its masks elsewhere (a worker thread) makes the mask ready here, so that reading it does not block.
   */
  prepareMask?(tokensLeft: number | undefined): Promise<void>;
  /**
   * Awaited before the position is read after accepted tokens (`forcedText`, `isCompleted`): a matcher whose steps
   * run elsewhere (a worker thread) and that accepts a token without waiting for them makes the position known here,
   * so that reading it does not block.
   */
  settle?(): Promise<void>;
  /**
   * Computes ahead, within `work` units, masks a generation reaches soon; returns whether there is more to do (see
   * TokenMatcher.warm). Called in slices while the prompt is evaluated (`warmWhilePrompt`).
   */
  warm?(work: number): boolean;
  /**
   * Computes, within `work` units, the masks of the positions the generation reaches next from where it is; returns
   * whether there is more to do from there (see TokenMatcher.warmAhead). Called in slices while llama.cpp evaluates a
   * generated token, after the next mask is read.
   */
  warmAhead?(work: number): boolean;
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
   * While llama.cpp evaluates the prompt (natively: the JS thread is free), warm the matcher (its `warm`) in slices of
   * work between event-loop turns, until the evaluation ends, so that the masks the generation reaches soon are
   * ready: every tool's first states of a large tool set, rather than at the steps that first reach them. The tokens
   * are the same either way. @defaultValue true
   */
  readonly warmWhilePrompt?: boolean;
  /**
   * While llama.cpp evaluates each generated token, after the next mask is read, warm the masks of the positions the
   * generation reaches next (the matcher's `warmAhead`) in slices between event-loop turns, until the evaluation ends.
   * The tokens are the same either way. @defaultValue true
   */
  readonly warmAhead?: boolean;
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
  /** Slices of warm-up work the matcher was given while the prompt was evaluated (see `warmWhilePrompt`). */
  readonly promptWarmSlices: number;
}

/**
 * Work of one warm-up slice while the prompt is evaluated, in TokenMatcher.warm's units: on the machine the bench ran
 * on, a few milliseconds at the median (docs/ARCHITECTURE.md); the evaluation's end waits for the slice under way.
 */
const PROMPT_WARM_SLICE = 16_384;

const nextTurn = (): Promise<void> => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Work of one warm-ahead slice while a generated token is evaluated (TokenMatcher.warmAhead's units): about 2.5 ms of
 * a core on the machine of bench/big/results.md ("Warming ahead of a generation"), below a forward pass; the bias read
 * after the pass waits for the slice under way. A position whose mask needs more than a slice is left to its step, so a slice is not smaller.
 */
const AHEAD_WARM_SLICE = 2048;

/** Warms in slices (`warm`), a turn of the event loop apart, until `pending` settles or nothing is left to warm. */
async function warmWhile(
  warm: ((work: number) => boolean) | undefined,
  pending: Promise<unknown>,
  slice: number,
): Promise<number> {
  if (warm === undefined) return 0;
  let settled = false;
  const settle = (): void => {
    settled = true;
  };
  pending.then(settle, settle);
  // the evaluation is dispatched first (node-llama-cpp starts the batch within a turn), and the first mask read
  await nextTurn();
  await nextTurn();
  let slices = 0;
  while (!settled) {
    slices++;
    if (!warm(slice)) break;
    await nextTurn();
  }
  return slices;
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
  const { model } = options;
  const eog = eogTable(model);
  const input = promptTokens(model, options.prompt);
  const biases = options.biasCache ?? MaskBiasCache.of(model, TokenBiasClass, eog);
  const g = new MaskedSampling(options, biases, new TokenBiasClass(model.tokenizer), eog);
  const tokens = g.tokens;

  return withSequence(
    options,
    async (sequence, plan) => {
      g.unevaluated = plan.rest;
      const conversion =
        options.biasConversion === "node-llama-cpp"
          ? undefined
          : cacheBiasConversion(sequence, (bias) => biases.arraysOf(bias));
      const started = performance.now();
      let loop: SampledLoop;
      try {
        loop = await sampleLoop(g, options, sequence, eog);
      } finally {
        try {
          await g.close();
        } finally {
          conversion?.restore();
        }
      }
      const { finishReason, forcedTokens, resampledSteps } = loop;
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
        budgetSteps: g.budgetSteps,
        overlappedMasks: g.overlappedMasks,
        cachedBiasSteps: stats.cachedSteps,
        convertedBiasSteps: g.biasSteps - stats.cachedSteps,
        promptWarmSlices: loop.promptWarmSlices,
      };
    },
    input,
  );
}

/** How generateWithMask's loop ended, and its counts. */
interface SampledLoop {
  finishReason: GenerateResult["finishReason"];
  forcedTokens: number;
  resampledSteps: number;
  promptWarmSlices: number;
}

/** The generation loop: a token per step (sampled under the step's mask, or forced) until the output ends. */
async function sampleLoop(
  g: MaskedSampling,
  options: GenerateWithMaskOptions,
  sequence: LlamaContextSequence,
  eog: Uint8Array,
): Promise<SampledLoop> {
  const { model, matcher } = options;
  const { tokens, bits, maxTokens, overlap } = g;
  let forcedTokens = 0;
  let resampledSteps = 0;
  let promptWarmSlices = 0;
  // the first evaluation is the prompt's (with any forced text appended before it)
  let prompt = options.warmWhilePrompt !== false;
  let finishReason: GenerateResult["finishReason"] = "length";
  while (tokens.length < maxTokens) {
    if (options.signal?.aborted === true) {
      finishReason = "stop";
      break;
    }
    await matcher.settle?.();
    if (options.jumpForward === true && matcher.forcedText !== undefined) {
      const forced = matcher.forcedText();
      if (forced !== "") {
        let appended = 0;
        for (const token of model.tokenize(forced, true)) {
          if (tokens.length >= maxTokens || !matcher.acceptToken(token)) break;
          tokens.push(token);
          options.onToken?.(token);
          g.unevaluated = [...g.unevaluated, token];
          appended++;
        }
        forcedTokens += appended;
        if (appended > 0) continue;
      }
    }

    // A complete output may have nothing left to sample (the usual last step): read its mask before evaluating
    // anything, so that the last token is not evaluated for nothing.
    if (!overlap || matcher.isCompleted()) {
      await g.prepareMask();
      g.readMask();
    }
    let step = g.current;
    let token: Token | undefined;
    if (step === undefined || step.allowedCount > 0) {
      const sampled = g.evaluateAndSample(sequence);
      if (prompt) {
        prompt = false;
        promptWarmSlices = await warmWhile(matcher.warm?.bind(matcher), sampled, PROMPT_WARM_SLICE);
      } else if (options.warmAhead !== false) {
        // the forward pass of the last token: its next mask is read first (evaluateAndSample), then the positions after
        await warmWhile(matcher.warmAhead?.bind(matcher), sampled, AHEAD_WARM_SLICE);
      }
      token = await sampled;
      step = g.readMask();
    }
    if (step.allowedCount === 0) {
      if (step.endAllowed || matcher.isCompleted()) {
        finishReason = "stop";
        break;
      }
      if (step.keptAllowed < 0)
        throw new Error(`The matcher allows no token after ${tokens.length} generated tokens and is not complete.`);
      // the closing marker is all that may come: append it as a forced token (a bias cannot raise an end token);
      // a token sampled meanwhile (the mask was read after the forward pass had started) is dropped
      token = step.keptAllowed as Token;
      forcedTokens++;
      g.unevaluated = [...g.unevaluated, token];
    } else {
      if (token === undefined) throw new Error("llama.cpp returned no token for a masked step.");
      if (eog[token] === 1 && !(g.isKept(token) && isAllowed(bits, token))) {
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
          g.unevaluated = [last];
          g.resampling = true;
          try {
            token = await g.evaluateAndSample(sequence);
          } finally {
            g.resampling = false;
          }
          if (token === undefined) throw new Error("llama.cpp returned no token for a masked step.");
        }
      }
      g.unevaluated = [token];
    }
    if (!isAllowed(bits, token)) throw new Error(`llama.cpp sampled token ${token}, which the mask does not allow.`);
    if (!matcher.acceptToken(token)) throw new Error(`The matcher refused token ${token}, which its own mask allowed.`);
    g.current = undefined;
    tokens.push(token);
    options.onToken?.(token);
  }
  return { finishReason, forcedTokens, resampledSteps, promptWarmSlices };
}
