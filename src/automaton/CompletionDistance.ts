import type { Automaton } from "./Automaton.js";

const INF = 0x3fffffff;

/**
 * How far each automaton configuration is from a complete match, in symbols: one byte, or one special token, each.
 *
 * With a vocabulary that has a single-byte token for every byte value (byte-level BPE: Qwen, Llama 3, GPT-2), a
 * distance of d symbols can always be closed in at most d tokens — the single-byte tokens along the shortest path
 * are all allowed by the mask — so it is an upper bound on the tokens still needed. Token budgets rest on that.
 *
 * Per NFA state q, d(q) is the fewest symbols from q to the end of q's rule, where a call costs the callee's
 * shortest derivation (d of its start state) and then continues at the return state. That is a least fixed point
 * over non-negative integers; a worklist relaxes it (a state is revisited only when a successor's value, or a
 * callee's length, dropped). A stack's distance is the sum over its frames (each frame's R-state is where that rule
 * stands, the caller frames where they resume); a configuration's is the least over its stacks.
 */
export class CompletionDistance {
  private readonly automaton: Automaton;
  private readonly dist: Int32Array;
  private readonly byStack = new Map<number, number>();
  private readonly byConfig: number[] = [];

  /** `atomAvailable[a]`: the vocabulary has the special token of atom `a` (else only its text spelling counts). */
  constructor(automaton: Automaton, atomAvailable: readonly boolean[]) {
    this.automaton = automaton;
    // distances are a fixed point over every state: lazy frames are built first (token budgets give up laziness)
    automaton.buildAll();
    this.dist = stateDistances(automaton, atomAvailable);
  }

  /** Fewest symbols that complete the output from configuration `c`; Infinity for a dead configuration. */
  ofConfig(c: number): number {
    if (c < 0) return Infinity;
    const known = this.byConfig[c];
    if (known !== undefined) return known;
    let best = INF;
    for (const st of this.automaton.stacksOf(c)) best = Math.min(best, this.ofStack(st));
    const r = best >= INF ? Infinity : best;
    this.byConfig[c] = r;
    return r;
  }

  private ofStack(st: number): number {
    // iterative over the frames: stacks can be as deep as the output's nesting
    let total = 0;
    const pending: number[] = [];
    let s = st;
    for (; s >= 0; s = this.automaton.stackParent(s)) {
      const known = this.byStack.get(s);
      if (known !== undefined) {
        total = known;
        break;
      }
      pending.push(s);
    }
    for (let i = pending.length - 1; i >= 0; i--) {
      let frame = INF;
      for (const q of this.automaton.rsStates(this.automaton.stackTop(pending[i])))
        frame = Math.min(frame, this.dist[q]);
      total = Math.min(INF, total + frame);
      this.byStack.set(pending[i], total);
    }
    return total;
  }
}

/** d(q) for every NFA state (see CompletionDistance). */
function stateDistances(automaton: Automaton, atomAvailable: readonly boolean[]): Int32Array {
  const n = automaton.nfa;
  const N = n.stateCount;
  const d = new Int32Array(N).fill(INF);
  // predecessors: who must be relaxed again when d(q) drops
  const preds: number[][] = [];
  const callers: number[][] = n.frameStart.map(() => []);
  const addPred = (to: number, from: number): void => {
    (preds[to] ??= []).push(from);
  };
  for (let q = 0; q < N; q++) {
    for (let k = n.byteStart[q]; k < n.byteStart[q + 1]; k++) addPred(n.byteTo[k], q);
    for (let k = n.epsStart[q]; k < n.epsStart[q + 1]; k++) addPred(n.epsTo[k], q);
    for (let k = n.atomStart[q]; k < n.atomStart[q + 1]; k++) addPred(n.atomTo[k], q);
    for (let k = n.callStart[q]; k < n.callStart[q + 1]; k++) {
      addPred(n.callTo[k], q);
      callers[n.callRule[k]].push(q);
    }
  }
  const framesOfStart = new Map<number, number[]>();
  n.frameStart.forEach((s, f) => {
    if (s >= 0) framesOfStart.set(s, [...(framesOfStart.get(s) ?? []), f]);
  });

  const relax = (q: number): number => {
    let best = n.isEnd[q] ? 0 : INF;
    for (let k = n.byteStart[q]; k < n.byteStart[q + 1]; k++) best = Math.min(best, 1 + d[n.byteTo[k]]);
    for (let k = n.epsStart[q]; k < n.epsStart[q + 1]; k++) best = Math.min(best, d[n.epsTo[k]]);
    for (let k = n.atomStart[q]; k < n.atomStart[q + 1]; k++)
      if (atomAvailable[n.atomIdx[k]]) best = Math.min(best, 1 + d[n.atomTo[k]]);
    for (let k = n.callStart[q]; k < n.callStart[q + 1]; k++) {
      const s = n.frameStart[n.callRule[k]];
      if (s >= 0) best = Math.min(best, d[s] + d[n.callTo[k]]);
    }
    return Math.min(best, INF);
  };

  const queued = new Uint8Array(N);
  const work: number[] = [];
  for (let q = N - 1; q >= 0; q--) {
    work.push(q);
    queued[q] = 1;
  }
  while (work.length > 0) {
    const q = work.pop()!;
    queued[q] = 0;
    const v = relax(q);
    if (v >= d[q]) continue;
    d[q] = v;
    const push = (p: number): void => {
      if (!queued[p]) {
        queued[p] = 1;
        work.push(p);
      }
    };
    for (const p of preds[q] ?? []) push(p);
    for (const f of framesOfStart.get(q) ?? []) for (const p of callers[f]) push(p);
  }
  return d;
}
