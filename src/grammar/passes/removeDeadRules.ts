import type { GExpr, Grammar } from "../Grammar.js";
import { reachableRules } from "./recursiveRules.js";

/** Drops rules unreachable from the root; the others keep their order. */
export function removeDeadRules(g: Grammar): Grammar {
  const keep = reachableRules(g);
  if (keep.length === g.rules.size) return g;
  return { root: g.root, rules: new Map(keep.map((n) => [n, g.rules.get(n) as GExpr])) };
}
