import type { LlamaModel, Token, TokenBias } from "node-llama-cpp";
import { eogTable, type TokenMaskMatcher } from "./generateWithMask.js";
import { MaskBiasCache } from "./MaskBiasCache.js";
import { TOKEN_TEXT, type Vocabulary } from "../vocab/Vocabulary.js";

type BudgetedMatcher = TokenMaskMatcher & Required<Pick<TokenMaskMatcher, "fillNextTokenBitmaskWithin">>;

const GUARD_CACHE = 64;

/**
 * A token budget beside llama.cpp's grammar sampler, which has none: a matcher of the same grammar follows every
 * sampled token, and while the budget leaves its mask as it is, no bias is added; once the budget gets tight,
 * every ordinary token the budgeted mask drops gets "never". End-of-generation tokens are left to llama.cpp's grammar,
 * which allows them exactly when the output is complete — as does the budgeted mask.
 *
 * The two grammars read a few tokens differently: llama.cpp takes a special token (`<|video_pad|>`, `</tool_call>`)
 * or a token whose bytes are not UTF-8 by themselves as text inside a JSON string, toolgram allows a special token only
 * where the grammar names it. With a `guard` (those token ids, from `guardTokens`), every step also bans the guard
 * tokens the matcher refuses, so the two never part and the budget stays right to the end; without one, a token the
 * matcher refuses stops steering there (`abandoned`): a budget computed for another text would be wrong.
 *
 * A call's closing marker that llama.cpp counts as an end (harmony's `<|call|>`, `closers`) is one token to the
 * matcher, but llama.cpp's grammar refuses every end token until the grammar is complete, so it spells the marker as
 * text: the budget holds back the extra tokens that takes, and never narrows to the end token alone.
 */
export class BudgetSteering {
  /** Steps at which the budget narrowed llama.cpp's choices. */
  steps = 0;
  abandoned = false;
  private readonly bits: Uint32Array;
  private readonly none: TokenBias;
  private readonly biases: MaskBiasCache;
  private readonly guardBiases = new Map<string, TokenBias>();

  private constructor(
    private readonly model: LlamaModel,
    private readonly matcher: BudgetedMatcher,
    private readonly TokenBiasClass: typeof TokenBias,
    private readonly guard: readonly number[],
    /** End tokens that close a call (harmony's `<|call|>`): llama.cpp's grammar takes only their text mid-turn. */
    private readonly closers: readonly number[],
    /** Tokens held back from the budget: spelling a closer as text takes up to this many more tokens than the token. */
    private readonly reserve: number,
  ) {
    const eog = eogTable(model);
    this.bits = new Uint32Array(Math.ceil(eog.length / 32));
    this.none = new TokenBiasClass(model.tokenizer);
    this.biases = MaskBiasCache.of(model, TokenBiasClass, eog);
  }

  /** The bias for the next step (node-llama-cpp's `tokenBias` option, read before each sampling step). */
  tokenBias(tokensLeft: number): TokenBias {
    if (this.abandoned) return this.none;
    const { bits } = this;
    bits.fill(0);
    // past the reserve, the grammar is spelling a closing marker (the budget led there): the plain mask
    const budget = tokensLeft - this.reserve;
    if (budget < 1) this.matcher.fillNextTokenBitmask(bits);
    else if (this.matcher.fillNextTokenBitmaskWithin(bits, budget)) {
      // where the budget leaves a closing end token, llama.cpp's grammar only takes its text: let the grammar spell it
      // (every token it allows there is progress, and the reserve pays for the extra tokens)
      if (!this.closers.some((id) => ((bits[id >>> 5] >>> (id & 31)) & 1) === 1)) {
        this.steps++;
        return this.biases.biasFor(bits, "never");
      }
      bits.fill(0);
      this.matcher.fillNextTokenBitmask(bits);
    }
    // not tight: `bits` holds the plain mask; ban the guard tokens it refuses
    const banned: number[] = [];
    for (const id of this.guard) if (((bits[id >>> 5] >>> (id & 31)) & 1) === 0) banned.push(id);
    if (banned.length === 0) return this.none;
    const key = banned.join(",");
    let bias = this.guardBiases.get(key);
    if (bias === undefined) {
      if (this.guardBiases.size >= GUARD_CACHE) this.guardBiases.clear();
      bias = new this.TokenBiasClass(this.model.tokenizer).set(banned as Token[], "never");
      this.guardBiases.set(key, bias);
    }
    return bias;
  }

  /** Feeds a sampled token to the matcher (a kept closing end token included). */
  follow(token: Token, kept = false): void {
    if (!this.abandoned && (kept || !this.model.isEogToken(token)) && !this.matcher.acceptToken(token))
      this.abandoned = true;
  }

  /** A steering for `matcher`, or undefined when it has no budgeted masks. */
  static for(
    model: LlamaModel,
    matcher: TokenMaskMatcher | undefined,
    TokenBiasClass: typeof TokenBias,
    guard: readonly number[] = [],
    closers: readonly number[] = [],
  ): BudgetSteering | undefined {
    if (matcher?.fillNextTokenBitmaskWithin === undefined) return undefined;
    const ends = closers.filter((id) => model.isEogToken(id as Token));
    // at worst the grammar spells the marker a byte a token
    const reserve = Math.max(
      0,
      ...ends.map((id) => new TextEncoder().encode(model.detokenize([id as Token], true)).length - 1),
    );
    return new BudgetSteering(
      model,
      matcher as BudgetedMatcher,
      TokenBiasClass,
      guard.filter((id) => !model.isEogToken(id as Token)),
      ends,
      reserve,
    );
  }
}

const guards = new WeakMap<Vocabulary, readonly number[]>();

/**
 * The token ids llama.cpp's grammar sampler may read differently from toolgram's matcher: special and added tokens
 * (text inside a string for llama.cpp, a grammar atom for toolgram), unused ids, and ordinary tokens whose bytes are
 * not UTF-8 on their own (llama.cpp and the matcher track a partial character each their own way).
 */
export function guardTokens(vocab: Vocabulary): readonly number[] {
  let ids = guards.get(vocab);
  if (ids !== undefined) return ids;
  const decoder = new TextDecoder("utf-8", { fatal: true });
  const out: number[] = [];
  for (let id = 0; id < vocab.size; id++) {
    if (vocab.kind[id] !== TOKEN_TEXT) {
      out.push(id);
      continue;
    }
    try {
      decoder.decode(vocab.bytes.subarray(vocab.offsets[id], vocab.offsets[id + 1]));
    } catch {
      out.push(id);
    }
  }
  ids = out;
  guards.set(vocab, ids);
  return ids;
}
