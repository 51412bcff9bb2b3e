import type { LlamaContextSequence, Token, TokenBias } from "node-llama-cpp";
import type { GenerateOptions } from "./generationTypes.js";
import type { MaskBiasCache, MaskEntry } from "./MaskBiasCache.js";
import { samplingOptions } from "./withSequence.js";

/** What the sampling reads of generateWithMask's options (the matcher's mask methods are TokenMaskMatcher's). */
export interface MaskedSamplingOptions extends GenerateOptions {
  readonly matcher: {
    fillNextTokenBitmask(bits: Uint32Array): void;
    fillNextTokenBitmaskWithin?(bits: Uint32Array, tokensLeft: number): boolean;
    prepareMask?(tokensLeft: number | undefined): Promise<void>;
  };
  readonly closeWithinBudget?: boolean;
  readonly overlapMasks?: boolean;
}

/** One step's mask, read once and kept until its token is sampled. */
export interface StepMask {
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

export function isAllowed(bits: Uint32Array, token: number): boolean {
  return (bits[token >>> 5] & (1 << (token & 31))) !== 0;
}

/**
 * The state generateWithMask's steps share: the tokens so far, the mask of the step being sampled and how it reaches
 * llama.cpp (`tokenBias`, read by node-llama-cpp before each sampling), the generator evaluating the tokens, and the
 * counts of the result. One per generation; its methods run at every step, so they allocate no more than the loop did.
 */
export class MaskedSampling {
  readonly maxTokens: number;
  /** Compute each step's mask while llama.cpp evaluates the previous token (`overlapMasks`). */
  readonly overlap: boolean;
  /** The mask of the step being sampled, one bit per token id: holds `current` until its token is sampled. */
  readonly bits: Uint32Array;
  readonly tokens: Token[] = [];
  budgetSteps = 0;
  // The mask of the next sampling step, computed at most once: ahead (overlapped with the forward pass) or when
  // node-llama-cpp reads the bias, whichever comes first. `bits` holds it until its token is sampled.
  current: StepMask | undefined;
  resampling = false;
  // sampling steps with a non-empty bias of a mask
  biasSteps = 0;
  overlappedMasks = 0;
  // tokens appended to the output but not yet evaluated by llama.cpp
  unevaluated: Token[] = [];
  // What the matcher threw while node-llama-cpp read the bias: thrown again once the step returns, since an error
  // thrown inside node-llama-cpp's batch callback would never reach the caller.
  private maskError: { error: unknown } | undefined;
  private generator: AsyncGenerator<Token, void, Token | Token[] | undefined> | undefined;
  private readonly temperature: number;
  private readonly seed: number;
  private readonly size: number;
  private readonly budgeted: boolean;
  private readonly ordinary: number;
  private readonly keptIds: number[];
  private readonly endIds: number[];

  constructor(
    private readonly options: MaskedSamplingOptions,
    private readonly biases: MaskBiasCache,
    private readonly none: TokenBias,
    eog: Uint8Array,
  ) {
    const matcher = options.matcher;
    this.maxTokens = options.maxTokens ?? 256;
    this.temperature = options.temperature ?? 0;
    this.seed = options.seed ?? 0;
    this.overlap = options.overlapMasks !== false;
    const size = eog.length;
    this.size = size;
    this.bits = new Uint32Array(Math.ceil(size / 32));
    this.budgeted = options.closeWithinBudget !== false && matcher.fillNextTokenBitmaskWithin !== undefined;
    this.ordinary = size - eogIds(eog).length;
    // End-of-generation tokens are few (Qwen3 has a handful): tested one by one at each step. Kept ones (a closing
    // marker that llama.cpp counts as an end) apart: where the mask allows one, it is a token of the output, not its end.
    const keptIds = [...new Set(options.keepEog ?? [])]
      .filter((id) => id >= 0 && id < size && eog[id] === 1)
      .sort((a, b) => a - b);
    this.keptIds = keptIds;
    this.endIds = eogIds(eog).filter((id) => !keptIds.includes(id));
  }

  isKept(token: number): boolean {
    return this.keptIds.includes(token);
  }

