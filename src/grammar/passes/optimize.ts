import type { GExpr, Grammar } from "../Grammar.js";
import { Deadline } from "../../Deadline.js";
import { dedupeRules } from "./dedupeRules.js";
import { inlineRules } from "./inlineRules.js";
import { removeDeadRules } from "./removeDeadRules.js";
import { StructuralIds } from "../analysis/exprKey.js";

/** Passes are run at most this many rounds; each round shrinks the grammar, so real grammars settle in 2–3. */
const MAX_ROUNDS = 32;

/**
 * Dead-rule removal, deduplication and inlining, repeated until nothing changes. Deterministic. `deadline` (the
 * compile's budget) is checked inside the passes.
 */
export function optimize(g: Grammar, deadline: Deadline = Deadline.none()): Grammar {
  // structural identities of the expressions seen in this call: a body the passes leave alone, or rebuild around
  // sub-expressions already seen, is not keyed again (a grammar of huge bodies paid a pass over its text per key)
  const keys = new StructuralIds();
  let cur = g;
  for (let i = 0; i < MAX_ROUNDS; i++) {
    deadline.check("optimizing the grammar");
    // a later round starts from inlineRules' result, which has no dead rules left
    const live = i === 0 ? removeDeadRules(cur, deadline) : cur;
    deadline.check("optimizing the grammar");
    const next = inlineRules(dedupeRules(live, deadline, keys), deadline);
    // every pass returns its input itself when it changes nothing
    if (next === cur || sameGrammar(cur, next, deadline, keys)) return next;
    cur = next;
  }
  return cur;
}

/**
 * Equal root and rules, in order (bodies compared by structural identity where they are not the same object). Rules are compared
 * one by one and the first difference ends it: a round that changed the grammar is told apart without keying it.
 */
function sameGrammar(a: Grammar, b: Grammar, deadline: Deadline, keys: StructuralIds): boolean {
  if (a.root !== b.root || a.rules.size !== b.rules.size) return false;
  const bs = b.rules.entries();
  for (const [name, body] of a.rules) {
    deadline.tick("optimizing the grammar");
    const [otherName, other] = bs.next().value as [string, GExpr];
    if (name !== otherName) return false;
    if (body !== other && keys.of(body, deadline) !== keys.of(other, deadline)) return false;
  }
  return true;
}
