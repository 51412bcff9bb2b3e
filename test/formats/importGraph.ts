import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** The repository's src/ folder. */
export const SRC = resolve(dirname(fileURLToPath(import.meta.url)), "../../src");

const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^;]*?from\s+"(\.[^"]+)"/g;

/** Every .ts file of src/ (paths relative to src/) with the src/ files it imports (type-only imports included). */
export function importGraph(): Map<string, string[]> {
  const files: string[] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (p.endsWith(".ts")) files.push(relative(SRC, p));
    }
  };
  walk(SRC);
  const graph = new Map<string, string[]>();
  for (const f of files) {
    const text = readFileSync(join(SRC, f), "utf8");
    const deps: string[] = [];
    for (const m of text.matchAll(IMPORT)) {
      const target = relative(SRC, resolve(SRC, dirname(f), m[1])).replace(/\.js$/, ".ts");
      deps.push(target);
    }
    graph.set(f, deps);
  }
  return graph;
}

/** The import cycles (strongly connected components of two or more files, or a file importing itself). */
export function importCycles(graph: Map<string, string[]>): string[][] {
  // Tarjan, iterative
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const out: string[][] = [];
  for (const root of graph.keys()) {
    if (index.has(root)) continue;
    const work: Array<{ v: string; i: number }> = [{ v: root, i: 0 }];
    index.set(root, next);
    low.set(root, next++);
    stack.push(root);
    onStack.add(root);
    while (work.length > 0) {
      const top = work[work.length - 1];
      const deps = graph.get(top.v) ?? [];
      if (top.i < deps.length) {
        const w = deps[top.i++];
        if (!graph.has(w)) continue;
        if (!index.has(w)) {
          index.set(w, next);
          low.set(w, next++);
          stack.push(w);
          onStack.add(w);
          work.push({ v: w, i: 0 });
        } else if (onStack.has(w)) low.set(top.v, Math.min(low.get(top.v)!, index.get(w)!));
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1].v;
        low.set(parent, Math.min(low.get(parent)!, low.get(top.v)!));
      }
      if (low.get(top.v) === index.get(top.v)) {
        const scc: string[] = [];
        let w: string;
        do {
          w = stack.pop()!;
          onStack.delete(w);
          scc.push(w);
        } while (w !== top.v);
        if (scc.length > 1 || (graph.get(top.v) ?? []).includes(top.v)) out.push(scc.sort());
      }
    }
  }
  return out;
}

/** Every file reachable from `from` through imports. */
export function reachable(graph: Map<string, string[]>, from: string): Set<string> {
  const seen = new Set<string>([from]);
  const todo = [from];
  while (todo.length > 0) {
    for (const w of graph.get(todo.pop()!) ?? []) {
      if (!seen.has(w)) {
        seen.add(w);
        todo.push(w);
      }
    }
  }
  return seen;
}
