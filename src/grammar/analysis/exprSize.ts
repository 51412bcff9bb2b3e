import type { GExpr } from "../Grammar.js";
import { foldExpr } from "./foldExpr.js";

const sizes = new WeakMap<GExpr, number>();

/**
 * Number of IR nodes of `e` as text emitters print it (a sub-expression used twice counts twice). Memoized per node,
 * iterative.
 */
export function exprSize(e: GExpr): number {
  return foldExpr(e, (_, kids) => kids.reduce((n, k) => n + k, 1), sizes);
}
