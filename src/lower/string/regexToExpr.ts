import { LimitExceededError } from "../../errors.js";
import type { GExpr } from "../../grammar/Grammar.js";
import { alt, cls, EPSILON, rep, seq } from "../../grammar/build.js";
import type { RNode } from "../../regex/RegexNode.js";
import type { Limits } from "../../options.js";

/**
 * Direct translation of an anchor-free regex into a grammar expression over decoded code points (no automaton):
 * the shape of the user's pattern survives, which keeps grammars small and readable. Repetition bounds are checked
 * against `limits.maxRepeatBound`.
 */
export function regexToExpr(n: RNode, limits: Limits, path: string): GExpr {
  switch (n.t) {
    case "chars":
      return cls(n.ranges);
    case "seq":
      return seq(...n.items.map((it) => regexToExpr(it, limits, path)));
    case "alt":
      return alt(...n.items.map((it) => regexToExpr(it, limits, path)));
    case "rep": {
      const bound = Math.max(n.min, n.max ?? 0);
      if (bound > limits.maxRepeatBound) {
        throw new LimitExceededError(
          "LIMIT_REPETITION",
          `a repetition bound of ${bound} exceeds limits.maxRepeatBound (${limits.maxRepeatBound}); lower the bound or raise the limit`,
          path,
        );
      }
      return rep(regexToExpr(n.item, limits, path), n.min, n.max);
    }
    case "start":
    case "end":
      throw new Error("regexToExpr: anchors must be resolved before translation");
  }
  return EPSILON;
}
