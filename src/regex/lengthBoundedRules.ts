import { rangesByTarget } from "./rangesByTarget.js";
import type { Deadline } from "../Deadline.js";
import { LimitExceededError } from "../errors.js";
import type { CountedState, GExpr } from "../grammar/Grammar.js";
import { alt, cls, EPSILON, NOTHING, ref, seq } from "../grammar/build.js";
import { chooseHubs } from "./chooseHubs.js";
import { AUTOMATA_STAGE, type Dfa, trim } from "./Dfa.js";
import { END, type Segment, segmentsFrom } from "./hubSegments.js";

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

  const k = freeNumber(rules, prefix);
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

/**
 * The automaton of `input` over its hubs, for a counted node (see `Counted`): a state per hub (and one accepting end
 * state), an edge per segment whose label is the segment's rule (added to `rules`, counter-free, shared by every
 * length) and whose `len` is its length. A counter over these states alone: for `format: uri` 14 hubs, where the
 * counter over every state was 179 × 2,049 pairs.
 */
export function countedHubs(
  input: Dfa,
  rules: Map<string, GExpr>,
  prefix: string,
  mapClass: (e: GExpr) => GExpr,
  path: string,
  deadline?: Deadline,
): { states: CountedState[]; start: number } | null {
  const a = trim(input);
  if (a.accept.length === 0) return null;
  const hubs = chooseHubs(a, deadline, path);
  const isHub = new Uint8Array(a.accept.length);
  for (const h of hubs) isHub[h] = 1;
  const segRule = segmentRules(a, isHub, rules, `${prefix}-${freeNumber(rules, prefix)}-s`, mapClass, deadline, path);
  const index = new Map<number, number>(hubs.map((h, i) => [h, i]));
  const end = hubs.length;
  const states: CountedState[] = hubs.map((h) => {
    const edges: CountedState["edges"][number][] = [];
    for (const s of segmentsFrom(a, isHub, h, deadline, path)) {
      if (s.len === 0) continue; // the hub's own acceptance
      edges.push({ label: segRule(h, s.len, s.to), len: s.len, to: s.to === END ? end : (index.get(s.to) as number) });
    }
    return { accept: a.accept[h], edges };
  });
  states.push({ accept: true, edges: [] });
  return { states, start: index.get(a.start) as number };
}

/** The first k such that no rule name starts with `prefix-k-`: one construction's rules, apart from another's. */
function freeNumber(rules: Map<string, GExpr>, prefix: string): number {
  let k = 1;
  const taken = (kk: number) => [...rules.keys()].some((name) => name.startsWith(`${prefix}-${kk}-`));
  while (taken(k)) k++;
  return k;
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
