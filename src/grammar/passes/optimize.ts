import type { GExpr, Grammar } from "../Grammar.js";
import { Deadline } from "../../Deadline.js";
import { dedupeRules } from "./dedupeRules.js";
import { inlineRules } from "./inlineRules.js";
import { removeDeadRules } from "./removeDeadRules.js";
import { StructuralIds } from "../analysis/exprKey.js";

/** Passes are run at most this many rounds; each round shrinks the grammar, so real grammars settle in 2–3. */
const MAX_ROUNDS = 32;

/** A grammar of at least this many rules stops at the first round that removes under 1 % of them (`settled`). */
const LARGE_GRAMMAR_RULES = 1_000;

/**
 * Whether a large grammar's round gained too little to pay for another: every round walks every rule several times
 * (references, cycles, keys), and on the rule-per-state grammars of string automata (17,000 rules) rounds went on
 * removing a dozen rules each, nine rounds where the first did 95 % of the work. Stopping keeps the language (every
 * round preserves it) and leaves a few rules a later round would have inlined.
 */
function settled(before: Grammar, after: Grammar): boolean {
  return before.rules.size >= LARGE_GRAMMAR_RULES && (before.rules.size - after.rules.size) * 100 < before.rules.size;
}

/**
 * Dead-rule removal, deduplication and inlining, repeated until nothing changes (or a large grammar's round gains
 * under 1 %, see `settled`). Deterministic. `deadline` (the
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
    if (settled(cur, next)) return next;
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
