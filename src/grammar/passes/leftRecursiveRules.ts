import type { GExpr, Grammar } from "../Grammar.js";
import { isNullable, nullableRules } from "./nullable.js";

/** Rules reachable at the left edge of `e` (after only nullable items), added to `out`. */
function leftRefs(e: GExpr, nullable: ReadonlySet<string>, out: Set<string>): void {
  switch (e.type) {
    case "ref":
      out.add(e.rule);
      return;
    case "seq":
      for (const it of e.items) {
        leftRefs(it, nullable, out);
        if (!isNullable(it, nullable)) return;
      }
      return;
    case "alt":
      for (const it of e.items) leftRefs(it, nullable, out);
      return;
    case "repeat":
      if (e.max === null || e.max > 0) leftRefs(e.item, nullable, out);
      return;
    default:
      return;
  }
}

/**
 * Rules that can derive themselves at their left edge without consuming input (A ⇒+ A …), in grammar order.
 * llama.cpp's grammar engine refuses such rules (or, when the emptiness is hidden, recurses forever).
 */
export function leftRecursiveRules(g: Grammar): string[] {
  const nullable = nullableRules(g);
  const edges = new Map<string, Set<string>>();
  for (const [name, body] of g.rules) {
    const s = new Set<string>();
    leftRefs(body, nullable, s);
    edges.set(name, s);
  }
  const result: string[] = [];
  for (const name of g.rules.keys()) {
    const seen = new Set<string>();
    const work = [...(edges.get(name) ?? [])];
    while (work.length > 0) {
      const r = work.pop() as string;
      if (r === name) {
        result.push(name);
        break;
      }
      if (seen.has(r)) continue;
      seen.add(r);
      for (const x of edges.get(r) ?? []) work.push(x);
    }
  }
  return result;
}
