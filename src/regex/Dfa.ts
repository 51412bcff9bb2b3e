import { LimitExceededError } from "../errors.js";
import { ALL_SCALARS } from "../grammar/ranges.js";
import type { Deadline } from "../Deadline.js";
import { AUTOMATA_STAGE, type RegexNfa } from "./regexToNfa.js";

export { AUTOMATA_STAGE };

/**
 * A deterministic automaton over code points. `trans[s]` is a flat list [lo, hi, target, ...] of inclusive ranges,
 * sorted and disjoint; a code point outside every range rejects (the DFA may be partial).
 */
export interface Dfa {
  start: number;
  accept: boolean[];
  trans: number[][];
}

function limitError(max: number, path: string): LimitExceededError {
  return new LimitExceededError(
    "LIMIT_AUTOMATON_SIZE",
    `the string constraints need a deterministic automaton of more than ${max} states; simplify the patterns/format/length combination, or raise limits.maxAutomatonStates`,
    path,
  );
}

/** Appends [lo, hi, to] to a transition list, merging with the previous range when contiguous with the same target. */
function pushRange(out: number[], lo: number, hi: number, to: number): void {
  const n = out.length;
  if (n > 0 && out[n - 1] === to && out[n - 2] + 1 === lo) out[n - 2] = hi;
  else out.push(lo, hi, to);
}

/**
 * Subset construction. `^` edges fire only in the initial state; `$` edges only when deciding acceptance. A DFA
 * state is keyed by its NFA states that matter (those with code-point or `$` edges, and the final state), so pure
 * epsilon states do not make equal subsets look different. `deadline` (the compile's budget) counts the work.
 */
export function determinize(nfa: RegexNfa, maxStates: number, path: string, deadline?: Deadline): Dfa {
  const important = (s: number) => nfa.edges[s].length > 0 || nfa.atEnd[s].length > 0 || s === nfa.final;
  // generation-stamped visited marks: closures run once per DFA state and transition, so no per-call Set
  const mark = new Int32Array(nfa.eps.length);
  let gen = 0;
  const closure = (seeds: Iterable<number>, atStart: boolean, atEnd: boolean): number[] => {
    gen++;
    const out: number[] = [];
    const stack = [...seeds];
    while (stack.length) {
      const s = stack.pop()!;
      if (mark[s] === gen) continue;
      mark[s] = gen;
      if (important(s)) out.push(s);
      for (const t of nfa.eps[s]) stack.push(t);
      if (atStart) for (const t of nfa.atStart[s]) stack.push(t);
      if (atEnd) for (const t of nfa.atEnd[s]) stack.push(t);
    }
    return out.sort((a, b) => a - b);
  };
  const dfa: Dfa = { start: 0, accept: [], trans: [] };
  const ids = new Map<string, number>();
  const sets: number[][] = [];
  const intern = (set: number[], initial: boolean): number => {
    const key = (initial ? "i" : "") + set.join(",");
    let id = ids.get(key);
    if (id === undefined) {
      if (sets.length >= maxStates) throw limitError(maxStates, path);
      id = sets.length;
      ids.set(key, id);
      sets.push(set);
      dfa.accept.push(closure(set, initial, true).includes(nfa.final));
      dfa.trans.push([]);
    }
    return id;
  };
  dfa.start = intern(closure([nfa.start], true, false), true);
  for (let d = 0; d < sets.length; d++) {
    deadline?.tick(AUTOMATA_STAGE, path, 1 + sets[d].length);
    // sweep over range boundaries: each elementary interval gets the set of NFA targets covering it
    const events: number[] = []; // pos, delta(+1/-1), target  (flattened triples)
    for (const s of sets[d]) {
      for (const [ranges, to] of nfa.edges[s]) {
        for (let i = 0; i < ranges.length; i += 2) events.push(ranges[i], 1, to, ranges[i + 1] + 1, -1, to);
      }
    }
    if (events.length === 0) continue;
    const order: number[] = [];
    for (let i = 0; i < events.length; i += 3) order.push(i);
    order.sort((a, b) => events[a] - events[b]);
    const active = new Map<number, number>();
    const out: number[] = [];
    for (let k = 0; k < order.length; ) {
      const pos = events[order[k]];
      while (k < order.length && events[order[k]] === pos) {
        const i = order[k];
        const to = events[i + 2];
        const c = (active.get(to) ?? 0) + events[i + 1];
        if (c === 0) active.delete(to);
        else active.set(to, c);
        k++;
      }
      if (k >= order.length || active.size === 0) continue;
      const next = events[order[k]];
      const target = intern(closure(active.keys(), false, false), false);
      pushRange(out, pos, next - 1, target);
    }
    dfa.trans[d] = out;
  }
  return dfa;
}

