import type { GExpr, Grammar, Ref } from "../Grammar.js";
import { alt, rep, seqOf } from "../build.js";
import type { Deadline } from "../../Deadline.js";

/** Rule names referenced by `e`, in first-occurrence order, with their counts added to `counts`. */
export function collectRefs(e: GExpr, counts: Map<string, number>): void {
  switch (e.type) {
    case "ref":
      counts.set(e.rule, (counts.get(e.rule) ?? 0) + 1);
      return;
    case "seq":
    case "alt":
      for (const it of e.items) collectRefs(it, counts);
      return;
    case "repeat":
      collectRefs(e.item, counts);
      return;
    default:
      return;
  }
}

/** Direct references of every rule. */
export function referenceGraph(g: Grammar): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const [name, body] of g.rules) {
    const m = new Map<string, number>();
    collectRefs(body, m);
    out.set(name, [...m.keys()]);
  }
  return out;
}

/** Rebuilds `e` bottom-up, replacing each ref by `f(ref)`; untouched subtrees keep their identity. */
export function mapRefs(e: GExpr, f: (r: Ref) => GExpr): GExpr {
  switch (e.type) {
    case "ref":
      return f(e);
    case "seq":
    case "alt": {
      let changed = false;
      const items = e.items.map((it) => {
        const m = mapRefs(it, f);
        if (m !== it) changed = true;
        return m;
      });
      return changed ? { type: e.type, items } : e;
    }
    case "repeat": {
      const item = mapRefs(e.item, f);
      return item === e.item ? e : { type: "repeat", item, min: e.min, max: e.max };
    }
    default:
      return e;
  }
}

/** A canonical string of an expression: equal strings ⇔ structurally equal expressions. */
export function exprKey(e: GExpr): string {
  // one buffer for the whole tree: joining the children's strings at every level would copy a deep chain's tail
  // once per level (quadratic)
  const out: string[] = [];
  keyInto(e, out);
  return out.join("");
}

/** `exprKey(e)`, memoized in `cache` (by identity: expressions are never mutated). */
export function cachedKey(e: GExpr, cache: Map<GExpr, string>): string {
  let k = cache.get(e);
  if (k === undefined) cache.set(e, (k = exprKey(e)));
  return k;
}

function keyInto(e: GExpr, out: string[]): void {
  switch (e.type) {
    case "literal":
      out.push(`l${JSON.stringify(e.text)}`);
      return;
    case "token":
      out.push(`t${JSON.stringify(e.text)}`);
      return;
    case "charClass":
      out.push(`c[${e.ranges.join(",")}]`);
      return;
    case "ref":
      out.push(`r${JSON.stringify(e.rule)}`);
      return;
    case "seq":
    case "alt": {
      out.push(e.type === "seq" ? "s(" : "a(");
      const sep = e.type === "seq" ? " " : "|";
      e.items.forEach((it, i) => {
        if (i) out.push(sep);
        keyInto(it, out);
      });
      out.push(")");
      return;
    }
    case "repeat":
      out.push(`p{${e.min},${e.max ?? ""}}(`);
      keyInto(e.item, out);
      out.push(")");
      return;
  }
}

/** A canonical string of a whole grammar (root, then rules in order). */
export function grammarKey(g: Grammar): string {
  const parts = [`root=${g.root}`];
  for (const [name, body] of g.rules) parts.push(`${name}=${exprKey(body)}`);
  return parts.join("\n");
}

/** Number of nodes in `e`. */
export function exprSize(e: GExpr): number {
  switch (e.type) {
    case "seq":
    case "alt":
      return 1 + e.items.reduce((n, it) => n + exprSize(it), 0);
    case "repeat":
      return 1 + exprSize(e.item);
    default:
      return 1;
  }
}

/**
 * Rebuilds `e` with the smart constructors of build.ts (flattening, literal merging); the language is unchanged.
 * An expression the constructors leave as it is is returned itself (so a pass can tell "nothing changed" by
 * identity). Nested sequences are flattened in one pass (an inlined chain of single-use rules nests them thousands
 * deep, and rebuilding each level would copy the tail again: quadratic). `deadline` is ticked per node.
 */
export function simplify(e: GExpr, deadline?: Deadline): GExpr {
  if (simplified.has(e)) return e;
  const out = simplifyNode(e, deadline);
  simplified.add(out);
  return out;
}

/**
 * Results of `simplify` (expressions are immutable, and simplify is idempotent): optimize's last round, which only
 * confirms that nothing changes, does not walk every body again.
 */
const simplified = new WeakSet<GExpr>();

function simplifyNode(e: GExpr, deadline?: Deadline): GExpr {
  deadline?.tick("simplifying grammar rules");
  switch (e.type) {
    case "seq": {
      const parts: GExpr[] = [];
      // iterative, items in order: the nesting can be deeper than the call stack
      const stack: (readonly GExpr[] | number)[] = [e.items, 0];
      while (stack.length) {
        const i = stack.pop() as number;
        const items = stack.pop() as readonly GExpr[];
        if (i >= items.length) continue;
        stack.push(items, i + 1);
        const it = items[i];
        if (it.type === "seq") stack.push(it.items, 0);
        else parts.push(simplifyNode(it, deadline));
      }
      return unchanged(e, seqOf(parts));
    }
    case "alt":
      return unchanged(e, alt(...e.items.map((it) => simplifyNode(it, deadline))));
    case "repeat": {
      const item = simplifyNode(e.item, deadline);
      const r = rep(item, e.min, e.max);
      return item === e.item && r.type === "repeat" && r.min === e.min && r.max === e.max ? e : r;
    }
    default:
      return e;
  }
}

/** `e` itself when `r` (its rebuilt form) has the same type and the very same items. */
function unchanged(e: GExpr & { items: readonly GExpr[] }, r: GExpr): GExpr {
  if (r.type !== e.type) return r;
  const items = (r as typeof e).items;
  return items.length === e.items.length && items.every((it, i) => it === e.items[i]) ? e : r;
}
