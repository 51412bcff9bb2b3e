import type { GExpr, Grammar } from "../Grammar.js";

/** Rules whose language contains the empty string (least fixpoint). */
export function nullableRules(g: Grammar): Set<string> {
  const out = new Set<string>();
  let changed = true;
  while (changed) {
    changed = false;
    for (const [name, body] of g.rules) {
      if (!out.has(name) && isNullable(body, out)) {
        out.add(name);
        changed = true;
      }
    }
  }
  return out;
}

/** Whether `e` matches the empty string, given the set of nullable rules. */
export function isNullable(e: GExpr, rules: ReadonlySet<string>): boolean {
  switch (e.type) {
    case "literal":
    case "token":
      return e.text.length === 0;
    case "charClass":
      return false;
    case "ref":
      return rules.has(e.rule);
    case "seq":
      return e.items.every((it) => isNullable(it, rules));
    case "alt":
      return e.items.some((it) => isNullable(it, rules));
    case "repeat":
      return (e.max === null || e.max >= e.min) && (e.min === 0 || isNullable(e.item, rules));
  }
}
