import type { LlamaModel, Token, TokenBias } from "node-llama-cpp";
import { eogTable, type TokenMaskMatcher } from "./generateWithMask.js";

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
  private readonly eog: Uint8Array;
  private readonly plain: Uint32Array;
  private readonly within: Uint32Array;
  private readonly none: TokenBias;

  constructor(
    private readonly model: LlamaModel,
    private readonly matcher: TokenMaskMatcher & Required<Pick<TokenMaskMatcher, "fillNextTokenBitmaskWithin">>,
    private readonly TokenBiasClass: typeof TokenBias,
  ) {
    this.eog = eogTable(model);
    const words = Math.ceil(this.eog.length / 32);
    this.plain = new Uint32Array(words);
    this.within = new Uint32Array(words);
    this.none = new TokenBiasClass(model.tokenizer);
  }

  /** The bias for the next step (node-llama-cpp's `tokenBias` option, read before each sampling step). */
  tokenBias(tokensLeft: number): TokenBias {
    if (this.abandoned) return this.none;
    const { plain, within, eog } = this;
    plain.fill(0);
    within.fill(0);
    this.matcher.fillNextTokenBitmask(plain);
    this.matcher.fillNextTokenBitmaskWithin(within, tokensLeft);
    let same = true;
    for (let w = 0; w < plain.length && same; w++) if (plain[w] !== within[w]) same = false;
    if (same) return this.none;
    this.steps++;
    const never: Token[] = [];
    for (let id = 0; id < eog.length; id++) {
      if (((within[id >>> 5] >>> (id & 31)) & 1) === 0 && eog[id] === 0) never.push(id as Token);
    }
    return new this.TokenBiasClass(this.model.tokenizer).set(never, "never");
  }

  /** Feeds a sampled token to the matcher. */
  follow(token: Token): void {
    if (!this.abandoned && !this.model.isEogToken(token) && !this.matcher.acceptToken(token)) this.abandoned = true;
  }

  /** A steering for `matcher`, or undefined when it has no budgeted masks. */
  static for(model: LlamaModel, matcher: TokenMaskMatcher | undefined, TokenBiasClass: typeof TokenBias): BudgetSteering | undefined {
    if (matcher?.fillNextTokenBitmaskWithin === undefined) return undefined;
    return new BudgetSteering(model, matcher as TokenMaskMatcher & Required<Pick<TokenMaskMatcher, "fillNextTokenBitmaskWithin">>, TokenBiasClass);
  }
}
