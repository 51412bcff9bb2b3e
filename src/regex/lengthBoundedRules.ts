import { rangesByTarget } from "./rangesByTarget.js";
import type { Deadline } from "../Deadline.js";
import { LimitExceededError } from "../errors.js";
import type { GExpr } from "../grammar/Grammar.js";
import { alt, cls, EPSILON, NOTHING, ref, seq } from "../grammar/build.js";
import { AUTOMATA_STAGE, type Dfa, trim } from "./Dfa.js";

/** Where a segment ends: at a hub (its state number) or at the end of the string. */
const END = -1;

/** A path from a hub through non-hub states: to hub `to` (or END), `len` code points long. */
interface Segment {
  to: number;
  len: number;
}

/** Hub choice: candidate hubs tried per round, and rounds (the cost is recomputed for each candidate). */
const HUB_CANDIDATES = 8;
const HUB_ROUNDS = 24;

/**
 * The strings of `input`'s language whose length lies in [min, max] (max undefined: at least `min`), as grammar
 * rules added to `rules`; returns the reference to the start rule (NOTHING for the empty language).
 *
 * The product of the automaton with a length counter has a state per (state, length) pair: 179 states × 2,049
 * lengths for `format: uri` under `maxLength: 2048`. Most of those states only carry the counter through parts of
 * the automaton that cannot loop (an IPv6 literal's 150 states are a DAG between two loops). So only "hubs" carry
 * the counter: the start and a feedback vertex set (every cycle passes a hub), chosen to keep the number of
 * distinct (next hub, length) pairs small. A hub rule per (hub, length so far) chooses a segment — the strings of
 * one exact length from the hub through non-hub states into the next hub, a counter-free rule shared by every
 * length — and continues with the next hub's rule at the new length. Exact: a string's path through the automaton
 * splits at its hubs into segments, each counted once. Throws LIMIT_AUTOMATON_SIZE when the hub rules would exceed
 * `maxRules`. `mapClass` rewrites each class (e.g. into JSON spellings).
 */
export function lengthBoundedRules(
  input: Dfa,
  min: number,
  max: number | undefined,
  rules: Map<string, GExpr>,
  prefix: string,
  mapClass: (e: GExpr) => GExpr,
  maxRules: number,
  path: string,
  deadline?: Deadline,
): GExpr {
  const a = trim(input);
  if (a.accept.length === 0) return NOTHING;
  const cap = max ?? min;
  const hubs = chooseHubs(a, deadline, path);
  if (hubs.length * (cap + 1) > maxRules) {
    throw new LimitExceededError(
      "LIMIT_AUTOMATON_SIZE",
      `a length bound of ${cap} over an automaton with ${hubs.length} loop states needs more than ${maxRules} rules; lower the bound or raise limits.maxAutomatonStates`,
      path,
    );
  }
  const isHub = new Uint8Array(a.accept.length);
  for (const h of hubs) isHub[h] = 1;
  const segs = new Map<number, Segment[]>();
  for (const h of hubs) segs.set(h, segmentsFrom(a, isHub, h, deadline, path));
  // each hub rule has one alternative per segment: their total is the grammar's size, bounded like the states
  let perLength = 0;
  for (const s of segs.values()) perLength += 1 + s.length;
  if (perLength * (cap + 1) > maxRules) {
    throw new LimitExceededError(
      "LIMIT_AUTOMATON_SIZE",
      `a length bound of ${cap} over an automaton with ${hubs.length} loop states needs about ${perLength * (cap + 1)} rule alternatives, more than ${maxRules}; lower the bound or raise limits.maxAutomatonStates`,
      path,
    );
  }

  // live[h][c]: some completion from hub h after c code points ends with a length in [min, max]
  const next = (c: number, len: number): number => (max === undefined ? Math.min(c + len, cap) : c + len);
  const fits = (c: number, len: number): boolean => max === undefined || c + len <= max;
  const live = new Map<number, Uint8Array>();
  for (const h of hubs) live.set(h, new Uint8Array(cap + 1));
  for (let c = cap; c >= 0; c--) {
    for (let pass = 0; pass < (max === undefined && c === cap ? hubs.length : 1); pass++) {
      // at the saturated count (no maximum) hubs depend on each other at the same count: iterate to the fixed point
      for (const h of hubs) {
        deadline?.tick(AUTOMATA_STAGE, path, 1 + segs.get(h)!.length);
        const lv = live.get(h)!;
        if (lv[c]) continue;
        if (a.accept[h] && c >= min) lv[c] = 1;
        for (const s of segs.get(h)!) {
          if (lv[c] || !fits(c, s.len)) continue;
          const c2 = next(c, s.len);
          if (s.to === END ? c2 >= min : live.get(s.to)![c2]) lv[c] = 1;
        }
      }
    }
  }
  if (!live.get(a.start)![0]) return NOTHING;

  let k = 1;
  const taken = (kk: number) => [...rules.keys()].some((name) => name.startsWith(`${prefix}-${kk}-`));
  while (taken(k)) k++;
  const segRule = segmentRules(a, isHub, rules, `${prefix}-${k}-s`, mapClass, deadline, path);
  const hubName = (h: number, c: number) => `${prefix}-${k}-h${h}-${c}`;
  const made = new Set<string>();
  const todo: [number, number][] = [[a.start, 0]];
  made.add(hubName(a.start, 0));
  while (todo.length) {
    const [h, c] = todo.pop()!;
    const parts: GExpr[] = [];
    if (a.accept[h] && c >= min) parts.push(EPSILON);
    for (const s of segs.get(h)!) {
      if (!fits(c, s.len)) continue;
      const c2 = next(c, s.len);
      if (s.to === END) {
        if (c2 >= min) parts.push(segRule(h, s.len, END));
        continue;
      }
      if (!live.get(s.to)![c2]) continue;
      const name = hubName(s.to, c2);
      if (!made.has(name)) made.add(name), todo.push([s.to, c2]);
      parts.push(seq(segRule(h, s.len, s.to), ref(name)));
    }
    deadline?.tick(AUTOMATA_STAGE, path, 1 + parts.length);
    rules.set(hubName(h, c), alt(...parts));
  }
  return ref(hubName(a.start, 0));
}

