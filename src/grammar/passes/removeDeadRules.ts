import type { Deadline } from "../../Deadline.js";
import type { GExpr, Grammar } from "../Grammar.js";
import { reachableRules } from "../analysis/ruleGraph.js";

/** Drops rules unreachable from the root; the others keep their order. */
export function removeDeadRules(g: Grammar, deadline?: Deadline): Grammar {
  const keep = reachableRules(g, deadline);
  if (keep.length === g.rules.size) return g;
  return { root: g.root, rules: new Map(keep.map((n) => [n, g.rules.get(n) as GExpr])) };
}