/** The product automaton accepting the intersection of both languages. */
export function intersect(a: Dfa, b: Dfa, maxStates: number, path: string, deadline?: Deadline): Dfa {
  if (a.accept.length === 0) return a;
  if (b.accept.length === 0) return b;
  const out: Dfa = { start: 0, accept: [], trans: [] };
  const ids = new Map<number, number>();
  const pairs: [number, number][] = [];
  const nb = b.accept.length;
  const intern = (x: number, y: number): number => {
    const key = x * nb + y;
    let id = ids.get(key);
    if (id === undefined) {
      if (pairs.length >= maxStates) throw limitError(maxStates, path);
      id = pairs.length;
      ids.set(key, id);
      pairs.push([x, y]);
      out.accept.push(a.accept[x] && b.accept[y]);
      out.trans.push([]);
    }
    return id;
  };
  out.start = intern(a.start, b.start);
  for (let p = 0; p < pairs.length; p++) {
    const [x, y] = pairs[p];
    const ta = a.trans[x];
    const tb = b.trans[y];
    deadline?.tick(AUTOMATA_STAGE, path, 1 + (ta.length + tb.length) / 3);
    const res: number[] = [];
    let i = 0;
    let j = 0;
    while (i < ta.length && j < tb.length) {
      const lo = Math.max(ta[i], tb[j]);
      const hi = Math.min(ta[i + 1], tb[j + 1]);
      if (lo <= hi) pushRange(res, lo, hi, intern(ta[i + 2], tb[j + 2]));
      if (ta[i + 1] < tb[j + 1]) i += 3;
      else j += 3;
    }
    out.trans[p] = res;
  }
  return out;
}

/** The automaton of every string over the Unicode scalar values that `a` rejects. */
export function complement(a: Dfa): Dfa {
  const sink = a.accept.length;
  const trans: number[][] = [];
  for (let s = 0; s <= sink; s++) {
    const t = s === sink ? [] : a.trans[s];
    const res: number[] = [];
    // walk ALL_SCALARS segment by segment, filling gaps with the sink
    for (let g = 0; g < ALL_SCALARS.length; g += 2) {
      let next = ALL_SCALARS[g];
      const end = ALL_SCALARS[g + 1];
      for (let i = 0; i < t.length; i += 3) {
        if (t[i + 1] < next || t[i] > end) continue;
        if (t[i] > next) pushRange(res, next, t[i] - 1, sink);
        pushRange(res, Math.max(t[i], next), Math.min(t[i + 1], end), t[i + 2]);
        next = Math.min(t[i + 1], end) + 1;
      }
      if (next <= end) pushRange(res, next, end, sink);
    }
    trans.push(res);
  }
  return { start: a.start, accept: [...a.accept.map((x) => !x), true], trans };
}

