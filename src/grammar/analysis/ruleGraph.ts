import type { Deadline } from "../../Deadline.js";
import type { Grammar } from "../Grammar.js";
import { referenceGraph } from "./refs.js";

/**
 * The nodes of `graph` that lie on a cycle (a node with an edge to itself included), by Tarjan's strongly connected
 * components, iteratively: rule chains thousands deep must not overflow the stack. Edges to names that are not keys
 * of the graph are ignored.
 */
export function cyclicNodes(graph: ReadonlyMap<string, readonly string[]>): Set<string> {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const result = new Set<string>();
  let counter = 0;
  for (const start of graph.keys()) {
    if (index.has(start)) continue;
    const frames: { v: string; i: number }[] = [{ v: start, i: 0 }];
    index.set(start, counter);
    low.set(start, counter++);
    stack.push(start);
    onStack.add(start);
    while (frames.length > 0) {
      const f = frames[frames.length - 1];
      const succ = graph.get(f.v) ?? [];
      if (f.i < succ.length) {
        const w = succ[f.i++];
        if (!graph.has(w)) continue;
        if (!index.has(w)) {
          index.set(w, counter);
          low.set(w, counter++);
          stack.push(w);
          onStack.add(w);
          frames.push({ v: w, i: 0 });
        } else if (onStack.has(w)) {
          low.set(f.v, Math.min(low.get(f.v) as number, index.get(w) as number));
        }
        continue;
      }
      frames.pop();
      if (frames.length > 0) {
        const p = frames[frames.length - 1].v;
        low.set(p, Math.min(low.get(p) as number, low.get(f.v) as number));
      }
      if (low.get(f.v) === index.get(f.v)) {
        const comp: string[] = [];
        let w: string;
        do {
          w = stack.pop() as string;
          onStack.delete(w);
          comp.push(w);
        } while (w !== f.v);
        if (comp.length > 1 || succ.includes(f.v)) for (const c of comp) result.add(c);
      }
    }
  }
  return result;
}

/** Rules that lie on a reference cycle (including a rule that references itself), in grammar order. */
export function recursiveRules(g: Grammar, deadline?: Deadline, graph = referenceGraph(g, deadline)): string[] {
  const cyclic = cyclicNodes(graph);
  return [...g.rules.keys()].filter((n) => cyclic.has(n));
}

/** Rules reachable from the root, in grammar order. */
export function reachableRules(g: Grammar, deadline?: Deadline, graph = referenceGraph(g, deadline)): string[] {
  const seen = new Set<string>([g.root]);
  const work = [g.root];
  while (work.length > 0) {
    for (const w of graph.get(work.pop() as string) ?? []) {
      if (!seen.has(w) && graph.has(w)) {
        seen.add(w);
        work.push(w);
      }
    }
  }
  return [...g.rules.keys()].filter((n) => seen.has(n));
}

/** Whether a rule reachable from the root is recursive (the language may then not be regular). */
export function isRecursive(g: Grammar): boolean {
  const graph = referenceGraph(g);
  const rec = new Set(recursiveRules(g, undefined, graph));
  return reachableRules(g, undefined, graph).some((n) => rec.has(n));
}
