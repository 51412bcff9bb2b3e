import type { Deadline } from "../../Deadline.js";
import type { GExpr, Grammar } from "../Grammar.js";
import { countedProductive } from "../counted.js";
import { foldExpr } from "./foldExpr.js";
import { leastRuleFixpoint } from "./ruleFixpoint.js";

/** Which `token` nodes can be produced (with "token-only" matching, only those the vocabulary has). */
export type TokenAvailable = (text: string) => boolean;

const allTokens: TokenAvailable = () => true;

/** Rules that derive at least one finite text (least fixpoint). `graph`: the grammar's `referenceGraph`, if known. */
export function productiveRules(
  g: Grammar,
  tokenOk: TokenAvailable = allTokens,
  deadline?: Deadline,
  graph?: ReadonlyMap<string, readonly string[]>,
): Set<string> {
  return leastRuleFixpoint(g, (body, set) => isProductive(body, set, tokenOk), deadline, graph);
}

/**
 * Whether `e` derives at least one finite text, given the productive rules. `memo` may be shared by calls with the
 * same `rules` and `tokenOk` (it caches every sub-expression's answer). Iterative.
 */
export function isProductive(
  e: GExpr,
  rules: ReadonlySet<string>,
  tokenOk: TokenAvailable = allTokens,
  memo: Map<GExpr, boolean> = new Map(),
): boolean {
  return foldExpr<boolean>(
    e,
    (x, kids) => {
      switch (x.type) {
        case "literal":
        case "charClass":
          return true;
        case "token":
          return tokenOk(x.text);
        case "ref":
          return rules.has(x.rule);
        case "seq":
          return kids.every(Boolean);
        case "alt":
          return kids.some(Boolean);
        case "repeat":
          return x.min === 0 || kids[0];
        case "counted":
          return countedProductive(x);
      }
    },
    memo,
  );
}