/** Keeps only states reachable from the start that can reach an accepting state (the result may have 0 states). */
export function trim(a: Dfa): Dfa {
  const n = a.accept.length;
  if (n === 0) return a;
  const reach = new Uint8Array(n);
  const stack = [a.start];
  reach[a.start] = 1;
  const rev: number[][] = Array.from({ length: n }, () => []);
  while (stack.length) {
    const s = stack.pop()!;
    const t = a.trans[s];
    for (let i = 0; i < t.length; i += 3) {
      rev[t[i + 2]].push(s);
      if (!reach[t[i + 2]]) {
        reach[t[i + 2]] = 1;
        stack.push(t[i + 2]);
      }
    }
  }
  const live = new Uint8Array(n);
  for (let s = 0; s < n; s++) if (reach[s] && a.accept[s]) (live[s] = 1), stack.push(s);
  while (stack.length) {
    const s = stack.pop()!;
    for (const p of rev[s]) if (!live[p]) (live[p] = 1), stack.push(p);
  }
  if (!live[a.start]) return { start: 0, accept: [], trans: [] };
  const map = new Int32Array(n).fill(-1);
  let k = 0;
  // the start becomes state 0, the others keep their relative order (deterministic output)
  map[a.start] = k++;
  for (let s = 0; s < n; s++) if (live[s] && s !== a.start) map[s] = k++;
  const accept: boolean[] = new Array(k);
  const trans: number[][] = new Array(k);
  for (let s = 0; s < n; s++) {
    if (map[s] < 0) continue;
    const res: number[] = [];
    const t = a.trans[s];
    for (let i = 0; i < t.length; i += 3) if (map[t[i + 2]] >= 0) pushRange(res, t[i], t[i + 1], map[t[i + 2]]);
    accept[map[s]] = a.accept[s];
    trans[map[s]] = res;
  }
  return { start: 0, accept, trans };
}

export function isEmpty(a: Dfa): boolean {
  return trim(a).accept.length === 0;
}

/**
 * Trim, then merge equivalent states: Hopcroft's partition refinement over the automaton's symbol classes (the
 * elementary intervals between all range boundaries), O(k·n·log n) for k classes.
 */
export function minimize(input: Dfa, deadline?: Deadline, path = ""): Dfa {
  const a = trim(input);
  const n = a.accept.length;
  if (n === 0) return a;
  // symbol classes
  const cuts = new Set<number>();
  for (const t of a.trans) for (let i = 0; i < t.length; i += 3) cuts.add(t[i]), cuts.add(t[i + 1] + 1);
  const bounds = [...cuts].sort((x, y) => x - y);
  const k = Math.max(bounds.length - 1, 0);
  const classOf = (cp: number): number => {
    let lo = 0;
    let hi = bounds.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (bounds[mid] <= cp) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  };
  // total transition table with an explicit dead state `n`
  const N = n + 1;
  deadline?.tick(AUTOMATA_STAGE, path, N * (k + 1));
  const delta = new Int32Array(N * k).fill(n);
  for (let s = 0; s < n; s++) {
    const t = a.trans[s];
    for (let i = 0; i < t.length; i += 3) {
      const c0 = classOf(t[i]);
      const c1 = classOf(t[i + 1]);
      for (let c = c0; c <= c1; c++) delta[s * k + c] = t[i + 2];
    }
  }
  // inverse transitions, CSR per (class, target)
  const invCount = new Int32Array(k * N + 1);
  for (let s = 0; s < N; s++) for (let c = 0; c < k; c++) invCount[c * N + delta[s * k + c] + 1]++;
  for (let i = 1; i <= k * N; i++) invCount[i] += invCount[i - 1];
  const invStart = invCount.slice();
  const inv = new Int32Array(N * k);
  const fill = invCount.slice();
  for (let s = 0; s < N; s++) for (let c = 0; c < k; c++) inv[fill[c * N + delta[s * k + c]]++] = s;
  // partition: elems ordered by block, each block a [start, end) slice
  const elems = new Int32Array(N);
  const pos = new Int32Array(N);
  const blockOf = new Int32Array(N);
  const bStart: number[] = [];
  const bEnd: number[] = [];
  let e = 0;
  for (const acc of [true, false]) {
    const b = bStart.length;
    bStart.push(e);
    for (let s = 0; s < N; s++) if ((s < n && a.accept[s]) === acc) (elems[e] = s), (pos[s] = e), (blockOf[s] = b), e++;
    bEnd.push(e);
    if (bEnd[b] === bStart[b]) bStart.pop(), bEnd.pop();
  }
  const work: number[] = [];
  const inWork: boolean[] = [];
  for (let b = 0; b < bStart.length; b++) work.push(b), (inWork[b] = true);
  const marked: number[] = [];
  const touched: number[] = [];
  while (work.length) {
    const A = work.pop()!;
    inWork[A] = false;
    const members = Array.from(elems.subarray(bStart[A], bEnd[A]));
    deadline?.tick(AUTOMATA_STAGE, path, 1 + members.length * k);
    for (let c = 0; c < k; c++) {
      for (const t of members) {
        for (let i = invStart[c * N + t]; i < invStart[c * N + t + 1]; i++) {
          const s = inv[i];
          const b = blockOf[s];
          const m = marked[b] ?? 0;
          if (pos[s] < bStart[b] + m) continue; // already marked
          if (m === 0) touched.push(b);
          // move s to the marked prefix of its block
          const j = bStart[b] + m;
          const other = elems[j];
          elems[j] = s;
          elems[pos[s]] = other;
          pos[other] = pos[s];
          pos[s] = j;
          marked[b] = m + 1;
        }
      }
      for (const b of touched) {
        const m = marked[b];
        marked[b] = 0;
        if (m === bEnd[b] - bStart[b]) continue;
        const nb = bStart.length;
        bStart.push(bStart[b]);
        bEnd.push(bStart[b] + m);
        bStart[b] += m;
        for (let i = bStart[nb]; i < bEnd[nb]; i++) blockOf[elems[i]] = nb;
        if (inWork[b]) work.push(nb), (inWork[nb] = true);
        else {
          const smaller = bEnd[nb] - bStart[nb] <= bEnd[b] - bStart[b] ? nb : b;
          work.push(smaller);
          inWork[smaller] = true;
        }
      }
      touched.length = 0;
    }
  }
  const dead = blockOf[n];
  const count = bStart.length;
  const accept: boolean[] = new Array(count).fill(false);
  const trans: number[][] = Array.from({ length: count }, () => []);
  for (let b = 0; b < count; b++) {
    if (b === dead) continue;
    const s = elems[bStart[b]];
    accept[b] = a.accept[s];
    const res: number[] = [];
    for (let c = 0; c < k; c++) {
      const to = blockOf[delta[s * k + c]];
      if (to !== dead) pushRange(res, bounds[c], bounds[c + 1] - 1, to);
    }
    trans[b] = res;
  }
  return trim({ start: blockOf[a.start], accept, trans });
}

