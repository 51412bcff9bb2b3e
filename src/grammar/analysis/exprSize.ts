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

/**
 * `exprSize` of every expression of `es`, summed. First a plain walk that counts every occurrence (no table: a
 * lowering's size check sizes every node it built once, and a table entry per node cost several times the walk), given
 * up after `PLAIN_WALK_NODES` nodes: sub-expressions shared many times (a DAG whose tree is exponentially larger) are
 * then sized with a table of this call only (entries in the process-wide table cost more than the walk).
 */
export function totalExprSize(es: Iterable<GExpr>): number {
  const list = [...es];
  const plain = treeSizeAtMost(list, PLAIN_WALK_NODES);
  if (plain !== undefined) return plain;
  sizeWalks.tables++;
  const memo = new Map<GExpr, number>();
  let n = 0;
  for (const e of list) n += foldExpr(e, (_, kids) => kids.reduce((a, k) => a + k, 1), memo);
  return n;
}

/** Nodes a plain size walk visits before it leaves the sum to a memoized fold. */
export const PLAIN_WALK_NODES = 1 << 16;

/** Size walks that needed a table (see `totalExprSize`), for tests that count the work. */
export const sizeWalks = { tables: 0 };

/** The summed tree size of `es`, or undefined when it is above `max`. */
function treeSizeAtMost(es: readonly GExpr[], max: number): number | undefined {
  let n = 0;
  const stack: GExpr[] = [];
  for (const e of es) {
    stack.push(e);
    while (stack.length > 0) {
      const x = stack.pop() as GExpr;
      if (++n > max) return undefined;
      if (x.type === "seq" || x.type === "alt") for (let i = 0; i < x.items.length; i++) stack.push(x.items[i]);
      else if (x.type === "repeat") stack.push(x.item);
    }
  }
  return n;
}

/** Nodes visited by `exprSizeAtMost`, for tests that count the work. */
export const sizeChecks = { nodes: 0 };

/**
 * Whether `exprSize(e) <= max`, walking at most `max + 1` nodes: the lowerer's and the inliner's "small enough to
 * inline" questions ask it of every value and body, most of them far bigger than the bound, and a memoized size of
 * each is a table entry per node of the whole grammar.
 */
export function exprSizeAtMost(e: GExpr, max: number): boolean {
  let left = max + 1;
  const stack: GExpr[] = [e];
  while (stack.length > 0) {
    const x = stack.pop() as GExpr;
    sizeChecks.nodes++;
    if (--left === 0) return false;
    if (x.type === "seq" || x.type === "alt") for (let i = x.items.length - 1; i >= 0; i--) stack.push(x.items[i]);
    else if (x.type === "repeat") stack.push(x.item);
  }
  return true;
}
