import type { GExpr } from "../Grammar.js";

/** The children of an expression, in order. */
export function children(e: GExpr): readonly GExpr[] {
  if (e.type === "seq" || e.type === "alt") return e.items;
  if (e.type === "repeat") return [e.item];
  if (e.type === "counted") return countedLabels(e);
  return NONE;
}

const labelLists = new WeakMap<GExpr, readonly GExpr[]>();

/** A counted node's labels, every edge's in order (they may reference rules: the paths between its loop states). */
function countedLabels(e: Extract<GExpr, { type: "counted" }>): readonly GExpr[] {
  let out = labelLists.get(e);
  if (out === undefined) {
    const list: GExpr[] = [];
    for (const s of e.states) for (const edge of s.edges) list.push(edge.label);
    labelLists.set(e, (out = list));
  }
  return out;
}

const NONE: readonly GExpr[] = [];

/**
 * The value of `e` computed bottom-up: `f` sees a node and its children's values. Iterative (a grammar's expressions
 * can nest deeper than the call stack: an inlined chain of thousands of rules) and memoized per node in `memo` (by
 * identity: expressions are never mutated), so a subtree shared by several parents is computed once. `visit` is
 * called once per node computed (a deadline's tick). `kidsOf` may give a node other children than its own (a
 * sequence its flattened items). `f`'s `kids` is a fresh array for a node with children (`f` may keep it, as the
 * items of a rebuilt node) and one shared empty array for every leaf.
 */
export function foldExpr<T>(
  e: GExpr,
  f: (e: GExpr, kids: readonly T[], kidNodes: readonly GExpr[]) => T,
  memo: Map<GExpr, T> | WeakMap<GExpr, T> = new Map(),
  visit?: () => void,
  kidsOf: (e: GExpr) => readonly GExpr[] = children,
): T {
  const known = memo.get(e);
  if (known !== undefined || memo.has(e)) return known as T;
  // a node is on the stack twice in effect: first to push its children (kids still null), then to combine them.
  // Leaves (most nodes) are computed when met, without a stack entry or an array of values: a compile folds every
  // node several times, and these arrays were a large share of its garbage
  const nodes: GExpr[] = [e];
  const kidLists: (readonly GExpr[])[] = [kidsOf(e)];
  // whether the node's children have been pushed (then it is combined when it is on top again)
  const pushed: boolean[] = [false];
  while (nodes.length > 0) {
    const top = nodes.length - 1;
    const x = nodes[top];
    const kids = kidLists[top];
    if (!pushed[top]) {
      // not looked up again here: a node computed since it was pushed (shared with a sibling's subtree) has its
      // children known, pushes none, and is skipped below
      pushed[top] = true;
      for (let i = kids.length - 1; i >= 0; i--) {
        const k = kids[i];
        if (memo.has(k)) continue;
        const grand = kidsOf(k);
        if (grand.length === 0) {
          visit?.();
          memo.set(k, f(k, NO_VALUES, grand));
        } else {
          nodes.push(k);
          kidLists.push(grand);
          pushed.push(false);
        }
      }
      continue;
    }
    nodes.pop();
    kidLists.pop();
    pushed.pop();
    // a node shared by two parents can be pushed twice before it is computed
    if (memo.has(x)) continue;
    visit?.();
    let values: readonly T[] = NO_VALUES;
    if (kids.length > 0) {
      const vs = new Array<T>(kids.length);
      for (let i = 0; i < kids.length; i++) vs[i] = memo.get(kids[i]) as T;
      values = vs;
    }
    memo.set(x, f(x, values, kids));
  }
  return memo.get(e) as T;
}

const NO_VALUES: readonly never[] = [];

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
