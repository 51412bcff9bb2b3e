import type { Deadline } from "../../Deadline.js";
import type { GExpr, Grammar } from "../Grammar.js";
import { referenceGraph } from "./refs.js";

/**
 * The least set of rules whose body satisfies `holds` given the set found so far (the rules that derive the empty
 * string, the rules that derive some finite text...). A worklist: a rule is evaluated again only when a rule it
 * references joins the set, so a chain of thousands of rules listed in reverse order costs one pass, not one per
 * rule. Rules are evaluated callees first, so that in a grammar without cycles each body is evaluated once (root
 * first, a tool set's root was evaluated again each time one of its hundreds of tools joined the set). `graph` is
 * the grammar's `referenceGraph` when the caller has it.
 */
export function leastRuleFixpoint(
  g: Grammar,
  holds: (body: GExpr, set: ReadonlySet<string>) => boolean,
  deadline?: Deadline,
  graph: ReadonlyMap<string, readonly string[]> = referenceGraph(g, deadline),
): Set<string> {
  const referrers = new Map<string, string[]>();
  for (const [name, refs] of graph) {
    for (const r of refs) {
      let s = referrers.get(r);
      if (!s) referrers.set(r, (s = []));
      s.push(name);
    }
  }
  const set = new Set<string>();
  const work = calleesFirst(g, graph).reverse();
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

/** Every rule once, each after the rules it references (but for back edges of cycles): a depth-first post-order, iterative. */
function calleesFirst(g: Grammar, graph: ReadonlyMap<string, readonly string[]>): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  const stack: string[] = [];
  const next: number[] = [];
  for (const start of g.rules.keys()) {
    if (seen.has(start)) continue;
    seen.add(start);
    stack.push(start);
    next.push(0);
    while (stack.length > 0) {
      const top = stack.length - 1;
      const succ = graph.get(stack[top]) ?? [];
      if (next[top] < succ.length) {
        const w = succ[next[top]++];
        if (!seen.has(w) && g.rules.has(w)) {
          seen.add(w);
          stack.push(w);
          next.push(0);
        }
        continue;
      }
      out.push(stack.pop() as string);
      next.pop();
    }
  }
  return out;
}
