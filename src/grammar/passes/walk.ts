import type { GExpr, Grammar, Ref } from "../Grammar.js";
import { alt, rep, seq } from "../build.js";

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
  switch (e.type) {
    case "literal":
      return `l${JSON.stringify(e.text)}`;
    case "token":
      return `t${JSON.stringify(e.text)}`;
    case "charClass":
      return `c[${e.ranges.join(",")}]`;
    case "ref":
      return `r${JSON.stringify(e.rule)}`;
    case "seq":
      return `s(${e.items.map(exprKey).join(" ")})`;
    case "alt":
      return `a(${e.items.map(exprKey).join("|")})`;
    case "repeat":
      return `p{${e.min},${e.max ?? ""}}(${exprKey(e.item)})`;
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

/** Rebuilds `e` with the smart constructors of build.ts (flattening, literal merging); the language is unchanged. */
export function simplify(e: GExpr): GExpr {
  switch (e.type) {
    case "seq":
      return seq(...e.items.map(simplify));
    case "alt":
      return alt(...e.items.map(simplify));
    case "repeat":
      return rep(simplify(e.item), e.min, e.max);
    default:
      return e;
  }
}
