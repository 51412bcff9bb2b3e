import type { Deadline } from "../../Deadline.js";
import type { GExpr, Grammar } from "../Grammar.js";
import { NOTHING, alt, ref, rep, seq } from "../build.js";
import { isNullable, nullableRules } from "../analysis/nullable.js";

/**
 * Rewrites every repeat of a nullable item `x{m,n}` (other than `x?`) into `(x minus "")^{0..n}`, which has the same
 * language. Why: llama.cpp expands `S*` into `S' ::= S S' |`; with `S` nullable that rule is left-recursive, which
 * llama.cpp either refuses or, when the emptiness is hidden behind a group, recurses on forever. Bounded repeats of
 * a nullable item are rewritten too: every count is then ambiguous, which costs a recognizer one item per count.
 * Rules needed for "r minus the empty string" are added as `<r>-ne` (a fresh name).
 */
export function removeNullableLoops(g: Grammar, deadline?: Deadline): Grammar {
  const nullable = nullableRules(g, deadline);
  const memo = new Map<GExpr, boolean>();
  const names = new Set(g.rules.keys());
  const neName = new Map<string, string>();
  const added = new Map<string, GExpr>();
  const pending: string[] = [];

  const fresh = (base: string): string => {
    let n = `${base}-ne`;
    for (let i = 2; names.has(n); i++) n = `${base}-ne${i}`;
    names.add(n);
    return n;
  };
  const nonEmptyRef = (rule: string): GExpr => {
    if (!nullable.has(rule)) return ref(rule);
    let n = neName.get(rule);
    if (!n) {
      n = fresh(rule);
      neName.set(rule, n);
      pending.push(rule);
    }
    return ref(n);
  };
  /** The language of `e` without the empty string. */
  const nonEmpty = (e: GExpr): GExpr => {
    deadline?.tick("rewriting nullable repetitions");
    if (!isNullable(e, nullable, memo)) return e;
    switch (e.type) {
      case "literal":
      case "token":
      case "charClass":
        return NOTHING; // only "" itself, which is removed
      case "ref":
        return nonEmptyRef(e.rule);
      case "alt":
        return alt(...e.items.map(nonEmpty));
      case "seq": {
        // every item is nullable here: L(a rest) \ "" = (a \ "") rest | (rest \ "")
        if (e.items.length === 0) return NOTHING;
        const [a, ...rest] = e.items;
        return alt(seq(nonEmpty(a), ...rest.map(fix)), nonEmpty(seq(...rest)));
      }
      case "repeat":
        return rep(nonEmpty(fix(e.item)), 1, e.max);
      case "counted":
        return { ...e, min: Math.max(e.min, 1) };
    }
  };
  const fix = (e: GExpr): GExpr => {
    deadline?.tick("rewriting nullable repetitions");
    switch (e.type) {
      case "seq":
        return seq(...e.items.map(fix));
      case "alt":
        return alt(...e.items.map(fix));
      case "repeat": {
        const item = fix(e.item);
        // x{m,n} with x nullable = (x minus "")^{0..n}: shorter concatenations pad with empty pieces
        if (isNullable(item, nullable, memo) && !(e.min === 0 && e.max === 1)) return rep(nonEmpty(item), 0, e.max);
        return item === e.item ? e : { type: "repeat", item, min: e.min, max: e.max };
      }
      default:
        return e;
    }
  };

  let changed = false;
  const rules = new Map<string, GExpr>();
  for (const [name, body] of g.rules) {
    const f = fix(body);
    if (f !== body) changed = true;
    rules.set(name, f);
  }
  while (pending.length > 0) {
    const r = pending.shift() as string;
    added.set(neName.get(r) as string, nonEmpty(rules.get(r) as GExpr));
    changed = true;
  }
  if (!changed) return g;
  for (const [n, b] of added) rules.set(n, b);
  return { root: g.root, rules };
}
