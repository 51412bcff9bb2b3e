import type { Grammar } from "../Grammar.js";
import { dedupeRules } from "./dedupeRules.js";
import { inlineRules } from "./inlineRules.js";
import { removeDeadRules } from "./removeDeadRules.js";
import { grammarKey } from "./walk.js";

/** Passes are run at most this many rounds; each round shrinks the grammar, so real grammars settle in 2–3. */
const MAX_ROUNDS = 32;

/** Dead-rule removal, deduplication and inlining, repeated until nothing changes. Deterministic. */
export function optimize(g: Grammar): Grammar {
  let cur = g;
  let key = grammarKey(cur);
  for (let i = 0; i < MAX_ROUNDS; i++) {
    const next = inlineRules(dedupeRules(removeDeadRules(cur)));
    const k = grammarKey(next);
    if (k === key) return next;
    cur = next;
    key = k;
  }
  return cur;
}
