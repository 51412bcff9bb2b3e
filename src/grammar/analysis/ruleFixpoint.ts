import type { Deadline } from "../../Deadline.js";
import type { GExpr, Grammar } from "../Grammar.js";
import { referenceGraph } from "./refs.js";

/**
 * The least set of rules whose body satisfies `holds` given the set found so far (the rules that derive the empty
 * string, the rules that derive some finite text...). A worklist: a rule is evaluated again only when a rule it
 * references joins the set, so a chain of thousands of rules listed in reverse order costs one pass, not one per
 * rule.
 */
export function leastRuleFixpoint(g: Grammar, holds: (body: GExpr, set: ReadonlySet<string>) => boolean, deadline?: Deadline): Set<string> {
  const graph = referenceGraph(g, deadline);
  const referrers = new Map<string, string[]>();
  for (const [name, refs] of graph) {
    for (const r of refs) {
      let s = referrers.get(r);
      if (!s) referrers.set(r, (s = []));
      s.push(name);
    }
  }
  const set = new Set<string>();
  const work = [...g.rules.keys()].reverse();
  const queued = new Set(work);
  while (work.length > 0) {
    const name = work.pop() as string;
    queued.delete(name);
    if (set.has(name)) continue;
    deadline?.tick("analyzing the grammar");
    if (!holds(g.rules.get(name) as GExpr, set)) continue;
    set.add(name);
    for (const r of referrers.get(name) ?? []) {
      if (!set.has(r) && !queued.has(r)) {
        queued.add(r);
        work.push(r);
      }
    }
  }
  return set;
}
