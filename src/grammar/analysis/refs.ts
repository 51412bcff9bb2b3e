import type { Deadline } from "../../Deadline.js";
import type { GExpr, Grammar } from "../Grammar.js";
import { foldExpr, forEachNode } from "./foldExpr.js";

/** Adds the rule names referenced by `e` to `counts` (with their number of occurrences), in first-occurrence order. */
export function collectRefs(e: GExpr, counts: Map<string, number>, deadline?: Deadline): void {
  forEachNode(e, (x) => {
    deadline?.tick("analyzing the grammar");
    if (x.type === "ref") counts.set(x.rule, (counts.get(x.rule) ?? 0) + 1);
  });
}

/** Direct references of every rule (each rule's referenced names, in first-occurrence order). */
export function referenceGraph(g: Grammar, deadline?: Deadline): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const [name, body] of g.rules) {
    const m = new Map<string, number>();
    collectRefs(body, m, deadline);
    out.set(name, [...m.keys()]);
  }
  return out;
}

/** How often each rule is referenced in the whole grammar. */
export function referenceCounts(g: Grammar, deadline?: Deadline): Map<string, number> {
  const counts = new Map<string, number>();
  for (const body of g.rules.values()) collectRefs(body, counts, deadline);
  return counts;
}

const withRefs = new WeakMap<GExpr, boolean>();

/** Whether `e` references a rule (memoized per node, iterative). */
export function hasRefs(e: GExpr): boolean {
  return foldExpr<boolean>(e, (x, kids) => x.type === "ref" || kids.some(Boolean), withRefs);
}