const succCache = new WeakMap<Dfa, number[][]>();

/** The distinct target states of `s`'s transitions (cached per automaton: hub choice asks many times). */
function targets(a: Dfa, s: number): number[] {
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
function segmentsFrom(a: Dfa, isHub: Uint8Array, h: number, deadline: Deadline | undefined, path: string): Segment[] {
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

/**
 * The segment rules: `rule(q, len, to)` is the language of the paths of exactly `len` code points from `q` through
 * non-hub states into hub `to` (or ending in an accepting state, `to` END); one rule per triple, shared by every hub
 * rule that uses it.
 */
function segmentRules(
  a: Dfa,
  isHub: Uint8Array,
  rules: Map<string, GExpr>,
  prefix: string,
  mapClass: (e: GExpr) => GExpr,
  deadline: Deadline | undefined,
  path: string,
): (q: number, len: number, to: number) => GExpr {
  const mapped = new Map<string, GExpr>();
  const edge = (ranges: number[]): GExpr => {
    const key = ranges.join(",");
    let e = mapped.get(key);
    if (e === undefined) mapped.set(key, (e = mapClass(cls(ranges))));
    return e;
  };
  const memo = new Map<string, GExpr>();
  const build = (q: number, len: number, to: number): GExpr => {
    const key = `${q},${len},${to}`;
    const known = memo.get(key);
    if (known) return known;
    deadline?.tick(AUTOMATA_STAGE, path);
    const byTarget = rangesByTarget(a.trans[q]);
    const parts: GExpr[] = [];
    if (len === 0 && to === END && a.accept[q]) parts.push(EPSILON);
    if (len > 0) {
      for (const [q2, ranges] of byTarget) {
        if (isHub[q2]) {
          if (q2 === to && len === 1) parts.push(edge(ranges));
          continue;
        }
        const rest = build(q2, len - 1, to);
        if (rest.type === "alt" && rest.items.length === 0) continue;
        parts.push(rest.type === "seq" && rest.items.length === 0 ? edge(ranges) : seq(edge(ranges), rest));
      }
    }
    let out: GExpr = alt(...parts);
    // one edge or the empty string stays inline; larger languages become a rule shared by every use
    const small = parts.length <= 1 && (parts.length === 0 || parts[0].type !== "seq");
    if (!small) {
      const name = `${prefix}${q}-${len}-${to === END ? "e" : to}`;
      rules.set(name, out);
      out = ref(name);
    }
    memo.set(key, out);
    return out;
  };
  return build;
}

/**
 * Hubs: the start, then a feedback vertex set (each cycle among non-hubs broken at a state with a self-loop or the
 * most edges inside its component), then, greedily, states whose turning into a hub lowers the number of hub
 * segments (merge points such as the end of an IPv6 literal, where every literal length meets every way on).
 */
function chooseHubs(a: Dfa, deadline: Deadline | undefined, path: string): number[] {
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
    // own segments instead (about in + out rather than in × out); the real count decides
    const ways = new Int32Array(n);
    for (let h = 0; h < n; h++) if (isHub[h]) countWays(a, isHub, h, ways);
    const order = [...Array(n).keys()].filter((v) => !isHub[v] && ways[v] > 1).sort((x, y) => ways[y] - ways[x]);
    let bestV = -1;
    let bestCost = current;
    for (const v of order.slice(0, HUB_CANDIDATES)) {
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

/** Adds to `ways[q]` the number of distinct lengths at which hub `h` reaches non-hub `q`. */
function countWays(a: Dfa, isHub: Uint8Array, h: number, ways: Int32Array): void {
  const n = a.accept.length;
  const seen = new Set<number>([h * (n + 1)]);
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
