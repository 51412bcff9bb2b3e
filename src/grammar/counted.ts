import type { Counted, CountedState, GExpr } from "./Grammar.js";

/**
 * Live (state, length) pairs of a counted automaton, for lengths 0..max: `live[c * states + q]` is 1 when, in state
 * `q` after `c` characters, some continuation ends in an accepting state at a length within [min, max]. Every
 * consumer (the token automaton, the sampler, the acceptor) follows only live pairs, so no prefix it allows is a dead
 * end. Per (states, min, max): the sampler, the acceptor and the automaton of one node share the table.
 */
export function countedLive(e: Counted): Uint8Array {
  let byBounds = liveTables.get(e.states);
  if (byBounds === undefined) liveTables.set(e.states, (byBounds = new Map()));
  const key = `${e.min},${e.max}`;
  let live = byBounds.get(key);
  if (live === undefined) byBounds.set(key, (live = computeLive(e.states, e.min, e.max)));
  return live;
}

const liveTables = new WeakMap<readonly CountedState[], Map<string, Uint8Array>>();

/** (state, length) pairs a counted node may hold at most: its live table's size. */
export const MAX_COUNTED_CELLS = 8_000_000;

function computeLive(states: readonly CountedState[], min: number, max: number): Uint8Array {
  const n = states.length;
  const live = new Uint8Array(n * (max + 1));
  for (let c = max; c >= 0; c--) {
    const row = c * n;
    for (let q = 0; q < n; q++) {
      const s = states[q];
      if (s.accept && c >= min) {
        live[row + q] = 1;
        continue;
      }
      for (const edge of s.edges) {
        const c2 = c + edge.len;
        if (c2 <= max && live[c2 * n + edge.to]) {
          live[row + q] = 1;
          break;
        }
      }
    }
  }
  return live;
}

/** `e` with every label mapped by `f` (itself when none changes): passes that respell characters reach inside. */
export function mapCountedLabels(e: Counted, f: (label: GExpr) => GExpr): Counted {
  let changed = false;
  const states = e.states.map((s) => {
    const edges = s.edges.map((edge) => {
      const label = f(edge.label);
      if (label !== edge.label) changed = true;
      return label === edge.label ? edge : { label, len: edge.len, to: edge.to };
    });
    return { accept: s.accept, edges };
  });
  return changed ? { ...e, states } : e;
}

/** Whether the counted node matches the empty string. */
export function countedNullable(e: Counted): boolean {
  return e.min === 0 && e.states[e.start].accept;
}

/** Whether the counted node matches some string. */
export function countedProductive(e: Counted): boolean {
  return countedLive(e)[e.start] === 1;
}

/**
 * The live (state, length) pairs reachable from the start, and their edges into live pairs: what the token automaton
 * builds for the node (one NFA state per pair, its labels between them). The lowering bounds it at compile.
 */
export function countedReach(e: Counted, edgeWeight: (label: GExpr) => number): { pairs: number; weight: number } {
  const live = countedLive(e);
  const n = e.states.length;
  const reached = new Uint8Array(n * (e.max + 1));
  reached[e.start] = 1;
  let pairs = 0;
  let weight = 0;
  for (let c = 0; c <= e.max; c++) {
    for (let q = 0; q < n; q++) {
      if (reached[c * n + q] === 0) continue;
      pairs++;
      for (const edge of e.states[q].edges) {
        const c2 = c + edge.len;
        if (c2 > e.max || live[c2 * n + edge.to] === 0) continue;
        weight += edgeWeight(edge.label);
        reached[c2 * n + edge.to] = 1;
      }
    }
  }
  return { pairs, weight: pairs + weight };
}
