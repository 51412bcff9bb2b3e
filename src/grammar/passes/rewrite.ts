import type { GExpr, Ref } from "../Grammar.js";
import { children, foldExpr } from "../analysis/foldExpr.js";
import { alt, rep, seqOf } from "../build.js";
import { mapCountedLabels } from "../counted.js";
import type { Deadline } from "../../Deadline.js";

/**
 * Rebuilds `e` bottom-up, replacing each ref by `f(ref)`; untouched subtrees keep their identity. Iterative (inlined
 * rule chains nest deeper than the call stack); a subtree shared by several parents is rebuilt once. A loop of its
 * own rather than `foldExpr` (every pass folds with its own function and table, which left foldExpr's calls generic):
 * the optimizer rewrites every body that refers to a merged or inlined rule.
 */
export function mapRefs(e: GExpr, f: (r: Ref) => GExpr, deadline?: Deadline): GExpr {
  const memo = new Map<GExpr, GExpr>();
  // post-order: a node is on the stack first to push its children (expanded false), then to be rebuilt
  const nodes: GExpr[] = [e];
  const expanded: boolean[] = [false];
  while (nodes.length > 0) {
    const top = nodes.length - 1;
    const x = nodes[top];
    if (!expanded[top] && (x.type === "seq" || x.type === "alt" || x.type === "repeat" || x.type === "counted")) {
      expanded[top] = true;
      if (x.type === "counted") {
        for (const k of children(x)) {
          if (memo.has(k)) continue;
          nodes.push(k);
          expanded.push(false);
        }
        continue;
      }
      if (x.type === "repeat") {
        if (!memo.has(x.item)) {
          nodes.push(x.item);
          expanded.push(false);
        }
        continue;
      }
      for (let i = x.items.length - 1; i >= 0; i--) {
        const k = x.items[i];
        if (memo.has(k)) continue;
        nodes.push(k);
        expanded.push(false);
      }
      continue;
    }
    nodes.pop();
    expanded.pop();
    // a node shared by two parents can be pushed twice before it is rebuilt
    if (memo.has(x)) continue;
    deadline?.tick("rewriting references");
    memo.set(x, rebuilt(x, memo, f));
  }
  return memo.get(e) as GExpr;
}

/** `x` with its children replaced by their images in `memo` (itself when none changed), or a ref's image. */
function rebuilt(x: GExpr, memo: Map<GExpr, GExpr>, f: (r: Ref) => GExpr): GExpr {
  switch (x.type) {
    case "ref":
      return f(x);
    case "seq":
    case "alt": {
      const items = x.items;
      let kids: GExpr[] | undefined;
      for (let i = 0; i < items.length; i++) {
        const k = memo.get(items[i]) as GExpr;
        if (kids === undefined && k !== items[i]) kids = items.slice(0, i);
        kids?.push(k);
      }
      return kids === undefined ? x : { type: x.type, items: kids };
    }
    case "repeat": {
      const item = memo.get(x.item) as GExpr;
      return item === x.item ? x : { type: "repeat", item, min: x.min, max: x.max };
    }
    case "counted":
      return mapCountedLabels(x, (label) => memo.get(label) as GExpr);
    default:
      return x;
  }
}

/**
 * Rebuilds `e` with the smart constructors of build.ts (flattening, literal merging); the language is unchanged.
 * An expression the constructors leave as it is is returned itself (so a pass can tell "nothing changed" by
 * identity). Nested sequences are flattened in one pass (an inlined chain of single-use rules nests them thousands
 * deep, and rebuilding each level would copy the tail again: quadratic). `deadline` is ticked per node.
 */
export function simplify(e: GExpr, deadline?: Deadline): GExpr {
  const done = simplifiedSet(deadline);
  if (done.has(e)) return e;
  const out = simplifyNode(e, deadline);
  done.add(out);
  return out;
}

/**
 * Results of `simplify` (expressions are immutable, and simplify is idempotent): optimize's last round, which only
 * confirms that nothing changes, does not walk every body again. Kept per deadline, i.e. per compile: a set shared
 * by every compile of the process would let a later compile skip (and not count) the steps of expressions an
 * earlier one simplified, so the same schema could spend a different number of steps depending on what ran before.
 */
const simplifiedWithin = new WeakMap<Deadline, WeakSet<GExpr>>();
const simplifiedUncounted = new WeakSet<GExpr>();

function simplifiedSet(deadline: Deadline | undefined): WeakSet<GExpr> {
  if (deadline === undefined) return simplifiedUncounted;
  let set = simplifiedWithin.get(deadline);
  if (set === undefined) simplifiedWithin.set(deadline, (set = new WeakSet()));
  return set;
}

function simplifyNode(e: GExpr, deadline?: Deadline): GExpr {
  const tick = deadline ? () => deadline.tick("simplifying grammar rules") : undefined;
  return foldExpr<GExpr>(
    e,
    (x, kids) => {
      switch (x.type) {
        case "seq":
          // the kids are the sequence's flattened items
          return unchanged(x, seqOf(kids));
        case "alt":
          return unchanged(x, alt(...kids));
        case "repeat": {
          const item = kids[0];
          const r = rep(item, x.min, x.max);
          return item === x.item && r.type === "repeat" && r.min === x.min && r.max === x.max ? x : r;
        }
        default:
          return x;
      }
    },
    new Map(),
    tick,
    (x) => (x.type === "seq" ? flatItems(x.items) : children(x)),
  );
}

/**
 * The items of nested sequences in order, without the sequences themselves, in one pass: an inlined chain of
 * single-use rules nests them thousands deep, and flattening level by level would copy the tail again (quadratic).
 */
function flatItems(items: readonly GExpr[]): GExpr[] {
  const parts: GExpr[] = [];
  const stack: (readonly GExpr[] | number)[] = [items, 0];
  while (stack.length) {
    const i = stack.pop() as number;
    const list = stack.pop() as readonly GExpr[];
    if (i >= list.length) continue;
    stack.push(list, i + 1);
    const it = list[i];
    if (it.type === "seq") stack.push(it.items, 0);
    else parts.push(it);
  }
  return parts;
}

/** `e` itself when `r` (its rebuilt form) has the same type and the very same items. */
function unchanged(e: GExpr & { items: readonly GExpr[] }, r: GExpr): GExpr {
  if (r.type !== e.type) return r;
  return sameItems((r as typeof e).items, e.items) ? e : r;
}

/** The same nodes in the same order (a loop: `every` with a closure per node was a share of the passes' garbage). */
function sameItems(a: readonly GExpr[], b: readonly GExpr[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
