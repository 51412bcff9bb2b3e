import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

/** The file-level import graph of a TypeScript source tree: file → the files it imports (relative imports only). */
export interface ImportGraph {
  files: string[];
  edges: Map<string, string[]>;
}

// `import … from "x"`, `export … from "x"`, `import "x"`, `import("x")`; type-only imports count too: a circle of
// types is still a circle for a reader
const IMPORT =
  /(?:^|\n)\s*(?:import|export)\b[^;'"`]*?\bfrom\s*["']([^"']+)["']|(?:^|\n)\s*import\s*["']([^"']+)["']|\bimport\(\s*["']([^"']+)["']\s*\)/g;

function listTs(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) out.push(...listTs(path));
    else if (entry.endsWith(".ts") && !entry.endsWith(".d.ts")) out.push(path);
  }
  return out;
}

/** Reads every .ts file below `root`; paths in the result are relative to `root`, with `/` separators. */
export function readImportGraph(root: string): ImportGraph {
  const abs = listTs(root).sort();
  const rel = (p: string): string => relative(root, p).split("\\").join("/");
  const known = new Set(abs.map(rel));
  const edges = new Map<string, string[]>();
  for (const file of abs) {
    const text = readFileSync(file, "utf8");
    const targets = new Set<string>();
    for (const m of text.matchAll(IMPORT)) {
      const spec = m[1] ?? m[2] ?? m[3];
      if (spec === undefined || !spec.startsWith(".")) continue;
      const target = rel(resolve(dirname(file), spec.replace(/\.js$/, ".ts")));
      if (known.has(target)) targets.add(target);
      else if (known.has(`${target}/index.ts`)) targets.add(`${target}/index.ts`);
    }
    edges.set(rel(file), [...targets].sort());
  }
  return { files: abs.map(rel), edges };
}

/** Strongly connected components with more than one file (or a file importing itself): the import circles. */
export function importCircles(g: ImportGraph): string[][] {
  // iterative Tarjan: the graph is small, but recursion depth would follow the longest import chain
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const circles: string[][] = [];
  let next = 0;
  for (const start of g.files) {
    if (index.has(start)) continue;
    const work: Array<{ v: string; i: number }> = [{ v: start, i: 0 }];
    index.set(start, next);
    low.set(start, next);
    next++;
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const top = work[work.length - 1]!;
      const succ = g.edges.get(top.v) ?? [];
      if (top.i < succ.length) {
        const w = succ[top.i++]!;
        if (!index.has(w)) {
          index.set(w, next);
          low.set(w, next);
          next++;
          stack.push(w);
          onStack.add(w);
          work.push({ v: w, i: 0 });
        } else if (onStack.has(w)) {
          low.set(top.v, Math.min(low.get(top.v)!, index.get(w)!));
        }
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1]!.v;
        low.set(parent, Math.min(low.get(parent)!, low.get(top.v)!));
      }
      if (low.get(top.v) === index.get(top.v)) {
        const component: string[] = [];
        let w: string;
        do {
          w = stack.pop()!;
          onStack.delete(w);
          component.push(w);
        } while (w !== top.v);
        if (component.length > 1 || (g.edges.get(top.v) ?? []).includes(top.v)) circles.push(component.sort());
      }
    }
  }
  return circles;
}

/** The top-level folder of a file (`schema` for `schema/nodes.ts`); files directly in the root are `.`. */
export function folderOf(file: string): string {
  const slash = file.indexOf("/");
  return slash < 0 ? "." : file.slice(0, slash);
}
