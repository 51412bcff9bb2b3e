import type { GExpr, Grammar } from "../Grammar.js";
import { ref } from "../build.js";
import type { Deadline } from "../../Deadline.js";
import { exprKey, type StructuralIds } from "../analysis/exprKey.js";
import { collectRefs, refsOf as bodyRefs, seedRefs } from "../analysis/refs.js";
import { mapRefs } from "./rewrite.js";

/** Stands for a body's references to its own rule when bodies are keyed (no rule can be named so). */
const SELF = ref("@self");

/**
 * The key of rule `name`'s body with references to itself read as SELF. Merging rules of equal keys is sound: in
 * Kleene's iteration from empty languages both are given the same language at every step (their bodies are the same
 * expression once merged names are read as one), so the least solution gives them the same language.
 */
function bodyKey(
  name: string,
  e: GExpr,
  selfRef: boolean,
  keys: StructuralIds | undefined,
  deadline: Deadline | undefined,
): string | number {
  if (!selfRef) return keys ? keys.of(e, deadline) : exprKey(e, deadline);
  if (!keys) return exprKey(e, deadline, (r) => (r === name ? SELF.rule : JSON.stringify(r)));
  return keys.ofModulo(e, name, (body) => mapRefs(body, (r) => (r.rule === name ? SELF : r), deadline), deadline);
}

/**
 * Merges rules with structurally identical bodies into the first of them in grammar order (the root always keeps
 * its name), rewriting references, until no two bodies are equal (merging can make more bodies equal). Bodies are
 * compared modulo self-reference: `a ::= "x" a | ""` and `b ::= "x" b | ""` are one rule (two tools' any-value rules
 * differ only so), as both are the least solution of the same equation.
 *
 * Incremental: every body is keyed once, and after a merge only the rules referring to the merged one are keyed
 * again (re-keying the whole grammar per round is quadratic on grammars with long chains of equal rules). The
 * result does not depend on the order merges are found in: the classes are those of the smallest congruence, and
 * each class keeps its earliest rule. `keys` gives the bodies' structural identities across calls (optimize's rounds).
 */
export function dedupeRules(g: Grammar, deadline?: Deadline, keys?: StructuralIds): Grammar {
  const order = new Map<string, number>();
  let i = 0;
  for (const name of g.rules.keys()) order.set(name, name === g.root ? -1 : i++);
  const body = new Map(g.rules);
  const referrers = new Map<string, Set<string>>();
  // the rules each body refers to (kept current as merges rename them): a body that refers to no merged rule is
  // left as it is, instead of being rebuilt by mapRefs
  const refsOf = new Map<string, Set<string>>();
  for (const [name, e] of g.rules) {
    deadline?.tick("deduplicating grammar rules");
    const counts = new Map<string, number>();
    collectRefs(e, counts, deadline);
    refsOf.set(name, new Set(counts.keys()));
    for (const r of counts.keys()) {
      let s = referrers.get(r);
      if (!s) referrers.set(r, (s = new Set()));
      s.add(name);
    }
  }
  const alias = new Map<string, string>();
  const resolve = (name: string): string => {
    let n = name;
    while (alias.has(n)) n = alias.get(n) as string;
    if (n !== name) alias.set(name, n);
    return n;
  };
  // a body with its merged references renamed; its references are the old body's renamed (counts of names merged
  // into one summed, at the first one's place), so the passes after this one do not walk it again
  const renamed = (e: GExpr): GExpr => {
    const out = mapRefs(e, (r) => (alias.has(r.rule) ? ref(resolve(r.rule)) : r), deadline);
    const refs = new Map<string, number>();
    for (const [r, n] of bodyRefs(e, deadline)) {
      const to = alias.has(r) ? resolve(r) : r;
      refs.set(to, (refs.get(to) ?? 0) + n);
    }
    seedRefs(out, refs, deadline);
    return out;
  };
  const refersToMerged = (name: string): boolean => {
    for (const r of refsOf.get(name) ?? []) if (alias.has(r)) return true;
    return false;
  };
  const keyOf = new Map<string, string | number>();
  const owner = new Map<string | number, string>();

  // the root is keyed first so it is never renamed
  let wave = [g.root, ...[...g.rules.keys()].filter((n) => n !== g.root)];
  let merged = false;
  while (wave.length) {
    const next = new Set<string>();
    for (const name of wave) {
      deadline?.tick("deduplicating grammar rules");
      if (alias.has(name) || !body.has(name)) continue;
      let e = body.get(name) as GExpr;
      if (merged && refersToMerged(name)) {
        e = renamed(e);
        body.set(name, e);
        refsOf.set(name, new Set([...(refsOf.get(name) ?? [])].map(resolve)));
      }
      const old = keyOf.get(name);
      if (old !== undefined && owner.get(old) === name) owner.delete(old);
      const k = bodyKey(name, e, refsOf.get(name)?.has(name) === true, keys, deadline);
      const o = owner.get(k);
      if (o === undefined || o === name) {
        owner.set(k, name);
        keyOf.set(name, k);
        continue;
      }
      const [keep, drop] = (order.get(o) as number) < (order.get(name) as number) ? [o, name] : [name, o];
      owner.set(k, keep);
      keyOf.set(keep, k);
      keyOf.delete(drop);
      body.delete(drop);
      alias.set(drop, keep);
      merged = true;
      const from = referrers.get(drop);
      if (from) {
        let to = referrers.get(keep);
        if (!to) referrers.set(keep, (to = new Set()));
        for (const r of from) {
          to.add(r);
          next.add(r);
        }
      }
    }
    wave = [...next].sort((a, b) => (order.get(a) as number) - (order.get(b) as number));
  }
  if (!merged) return g;
  const rules = new Map<string, GExpr>();
  for (const name of g.rules.keys()) {
    const e = body.get(name);
    if (e !== undefined) rules.set(name, refersToMerged(name) ? renamed(e) : e);
  }
  return { root: g.root, rules };
}
