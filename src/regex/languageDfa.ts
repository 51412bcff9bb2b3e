import type { Deadline } from "../Deadline.js";
import { LimitExceededError } from "../errors.js";
import { complement, determinize, type Dfa, intersect, minimize } from "./Dfa.js";
import { expansionSize, type RNode } from "./RegexNode.js";
import { regexToNfa } from "./regexToNfa.js";

/**
 * The minimal DFA of a whole-string language, `and` / `not` nodes (resolved lookarounds) included: each is built on
 * its own (intersection, complement) and copied into the surrounding automaton. Throws LIMIT_AUTOMATON_SIZE past
 * `maxStates` states; the work is counted in `deadline`.
 */
export function languageDfa(node: RNode, maxStates: number, path: string, deadline?: Deadline): Dfa {
  if (expansionSize(node, maxStates) > maxStates) {
    throw new LimitExceededError(
      "LIMIT_AUTOMATON_SIZE",
      `a pattern or format expands to more than limits.maxAutomatonStates (${maxStates}) automaton states; lower its repetition bounds`,
      path,
    );
  }
  const embed = (n: RNode): Dfa => {
    if (n.t === "not") return minimize(complement(languageDfa(n.item, maxStates, path, deadline)), deadline, path);
    if (n.t !== "and") throw new Error("languageDfa: only intersections and complements are embedded");
    let acc = languageDfa(n.items[0], maxStates, path, deadline);
    for (const it of n.items.slice(1)) {
      acc = minimize(
        intersect(acc, languageDfa(it, maxStates, path, deadline), maxStates, path, deadline),
        deadline,
        path,
      );
    }
    return acc;
  };
  const nfa = regexToNfa(node, maxStates, path, deadline, embed);
  return minimize(determinize(nfa, maxStates, path, deadline), deadline, path);
}