  /** The mask of the next sampling step (`current`), computed when not yet. */
  readMask(): StepMask {
    if (this.current !== undefined) return this.current;
    const bits = this.bits;
    const size = this.size;
    const biases = this.biases;
    const matcher = this.options.matcher;
    bits.fill(0);
    if (this.budgeted) {
      if (matcher.fillNextTokenBitmaskWithin!(bits, this.maxTokens - this.tokens.length)) this.budgetSteps++;
    } else matcher.fillNextTokenBitmask(bits);
    if (size % 32 !== 0) bits[bits.length - 1] &= (1 << (size % 32)) - 1; // ids past the model's vocabulary
    // What the step needs of the mask is kept with its cached entry: a mask met before (most are) costs one pass
    // over its words to find it, none to count it.
    const entry = biases.entryFor(bits);
    const allowedCount = entry.ordinary;
    const endAllowed = this.endIds.some((id) => isAllowed(bits, id));
    const keptAllowed = this.keptIds.find((id) => isAllowed(bits, id)) ?? -1;
    let bias: TokenBias | undefined;
    let mayResample = false;
    if (allowedCount === 0) bias = undefined;
    else if (endAllowed) bias = biases.biasOf(entry, "never");
    else if (keptAllowed < 0 && allowedCount <= this.ordinary - allowedCount) bias = biases.biasOf(entry, "boost");
    else {
      bias = biases.biasOf(entry, "never");
      mayResample = true;
    }
    this.current = { entry, allowedCount, endAllowed, keptAllowed, bias, mayResample };
    return this.current;
  }

  /**
   * Awaits the matcher's `prepareMask` for the next mask, if it has one and the mask is not read yet: the mask is then
   * read before the forward pass starts, since node-llama-cpp reads the bias synchronously once the pass ends.
   */
  async prepareMask(): Promise<void> {
    const matcher = this.options.matcher;
    if (this.current !== undefined || matcher.prepareMask === undefined) return;
    await matcher.prepareMask(this.budgeted ? this.maxTokens - this.tokens.length : undefined);
    this.readMask();
  }

  /** Read by node-llama-cpp after the forward pass of each step, before sampling. */
  readonly tokenBias = (): TokenBias => {
    try {
      const step = this.readMask();
      const bias = this.resampling ? this.biases.biasOf(step.entry, "boost") : (step.bias ?? this.none);
      if ((this.biases.arraysOf(bias)?.keys.length ?? 0) > 0) this.biasSteps++;
      return bias;
    } catch (error) {
      this.maskError ??= { error };
      return this.none;
    }
  };

  /** Evaluates `unevaluated` and samples the next token with the bias of `current`; the mask is computed meanwhile. */
  async evaluateAndSample(sequence: LlamaContextSequence): Promise<Token | undefined> {
    await this.prepareMask();
    const feed = this.unevaluated;
    this.unevaluated = [];
    let next: Promise<IteratorResult<Token, void>>;
    if (this.generator === undefined) {
      this.generator = sequence.evaluate(feed, {
        temperature: this.temperature,
        seed: this.seed,
        ...samplingOptions(this.options, this.tokens),
        tokenBias: this.tokenBias,
        yieldEogToken: true,
      });
      next = this.generator.next();
    } else next = this.generator.next(feed);
    if (this.overlap && this.current === undefined) {
      // node-llama-cpp dispatches the batch in its own promise chain (and at the latest on the next cycle): once a
      // macrotask has passed, the forward pass is running on its worker thread, and the JS thread is free
      await new Promise<void>((resolve) => setImmediate(resolve));
      if (this.current === undefined) {
        try {
          this.readMask();
        } catch (error) {
          // let the step in flight finish before the error leaves (its result is dropped)
          await next.catch(() => undefined);
          throw error;
        }
        this.overlappedMasks++;
      }
    }
    const r = await next;
    if (this.maskError !== undefined) throw this.maskError.error;
    return r.done === true ? undefined : r.value;
  }

  /** Ends the evaluation (the generator), if it started. */
  async close(): Promise<void> {
    await this.generator?.return();
  }
}
