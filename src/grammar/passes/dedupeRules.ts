import type { GExpr, Grammar } from "../Grammar.js";
import { ref } from "../build.js";
import { exprKey, mapRefs } from "./walk.js";

/**
 * Merges rules with structurally identical bodies into the first of them in grammar order (the root always keeps
 * its name), rewriting references; repeated until no two bodies are equal, since merging can make more bodies equal.
 */
export function dedupeRules(g: Grammar): Grammar {
  let rules = g.rules;
  for (;;) {
    const firstByKey = new Map<string, string>();
    const alias = new Map<string, string>();
    // the root claims its key first so it is never renamed
    firstByKey.set(exprKey(rules.get(g.root) as GExpr), g.root);
    for (const [name, body] of rules) {
      const k = exprKey(body);
      const first = firstByKey.get(k);
      if (first === undefined) firstByKey.set(k, name);
      else if (first !== name) alias.set(name, first);
    }
    if (alias.size === 0) break;
    const next = new Map<string, GExpr>();
    for (const [name, body] of rules) {
      if (alias.has(name)) continue;
      next.set(name, mapRefs(body, (r) => (alias.has(r.rule) ? ref(alias.get(r.rule) as string) : r)));
    }
    rules = next;
  }
  return rules === g.rules ? g : { root: g.root, rules };
}
