import type { GExpr } from "../Grammar.js";

/** The children of an expression, in order. */
export function children(e: GExpr): readonly GExpr[] {
  if (e.type === "seq" || e.type === "alt") return e.items;
  if (e.type === "repeat") return [e.item];
  return NONE;
}

const NONE: readonly GExpr[] = [];

/**
 * The value of `e` computed bottom-up: `f` sees a node and its children's values. Iterative (a grammar's expressions
 * can nest deeper than the call stack: an inlined chain of thousands of rules) and memoized per node in `memo` (by
 * identity: expressions are never mutated), so a subtree shared by several parents is computed once. `visit` is
 * called once per node computed (a deadline's tick). `kidsOf` may give a node other children than its own (a
 * sequence its flattened items).
 */
export function foldExpr<T>(
  e: GExpr,
  f: (e: GExpr, kids: readonly T[], kidNodes: readonly GExpr[]) => T,
  memo: Map<GExpr, T> | WeakMap<GExpr, T> = new Map(),
  visit?: () => void,
  kidsOf: (e: GExpr) => readonly GExpr[] = children,
): T {
  const known = memo.get(e);
  if (known !== undefined) return known;
  // a node is on the stack twice in effect: first to push its children (kids still null), then to combine them
  const nodes: GExpr[] = [e];
  const kidLists: (readonly GExpr[] | null)[] = [null];
  while (nodes.length > 0) {
    const top = nodes.length - 1;
    const x = nodes[top];
    if (memo.has(x)) {
      nodes.pop();
      kidLists.pop();
      continue;
    }
    let kids = kidLists[top];
    if (kids === null) {
      kids = kidLists[top] = kidsOf(x);
      for (let i = kids.length - 1; i >= 0; i--) {
        if (!memo.has(kids[i])) {
          nodes.push(kids[i]);
          kidLists.push(null);
        }
      }
      continue;
    }
    nodes.pop();
    kidLists.pop();
    visit?.();
    memo.set(x, f(x, kids.map((k) => memo.get(k) as T), kids));
  }
  return memo.get(e) as T;
}

/**
 * Calls `f` on every node of `e` in pre-order (a node before its children, children in order), iteratively. A
 * subtree shared by several parents is visited once per occurrence, as text emitters print it.
 */
export function forEachNode(e: GExpr, f: (e: GExpr) => void): void {
  const stack: GExpr[] = [e];
  while (stack.length > 0) {
    const x = stack.pop() as GExpr;
    f(x);
    const kids = children(x);
    for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i]);
  }
}
