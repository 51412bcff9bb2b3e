import type { Deadline } from "../Deadline.js";
import { AUTOMATA_STAGE, type Dfa } from "./Dfa.js";
import { segmentsFrom, targets } from "./hubSegments.js";

/** Hub choice: candidate hubs tried per round, and rounds (the cost is recomputed for each candidate). */
const HUB_CANDIDATES = 8;
const HUB_ROUNDS = 24;

/**
 * Hubs: the start, then a feedback vertex set (each cycle among non-hubs broken at a state with a self-loop or the
 * most edges inside its component), then, greedily, states whose turning into a hub lowers the number of hub
 * segments (merge points such as the end of an IPv6 literal, where every literal length meets every way on).
 */
export function chooseHubs(a: Dfa, deadline: Deadline | undefined, path: string): number[] {
  const n = a.accept.length;
  const isHub = new Uint8Array(n);
  isHub[a.start] = 1;
  const succ = Array.from({ length: n }, (_, s) => targets(a, s));
  for (;;) {
    deadline?.tick(AUTOMATA_STAGE, path, n);
    const comp = sccs(succ, isHub);
    let best = -1;
    let bestScore = -1;
    for (let v = 0; v < n; v++) {
      if (isHub[v]) continue;
      const inner = succ[v].filter((w) => !isHub[w] && comp[w] === comp[v]).length;
      const self = succ[v].includes(v);
      if (inner === 0) continue;
      const score = (self ? n * n : 0) + inner;
      if (score > bestScore) (bestScore = score), (best = v);
    }
    if (best < 0) break;
    isHub[best] = 1;
  }
  const segCount = (h: number): number => segmentsFrom(a, isHub, h, deadline, path).length;
  const cost = (): number => {
    let total = 0;
    for (let h = 0; h < n; h++) if (isHub[h]) total += 1 + segCount(h);
    return total;
  };
  let current = cost();
  for (let round = 0; round < HUB_ROUNDS; round++) {
    // a state reached in many ways (hub, length) multiplies the segments passing through it: as a hub, it has its
    // own segments instead (about in + out rather than in × out); the real count decides. Two rankings give the
    // candidates: by ways in, and by the estimated saving (hubs reaching it × its own segments: the entry of a
    // region of many lengths, such as the `[` before an IPv6 literal, is reached in few ways but merges many)
    const ways = new Int32Array(n);
    const sources = new Int32Array(n);
    for (let h = 0; h < n; h++) if (isHub[h]) countWays(a, isHub, h, ways, sources);
    const open = [...Array(n).keys()].filter((v) => !isHub[v] && ways[v] > 1);
    const byWays = [...open].sort((x, y) => ways[y] - ways[x]).slice(0, HUB_CANDIDATES);
    const saving = new Map<number, number>();
    for (const v of open) {
      const out = segmentsFrom(a, isHub, v, deadline, path).length;
      saving.set(v, sources[v] * out - ways[v] - out);
    }
    const bySaving = [...open].sort((x, y) => saving.get(y)! - saving.get(x)!).slice(0, HUB_CANDIDATES);
    let bestV = -1;
    let bestCost = current;
    for (const v of new Set([...bySaving, ...byWays])) {
      isHub[v] = 1;
      const c = cost();
      isHub[v] = 0;
      if (c < bestCost) (bestCost = c), (bestV = v);
    }
    if (bestV < 0) break;
    isHub[bestV] = 1;
    current = bestCost;
  }
  const out: number[] = [];
  for (let v = 0; v < n; v++) if (isHub[v]) out.push(v);
  return out;
}

/**
 * Adds to `ways[q]` the number of distinct lengths at which hub `h` reaches non-hub `q`, and 1 to `sources[q]` when
 * `h` reaches it at all.
 */
function countWays(a: Dfa, isHub: Uint8Array, h: number, ways: Int32Array, sources: Int32Array): void {
  const n = a.accept.length;
  const seen = new Set<number>([h * (n + 1)]);
  const reached = new Set<number>();
  const stack = [h * (n + 1)];
  while (stack.length) {
    const key = stack.pop()!;
    const q = Math.floor(key / (n + 1));
    const d = key % (n + 1);
    for (const t of targets(a, q)) {
      const k2 = t * (n + 1) + d + 1;
      if (isHub[t] || seen.has(k2)) continue;
      seen.add(k2);
      ways[t]++;
      if (!reached.has(t)) reached.add(t), sources[t]++;
      stack.push(k2);
    }
  }
}

/** Strongly connected components of the non-hub states (iterative Tarjan); hubs get -1. */
function sccs(succ: number[][], isHub: Uint8Array): Int32Array {
  const n = succ.length;
  const index = new Int32Array(n).fill(-1);
  const low = new Int32Array(n);
  const onStack = new Uint8Array(n);
  const comp = new Int32Array(n).fill(-1);
  const stack: number[] = [];
  let next = 0;
  let count = 0;
  for (let root = 0; root < n; root++) {
    if (isHub[root] || index[root] >= 0) continue;
    const work: [number, number][] = [[root, 0]];
    index[root] = low[root] = next++;
    stack.push(root);
    onStack[root] = 1;
    while (work.length) {
      const top = work[work.length - 1];
      const [v, i] = top;
      if (i < succ[v].length) {
        top[1]++;
        const w = succ[v][i];
        if (isHub[w]) continue;
        if (index[w] < 0) {
          index[w] = low[w] = next++;
          stack.push(w);
          onStack[w] = 1;
          work.push([w, 0]);
        } else if (onStack[w]) low[v] = Math.min(low[v], index[w]);
        continue;
      }
      work.pop();
      if (work.length) low[work[work.length - 1][0]] = Math.min(low[work[work.length - 1][0]], low[v]);
      if (low[v] === index[v]) {
        for (;;) {
          const w = stack.pop()!;
          onStack[w] = 0;
          comp[w] = count;
          if (w === v) break;
        }
        count++;
      }
    }
  }
  return comp;
}