/** Whether the DFA accepts `text` (code point by code point). */
export function dfaAccepts(a: Dfa, text: string): boolean {
  if (a.accept.length === 0) return false;
  let s = a.start;
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    const t = a.trans[s];
    let next = -1;
    for (let i = 0; i < t.length; i += 3) {
      if (cp >= t[i] && cp <= t[i + 1]) {
        next = t[i + 2];
        break;
      }
    }
    if (next < 0) return false;
    s = next;
  }
  return a.accept[s];
}

/**
 * The shortest and longest accepted lengths (in code points); `max` is Infinity when a cycle is reachable on an
 * accepting path. Null for the empty language.
 */
export function lengthRange(input: Dfa): { min: number; max: number } | null {
  const a = trim(input);
  const n = a.accept.length;
  if (n === 0) return null;
  // shortest: BFS
  const dist = new Int32Array(n).fill(-1);
  dist[a.start] = 0;
  const queue = [a.start];
  let min = -1;
  for (let q = 0; q < queue.length; q++) {
    const s = queue[q];
    if (a.accept[s] && min < 0) min = dist[s];
    const t = a.trans[s];
    for (let i = 0; i < t.length; i += 3) if (dist[t[i + 2]] < 0) (dist[t[i + 2]] = dist[s] + 1), queue.push(t[i + 2]);
  }
  // longest: every state of a trimmed DFA lies on an accepting path, so any cycle makes it unbounded
  const longest = new Float64Array(n).fill(-1);
  const state = new Uint8Array(n); // 0 new, 1 on stack, 2 done
  const stack: [number, number][] = [[a.start, 0]];
  state[a.start] = 1;
  while (stack.length) {
    const top = stack[stack.length - 1];
    const [s, i] = top;
    const t = a.trans[s];
    if (i < t.length) {
      top[1] += 3;
      const to = t[i + 2];
      if (state[to] === 1) return { min, max: Infinity };
      if (state[to] === 0) (state[to] = 1), stack.push([to, 0]);
      continue;
    }
    let best = a.accept[s] ? 0 : -Infinity;
    for (let j = 0; j < t.length; j += 3) best = Math.max(best, longest[t[j + 2]] + 1);
    longest[s] = best;
    state[s] = 2;
    stack.pop();
  }
  return { min, max: longest[a.start] };
}
