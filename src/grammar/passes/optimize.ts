import type { Grammar } from "../Grammar.js";
import { Deadline } from "./Deadline.js";
import { dedupeRules } from "./dedupeRules.js";
import { inlineRules } from "./inlineRules.js";
import { removeDeadRules } from "./removeDeadRules.js";
import { exprKey } from "./walk.js";

/** Passes are run at most this many rounds; each round shrinks the grammar, so real grammars settle in 2–3. */
const MAX_ROUNDS = 32;

/**
 * Dead-rule removal, deduplication and inlining, repeated until nothing changes. Deterministic. `deadline` (the
 * compile's budget) is checked inside the passes.
 */
export function optimize(g: Grammar, deadline: Deadline = Deadline.none()): Grammar {
  let cur = g;
  let key = grammarKeys(cur, deadline);
  for (let i = 0; i < MAX_ROUNDS; i++) {
    deadline.check("optimizing the grammar");
    const live = removeDeadRules(cur);
    deadline.check("optimizing the grammar");
    const next = inlineRules(dedupeRules(live, deadline), deadline);
    const k = grammarKeys(next, deadline);
    if (k.length === key.length && k.every((x, j) => x === key[j])) return next;
    cur = next;
    key = k;
  }
  return cur;
}

/** The grammar as strings (root, then each rule in order): equal lists ⇔ equal grammars. */
function grammarKeys(g: Grammar, deadline: Deadline): string[] {
  const out = [`root=${g.root}`];
  for (const [name, body] of g.rules) {
    deadline.tick("optimizing the grammar");
    out.push(`${name}=${exprKey(body)}`);
  }
  return out;
}
