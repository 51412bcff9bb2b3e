import { countedLive } from "../grammar/counted.js";
import type { Counted, GExpr } from "../grammar/Grammar.js";
import { isStep } from "./exprShape.js";
import type { NfaBuilder } from "./NfaBuilder.js";

/**
 * The Thompson construction of a counted node between `from` and `to`: a call to a lazy frame of the whole node,
 * built when a decoding first enters it (a tool's URL argument costs nothing until a call reaches it); that frame has
 * a state per live (automaton state, length) pair reachable from the start, an edge per label between them (only into
 * live pairs, so no prefix is a dead end) and an empty edge into its end wherever a word may end. Built whole, not a
 * chunk of lengths at a time: chunks need a frame per state at each chunk's end, and a token crossing it entered the
 * frames of every state it could end in, each building its own chunk (the same pairs again, for every state: past
 * 1,600,000 states along one URL under a real vocabulary). Whole, the states are the product's reachable pairs, which
 * the lowering counts and bounds at compile (`countedReach`), so no decoding finds a limit there.
 */
export function stepCounted(b: NfaBuilder, e: Counted, from: number, to: number): void {
  if (!wholeBodies.has(e)) {
    b.calls.add(from, b.lazyFrame(wholeBody(e)), 0, to);
    return;
  }
  const live = countedLive(e);
  const n = e.states.length;
  // pairs by length, in increasing order (an edge reads at least one character, so lengths only grow)
  const at = new Map<number, number>([[e.start, from]]);
  // each label's frame once per node, not its structural key once per edge (a URI: 215,000 edges)
  const frames = new Map<GExpr, number>();
  const frameOf = (label: GExpr): number => {
    let fi = frames.get(label);
    if (fi === undefined) frames.set(label, (fi = b.itemFrame(label)));
    return fi;
  };
  const steps = new Map<GExpr, boolean>();
  const step = (label: GExpr): boolean => {
    let s = steps.get(label);
    if (s === undefined) steps.set(label, (s = isStep(label)));
    return s;
  };
  for (let c = 0; c <= e.max; c++) {
    for (let q = 0; q < n; q++) {
      const s = at.get(c * n + q);
      if (s === undefined) continue;
      const st = e.states[q];
      if (st.accept && c >= e.min) b.eps.add(s, 0, 0, to);
      for (const edge of st.edges) {
        const c2 = c + edge.len;
        if (c2 > e.max || live[c2 * n + edge.to] === 0) continue;
        let t = at.get(c2 * n + edge.to);
        if (t === undefined) at.set(c2 * n + edge.to, (t = b.newState()));
        // a path between loop states (an IPv6 literal) is one frame, called from every length it starts at
        if (step(edge.label)) b.sub(edge.label, s, t);
        else b.calls.add(s, frameOf(edge.label), 0, t);
      }
    }
  }
}

/** The bodies of the lazy frames: the node itself, marked as the one to build whole. */
const wholeBodies = new WeakSet<Counted>();
const bodyOf = new WeakMap<Counted, Counted>();

function wholeBody(e: Counted): Counted {
  let body = bodyOf.get(e);
  if (body === undefined) {
    body = { ...e };
    bodyOf.set(e, body);
    wholeBodies.add(body);
  }
  return body;
}
