import type { LlamaModel, Token, TokenBias } from "node-llama-cpp";
import { eogTable, type TokenMaskMatcher } from "./generateWithMask.js";

/**
 * Token biases that impose a matcher's budgeted mask: none while the budget leaves the mask as it is, else "never"
 * on every ordinary token the budgeted mask drops (end-of-generation tokens are left to llama.cpp's grammar, which
 * allows them exactly when the output is complete — as does the budgeted mask).
 */
export function budgetSteering(model: LlamaModel, matcher: TokenMaskMatcher, TokenBiasClass: typeof TokenBias): { none: TokenBias; biasFor(tokensLeft: number): TokenBias } {
  const eog = eogTable(model);
  const size = eog.length;
  const words = Math.ceil(size / 32);
  const plain = new Uint32Array(words);
  const within = new Uint32Array(words);
  const none = new TokenBiasClass(model.tokenizer);
  return {
    none,
    biasFor(tokensLeft: number): TokenBias {
      plain.fill(0);
      within.fill(0);
      matcher.fillNextTokenBitmask(plain);
      matcher.fillNextTokenBitmaskWithin!(within, tokensLeft);
      let same = true;
      for (let w = 0; w < words && same; w++) if (plain[w] !== within[w]) same = false;
      if (same) return none;
      const never: Token[] = [];
      for (let id = 0; id < size; id++) {
        if (((within[id >>> 5] >>> (id & 31)) & 1) === 0 && eog[id] === 0) never.push(id as Token);
      }
      return new TokenBiasClass(model.tokenizer).set(never, "never");
    },
  };
}
