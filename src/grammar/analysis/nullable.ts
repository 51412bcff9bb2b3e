import type { Deadline } from "../../Deadline.js";
import type { GExpr, Grammar } from "../Grammar.js";
import { countedNullable } from "../counted.js";
import { foldExpr } from "./foldExpr.js";
import { leastRuleFixpoint } from "./ruleFixpoint.js";

/** Rules whose language contains the empty string (least fixpoint). */
export function nullableRules(g: Grammar, deadline?: Deadline): Set<string> {
  return leastRuleFixpoint(g, isNullable, deadline);
}

/**
 * Whether `e` matches the empty string, given the set of nullable rules. `memo` may be shared by calls with the same
 * `rules`. Iterative.
 */
export function isNullable(e: GExpr, rules: ReadonlySet<string>, memo: Map<GExpr, boolean> = new Map()): boolean {
  return foldExpr<boolean>(
    e,
    (x, kids) => {
      switch (x.type) {
        case "literal":
        case "token":
          return x.text.length === 0;
        case "charClass":
          return false;
        case "ref":
          return rules.has(x.rule);
        case "seq":
          return kids.every(Boolean);
        case "alt":
          return kids.some(Boolean);
        case "repeat":
          return (x.max === null || x.max >= x.min) && (x.min === 0 || kids[0]);
        case "counted":
          return countedNullable(x);
      }
    },
    memo,
  );
}
