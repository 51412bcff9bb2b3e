import type { Deadline } from "../Deadline.js";
import { AUTOMATA_STAGE, type Dfa } from "./Dfa.js";

/** Where a segment ends: at a hub (its state number) or at the end of the string. */
export const END = -1;

/** A path from a hub through non-hub states: to hub `to` (or END), `len` code points long. */
export interface Segment {
  to: number;
  len: number;
}

const succCache = new WeakMap<Dfa, number[][]>();

/** The distinct target states of `s`'s transitions (cached per automaton: hub choice asks many times). */
export function targets(a: Dfa, s: number): number[] {
  let all = succCache.get(a);
  if (!all) succCache.set(a, (all = a.trans.map((_, q) => distinctTargets(a, q))));
  return all[s];
}

function distinctTargets(a: Dfa, s: number): number[] {
  const t = a.trans[s];
  const out: number[] = [];
  for (let i = 0; i < t.length; i += 3) if (!out.includes(t[i + 2])) out.push(t[i + 2]);
  return out;
}

/** The distinct (next hub or END, length) pairs of the paths from `h` through non-hub states. */
export function segmentsFrom(
  a: Dfa,
  isHub: Uint8Array,
  h: number,
  deadline: Deadline | undefined,
  path: string,
): Segment[] {
  const seen = new Set<number>();
  const pairs = new Set<number>();
  const n = a.accept.length;
  // (state, depth) and (target, length) packed into one number: depth < n (non-hub paths are acyclic)
  const stack = [h * (n + 1)];
  seen.add(h * (n + 1));
  while (stack.length) {
    const key = stack.pop()!;
    const q = Math.floor(key / (n + 1));
    const d = key % (n + 1);
    deadline?.tick(AUTOMATA_STAGE, path);
    if (a.accept[q] && d > 0) pairs.add(0 * (n + 2) + d);
    for (const t of targets(a, q)) {
      if (isHub[t]) pairs.add((t + 1) * (n + 2) + d + 1);
      else if (!seen.has(t * (n + 1) + d + 1)) seen.add(t * (n + 1) + d + 1), stack.push(t * (n + 1) + d + 1);
    }
  }
  return [...pairs].sort((x, y) => x - y).map((p) => ({ to: Math.floor(p / (n + 2)) - 1, len: p % (n + 2) }));
}
