import { countedLive } from "../grammar/counted.js";
import type { Counted, CountedState } from "../grammar/Grammar.js";
import { COUNT_CHUNK } from "./frameRules.js";
import type { NfaBuilder } from "./NfaBuilder.js";


/**
 * The Thompson construction of a counted node between `from` and `to`: a state per live (automaton state, length)
 * pair of the next COUNT_CHUNK lengths, an edge per label between them (only into live pairs, so no prefix is a dead
 * end), an empty edge into `to` wherever a word may end, and at the chunk's end a call per state reached to the lazy
 * frame of the rest, returning into `to`. Lengths only grow, so no edge enters `from` and only empty ones enter `to`.
 */
export function stepCounted(b: NfaBuilder, e: Counted, from: number, to: number): void {
  const live = countedLive(e);
  const n = e.states.length;
  const end = Math.min(e.max, e.read + COUNT_CHUNK);
  let cur = new Map<number, number>([[e.start, from]]);
  for (let c = e.read; cur.size > 0; c++) {
    const next = new Map<number, number>();
    for (const [q, s] of cur) {
      const st = e.states[q];
      if (st.accept && c >= e.min) b.eps.add(s, 0, 0, to);
      if (c === e.max) continue;
      if (c === end) {
        b.calls.add(s, b.lazyFrame(restOf(e, q, c)), 0, to);
        continue;
      }
      const row = (c + 1) * n;
      for (const edge of st.edges) {
        if (live[row + edge.to] === 0) continue;
        let t = next.get(edge.to);
        if (t === undefined) next.set(edge.to, (t = b.newState()));
        b.sub(edge.label, s, t);
      }
    }
    if (c === end) break;
    cur = next;
  }
}

/** The rests of counted nodes, by automaton: one object per (state, length, bounds), so that lazy frames are shared. */
const rests = new WeakMap<readonly CountedState[], Map<string, Counted>>();

function restOf(e: Counted, q: number, c: number): Counted {
  let byKey = rests.get(e.states);
  if (byKey === undefined) rests.set(e.states, (byKey = new Map()));
  const key = `${q},${c},${e.min},${e.max}`;
  let rest = byKey.get(key);
  if (rest === undefined) byKey.set(key, (rest = { ...e, start: q, read: c }));
  return rest;
}
