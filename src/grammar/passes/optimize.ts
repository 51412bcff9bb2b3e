import type { GExpr, Grammar } from "../Grammar.js";
import { Deadline } from "../../Deadline.js";
import { dedupeRules } from "./dedupeRules.js";
import { inlineRules } from "./inlineRules.js";
import { removeDeadRules } from "./removeDeadRules.js";
import { cachedKey } from "../analysis/exprKey.js";

/** Passes are run at most this many rounds; each round shrinks the grammar, so real grammars settle in 2–3. */
const MAX_ROUNDS = 32;

/**
 * Dead-rule removal, deduplication and inlining, repeated until nothing changes. Deterministic. `deadline` (the
 * compile's budget) is checked inside the passes.
 */
export function optimize(g: Grammar, deadline: Deadline = Deadline.none()): Grammar {
  // keys of the bodies seen in this call: a body the passes leave alone is not keyed again (a grammar of huge
  // bodies pays a pass over its text per key)
  const keys = new Map<GExpr, string>();
  let cur = g;
  let key: string[] | undefined;
  for (let i = 0; i < MAX_ROUNDS; i++) {
    deadline.check("optimizing the grammar");
    // a later round starts from inlineRules' result, which has no dead rules left
    const live = i === 0 ? removeDeadRules(cur, deadline) : cur;
    deadline.check("optimizing the grammar");
    const next = inlineRules(dedupeRules(live, deadline, keys), deadline);
    // every pass returns its input itself when it changes nothing
    if (next === cur) return next;
    const before = key ?? grammarKeys(cur, deadline, keys);
    const k = grammarKeys(next, deadline, keys);
    if (k.length === before.length && k.every((x, j) => x === before[j])) return next;
    cur = next;
    key = k;
  }
  return cur;
}

/** The grammar as strings (root, then each rule in order): equal lists ⇔ equal grammars. */
function grammarKeys(g: Grammar, deadline: Deadline, keys: Map<GExpr, string>): string[] {
  const out = [`root=${g.root}`];
  for (const [name, body] of g.rules) {
    deadline.tick("optimizing the grammar");
    out.push(`${name}=${cachedKey(body, keys, deadline)}`);
  }
  return out;
}
