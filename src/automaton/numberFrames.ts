import type { BuiltFrame } from "./builtFrames.js";
import { grow } from "./csrColumns.js";
import type { Nfa } from "./Nfa.js";

/** Numbers the unvisited targets of state q's edges (CSR `starts`/`tos`) into frame f from `k` on; returns the next number. */
function enqueueTargets(
  starts: Int32Array,
  tos: Int32Array,
  q: number,
  f: number,
  k: number,
  frame: Int32Array,
  canon: Int32Array,
  queue: number[],
): number {
  for (let e = starts[q]; e < starts[q + 1]; e++) {
    const t = tos[e];
    if (frame[t] < 0) {
      frame[t] = f;
      canon[t] = k++;
      queue.push(t);
    }
  }
  return k;
}

/**
 * Assign each state its frame and a breadth-first index from the frame's start (edges in construction order), which
 * is the same for two frames built from the same structure. A frame with calls or atoms loses its key.
 */
export function numberFrames(
  nfa: Nfa,
  fromState: number,
  started: readonly number[],
  copied: ReadonlyMap<number, BuiltFrame>,
): void {
  const n = nfa.stateCount;
  const frame = grow(nfa.stateFrame, n);
  const canon = grow(nfa.stateCanon, n);
  frame.fill(-1, fromState, n);
  canon.fill(-1, fromState, n);
  // only frames started since the last numbering (their states are all new: a frame's states are made together)
  for (const f of started) {
    const start = nfa.frameStart[f];
    const copy = copied.get(f)?.canon;
    if (copy !== undefined) {
      // a copy of a recorded build: the same states and edges in the same order, so the same numbering (and pure)
      for (let k = 0; k < copy.length; k++) {
        canon[start + k] = copy[k];
        if (copy[k] >= 0) frame[start + k] = f;
      }
      continue;
    }
    let k = 0;
    const queue = [start];
    frame[start] = f;
    canon[start] = k++;
    let pure = true;
    // breadth-first over byte, epsilon, call-return and atom edges, in that order (a plain function, not a closure
    // per state: this runs for every NFA state)
    for (let h = 0; h < queue.length; h++) {
      const q = queue[h];
      k = enqueueTargets(nfa.byteStart, nfa.byteTo, q, f, k, frame, canon, queue);
      k = enqueueTargets(nfa.epsStart, nfa.epsTo, q, f, k, frame, canon, queue);
      if (nfa.callStart[q] < nfa.callStart[q + 1] || nfa.atomStart[q] < nfa.atomStart[q + 1]) pure = false;
      k = enqueueTargets(nfa.callStart, nfa.callTo, q, f, k, frame, canon, queue);
      k = enqueueTargets(nfa.atomStart, nfa.atomTo, q, f, k, frame, canon, queue);
    }
    if (!pure) nfa.frameKey[f] = undefined;
    nfa.statesNumbered += queue.length;
  }
  nfa.stateFrame = frame;
  nfa.stateCanon = canon;
}
