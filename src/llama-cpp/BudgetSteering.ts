import type { LlamaModel, Token, TokenBias } from "node-llama-cpp";
import { eogTable, type TokenMaskMatcher } from "./generateWithMask.js";
import { MaskBiasCache } from "./MaskBiasCache.js";

type BudgetedMatcher = TokenMaskMatcher & Required<Pick<TokenMaskMatcher, "fillNextTokenBitmaskWithin">>;

/**
 * A token budget beside llama.cpp's grammar sampler, which has none: a matcher of the same grammar follows every
 * sampled token, and while the budget leaves its mask as it is, no bias is added; once the budget gets tight,
 * every ordinary token the budgeted mask drops gets "never". End-of-generation tokens are left to llama.cpp's grammar,
 * which allows them exactly when the output is complete — as does the budgeted mask.
 *
 * If the matcher ever refuses a token llama.cpp's grammar allowed (the two differ on special tokens inside strings),
 * steering stops there (`abandoned`): a budget computed for another text would be wrong.
 */
export class BudgetSteering {
  /** Steps at which the budget narrowed llama.cpp's choices. */
  steps = 0;
  abandoned = false;
  private readonly bits: Uint32Array;
  private readonly none: TokenBias;
  private readonly biases: MaskBiasCache;

  private constructor(
    private readonly model: LlamaModel,
    private readonly matcher: BudgetedMatcher,
    TokenBiasClass: typeof TokenBias,
  ) {
    const eog = eogTable(model);
    this.bits = new Uint32Array(Math.ceil(eog.length / 32));
    this.none = new TokenBiasClass(model.tokenizer);
    this.biases = new MaskBiasCache(model, TokenBiasClass, eog);
  }

  /** The bias for the next step (node-llama-cpp's `tokenBias` option, read before each sampling step). */
  tokenBias(tokensLeft: number): TokenBias {
    if (this.abandoned) return this.none;
    this.bits.fill(0);
    if (!this.matcher.fillNextTokenBitmaskWithin(this.bits, tokensLeft)) return this.none;
    this.steps++;
    return this.biases.biasFor(this.bits, "never");
  }

  /** Feeds a sampled token to the matcher. */
  follow(token: Token): void {
    if (!this.abandoned && !this.model.isEogToken(token) && !this.matcher.acceptToken(token)) this.abandoned = true;
  }

  /** A steering for `matcher`, or undefined when it has no budgeted masks. */
  static for(model: LlamaModel, matcher: TokenMaskMatcher | undefined, TokenBiasClass: typeof TokenBias): BudgetSteering | undefined {
    if (matcher?.fillNextTokenBitmaskWithin === undefined) return undefined;
    return new BudgetSteering(model, matcher as BudgetedMatcher, TokenBiasClass);
  }
}
