import type { Deadline } from "../Deadline.js";
import { DEFAULT_LIMITS } from "../options.js";
import { LimitExceededError } from "../errors.js";
import type { Grammar } from "../grammar/Grammar.js";
import { buildNfa } from "./buildNfa.js";
import { growTable } from "./growTable.js";
import type { Nfa } from "./Nfa.js";

export const UNKNOWN = -2;
export const DEAD = -1;
/**
 * Rows the byte tables (R-states, configurations) start with. Every schema's automaton is new and grows by doubling;
 * starting at a few rows cost several reallocations (allocate, fill, copy) within the first masks, which a cold
 * mask paid for (about a sixth of its time on the JSONSchemaBench sample); 64 rows are 64 KB per table.
 */
const INITIAL_ROWS = 64;
/**
 * ...and up to this many for a larger NFA: a JSONSchemaBench schema's automaton (400–1,100 NFA states) reaches 40–175
 * R-states and as many configurations over a few instances, so a 64-row table doubled once or twice inside a mask
 * (an allocation, a fill and a copy of 128–256 KB: 20–40 µs, a tenth of the sample's slowest masks). Sized from the NFA
 * (a row per 2 states, a power of two) when the matcher is made, the tables rarely grow during decoding. A row per 4
 * states was enough before the first mask's prefetch went past string values; since, it makes 130–160 configurations
 * of such a schema, and 7 of the first 12 schemas' first masks grew a 128-row table (1 with a row per 2 states).
 */
const MAX_INITIAL_ROWS = 256;
/**
 * Rows for a deferred grammar (see Nfa.deferred) until it is built whole: its first mask and the steps to a tool's
 * name make about ten R-states and configurations (the 20-tool set: 10 and 4), and filling 64 rows of both tables was
 * a tenth of its matcher.
 */
const DEFERRED_ROWS = 16;

/**
 * Interned stacks at most (a stack is a pair: top R-state, caller stack). A grammar whose rules nest ambiguously (an
 * `anyOf` of a value and an array of it, many levels deep) makes configurations of many stacks, and a JavaScript `Map`
 * holds at most 2^24 entries: this bound is met first, as LIMIT_AUTOMATON_SIZE, which a decoding answers by starting
 * the tables afresh (see TokenMatcher). Also keeps the stack ids below 2^26, the width of their key.
 */
export const MAX_STACKS = 1 << 22;

/** A stack deeper than this is not named apart from its copy (see countedKey): its key would be long to make. */
const COUNTED_LEVELS = 64;

/** The rows the byte tables start with for an NFA of `states` states: one per 2 states, a power of two, within bounds. */
function rowsFor(states: number): number {
  let rows = INITIAL_ROWS;
  while (rows < MAX_INITIAL_ROWS && rows * 2 < states) rows *= 2;
  return rows;
}

/** See Automaton.countedKey. */
export interface CountedKey {
  key: string;
  short: number;
}

export interface AutomatonOptions {
  /** `token` nodes: the special token or its text spelled by ordinary tokens (default), or the special token only. */
  specialTokens?: "token-or-text" | "token-only";
  /** Cap on NFA states and on interned automaton configurations. @defaultValue DEFAULT_LIMITS.maxAutomatonStates */
  maxStates?: number;
  /**
   * With "token-only": the `token` texts the vocabulary has as special tokens; a `token` node missing from it is
   * treated as matching nothing. Undefined: every `token` node is available.
   */
  availableAtoms?: ReadonlySet<string>;
}

/**
 * The grammar as a lazily determinized pushdown automaton over bytes.
 *
 * - An R-state is a set of NFA states of one frame rule (subset construction, interned on demand).
 * - A stack is a persistent, hash-consed list of R-states (top first): the top is where the current rule is, each
 *   frame below is where its caller resumes.
 * - A configuration is a set of stacks (usually one), interned; configurations are the states of a lazy DFA with a
 *   dense byte transition table, so that for a regular grammar a configuration is just a DFA state and its mask can
 *   be cached.
 * All tables are shared by every matcher of the grammar.
 */
export class Automaton {
  readonly nfa: Nfa;
  readonly atomTexts: readonly string[];
  private readonly maxStates: number;
  /** Rows the byte tables start with (see MAX_INITIAL_ROWS), or grow to at least. */
  private initialRows: number;

  // R-states
  private rsSets: Int32Array[] = [];
  /** Interned R-states by a hash of their sorted states; rsHashNext chains the ids with the same hash. */
  private rsByHash = new Map<number, number>();
  private rsHashNext: number[] = [];
  /** Per NFA state: the R-state of its closure alone (UNKNOWN until asked): most row targets are one state. */
  private seedClosure = new Int32Array(0);
  private rsFinal: number[] = [];
  private rsCalls: (number[] | undefined)[] = []; // flat [rule, returnRs]
  private rsTrans = new Int32Array(0);
  private rsAtoms: (Map<number, number> | undefined)[] = [];
  private rsRowDone: number[] = [];
  /** Per R-state: 1 when it calls nothing (its bytes stay in its frame), 0 when it calls, -1 not known yet. */
  private rsPlainFlag: number[] = [];
  /** Per frame: the R-state of its start, DEAD for a frame that derives nothing; filled on first use. */
  private frameStartRs: number[] = [];
  /** R-states that are a frame's start (where a call enters it). */
  private rsStarts = new Set<number>();
  /** Per R-state: its shared key (see sharedKey), null for none, undefined until asked. */
  private rsShared: (string | null | undefined)[] = [];

  // stacks
  private stTop: number[] = [];
  private stParent: number[] = [];
  private stKeys = new Map<number, number>();
  private stComplete: number[] = [];

  // configurations
  private cfStacks: Int32Array[] = [];
  /** Interned configurations: by the stack itself when there is one, else by the sorted stacks joined. */
  private cfKeys = new Map<string | number, number>();
  /** Dense byte transitions: cTrans[c * 256 + b] is the next configuration, DEAD, or UNKNOWN. */
  cTrans = new Int32Array(0);
  /** 1 when configuration c is a complete match (filled at creation, so that mask walks can read it inline). */
  cComplete = new Uint8Array(0);
  /** 1 once configuration c's dead bytes are recorded in cTrans (see step). */
  private cDeadDone = new Uint8Array(0);
  /** Per configuration: see frameTopOf (UNKNOWN until asked). */
  private cFrameTop = new Int32Array(0);
  private cfAtoms: (Map<number, number> | undefined)[] = [];
  private cfComplete: number[] = [];
  private cfForced: number[] = [];
  private cfOfStack = new Map<number, number>();
  /** Per run of copies: see firstEntryAlike (undefined until asked). */
  private firstAlike: (boolean | undefined)[] = [];
  /** Per configuration: see countedKey (null for none, undefined until asked). */
  private cfCounted: (CountedKey | null | undefined)[] = [];

  /** The initial configuration (a new id after `reset`). */
  initial: number;
  /**
   * Bumped by `reset`: R-state, stack and configuration ids of an older epoch mean nothing (a matcher replays its
   * input, a mask table drops its masks).
   */
  tableEpoch = 0;
  /** Times `reset` ran: each is a decoding that met a bound of the tables and started them afresh. */
  resets = 0;
  /** Epsilon closures walked so far (each interns or finds an R-state): the work of determinization. */
  closureWalks = 0;
  /**
   * Entries of the byte tables written by their growths (the rows copied; before, the new rows' UNKNOWN too): the
   * work of a mask in which a table grows, on fresh memory. 0 where the tables grow in place (see growTable).
   */
  growthWrites = 0;

  // scratch for rows and closures
  private readonly rowScratch = new Int32Array(256);
  private readonly cutScratch = new Uint8Array(257);
  private readonly rowCuts = new Uint8Array(256);
  private readonly oneSeed = new Int32Array(1);
  private readonly prevSeeds = new Int32Array(16);
  private work = new Int32Array(0);
  private kept = new Int32Array(0);
  private edgeLo = new Int32Array(64);
  private edgeHi = new Int32Array(64);
  private edgeTo = new Int32Array(64);
  private seeds = new Int32Array(64);
  private mark: Uint32Array;
  private epoch = 1;

  /** `deadline` bounds building the NFA (the automaton's lazy states have their own cap, `maxStates`). */
  constructor(grammar: Grammar, opts: AutomatonOptions = {}, deadline?: Deadline) {
    this.maxStates = opts.maxStates ?? DEFAULT_LIMITS.maxAutomatonStates;
    const specialTokens = opts.specialTokens ?? "token-or-text";
    this.nfa = buildNfa(grammar, {
      specialTokens,
      maxStates: this.maxStates,
      availableAtoms: opts.availableAtoms,
      deadline,
    });
    this.atomTexts = this.nfa.atomTexts;
    // a deferred grammar's first masks use a few rows; its build grows the tables at once (sizeTables)
    this.initialRows = this.nfa.deferred ? DEFERRED_ROWS : rowsFor(this.nfa.stateCount);
    this.mark = new Uint32Array(this.nfa.stateCount);
    this.initial = this.initialConfig();
  }

  private initialConfig(): number {
    const root = this.frameStartOf(0);
    const stacks: number[] = root >= 0 ? [this.stack(root, -1)] : [];
    return stacks.length ? this.config(stacks) : DEAD;
  }

  /**
   * Drops every R-state, stack and configuration (the NFA, built once, stays) and starts a new epoch. A decoding that
   * meets a bound of the tables (LIMIT_AUTOMATON_SIZE, or a table the engine cannot grow) calls this and rebuilds
   * what it needs: the tables are a cache of the NFA's determinization, so the masks after a reset are the same.
   */
  reset(): void {
    this.rsSets = [];
    this.rsByHash = new Map();
    this.rsHashNext = [];
    this.seedClosure = new Int32Array(0);
    this.rsFinal = [];
    this.rsCalls = [];
    this.rsTrans = new Int32Array(0);
    this.rsAtoms = [];
    this.rsRowDone = [];
    this.rsPlainFlag = [];
    this.frameStartRs = [];
    this.rsStarts = new Set();
    this.rsShared = [];
    this.stTop = [];
    this.stParent = [];
    this.stKeys = new Map();
    this.stComplete = [];
    this.cfStacks = [];
    this.cfKeys = new Map();
    this.cTrans = new Int32Array(0);
    this.cComplete = new Uint8Array(0);
    this.cDeadDone = new Uint8Array(0);
    this.cFrameTop = new Int32Array(0);
    this.cfAtoms = [];
    this.cfComplete = [];
    this.cfForced = [];
    this.cfCounted = [];
    this.cfOfStack = new Map();
    this.tableEpoch++;
    this.resets++;
    this.initial = this.initialConfig();
  }

  /** Number of stacks interned so far. */
  get stackCount(): number {
    return this.stTop.length;
  }

  /** Approximate bytes held by the automaton's tables (typed arrays exactly, maps and lists estimated). */
  memoryBytes(): number {
    const n = this.nfa;
    let b = this.cTrans.byteLength + this.rsTrans.byteLength + this.mark.byteLength;
    for (const a of [
      n.byteStart,
      n.byteLo,
      n.byteHi,
      n.byteTo,
      n.epsStart,
      n.epsTo,
      n.callStart,
      n.callRule,
      n.callTo,
      n.atomStart,
      n.atomIdx,
      n.atomTo,
      n.isEnd,
    ])
      b += a.byteLength;
    for (const set of this.rsSets) b += set.byteLength + 64 + set.length * 8; // the set, its key string and map entry
    for (const st of this.cfStacks) b += st.byteLength + 96;
    b += this.stTop.length * 48;
    return b;
  }

  /** The cap on NFA states built at compile and on interned configurations and R-states (`maxStates`). */
  get stateCap(): number {
    return this.maxStates;
  }

  /** Number of R-states interned so far. */
  get rStateCount(): number {
    return this.rsSets.length;
  }

  /** Number of configurations interned so far. */
  get configCount(): number {
    return this.cfStacks.length;
  }

  /**
   * The start R-state of frame `f`. A lazy frame (a large alternative's rest: a tool's arguments) is built here, the
   * first time a configuration can enter it.
   */
  private frameStartOf(f: number): number {
    const known = this.frameStartRs[f];
    if (known !== undefined) return known;
    const before = this.nfa.stateCount;
    const s = this.nfa.ensureFrame(f);
    if (this.nfa.stateCount > before) this.sizeTables();
    if (this.mark.length < this.nfa.stateCount) {
      const m = new Uint32Array(Math.max(this.nfa.stateCount, this.mark.length * 2));
      m.set(this.mark);
      this.mark = m;
    }
    const r = s >= 0 ? this.closureOf(s) : DEAD;
    this.frameStartRs[f] = r;
    if (r >= 0) this.rsStarts.add(r);
    return r;
  }

  /**
   * The byte tables grown at once to the rows the NFA now calls for (see MAX_INITIAL_ROWS): where a deferred grammar
   * is built whole, in that step, rather than by doublings inside the masks that follow.
   */
  private sizeTables(): void {
    if (this.nfa.deferred) return;
    const rows = rowsFor(this.nfa.stateCount);
    if (rows <= this.initialRows) return;
    this.initialRows = rows;
    if (this.rsTrans.length > 0 && this.rsTrans.length < rows * 256) this.growRs(rows * 256);
    if (this.cTrans.length > 0 && this.cTrans.length < rows * 256) this.growConfigs(rows * 256);
  }

  /**
   * The start R-state of frame `f` when the frame is built (a lazy frame not reached yet is not built here), else
   * DEAD.
   */
  builtFrameStart(f: number): number {
    return this.nfa.frameStart[f] >= 0 ? this.frameStartOf(f) : DEAD;
  }

  /** Builds every lazy frame (completion distances need every state). */
  buildAll(): void {
    this.nfa.buildAll();
    for (let f = 0; f < this.nfa.frameStart.length; f++) this.frameStartOf(f);
  }

  // ---- R-states ----

  /** The epsilon closure of one NFA state, or DEAD (see closure). */
  private closureOf(q: number): number {
    if (q >= this.seedClosure.length) {
      const m = new Int32Array(Math.max(this.nfa.stateCount, this.seedClosure.length * 2)).fill(UNKNOWN);
      m.set(this.seedClosure);
      this.seedClosure = m;
    }
    let r = this.seedClosure[q];
    if (r === UNKNOWN) {
      this.oneSeed[0] = q;
      this.seedClosure[q] = r = this.closure(this.oneSeed, 1);
    }
    return r;
  }

  /** Interned R-state of the epsilon closure of `seeds[0 .. n)`, or DEAD when empty. */
  private closure(seeds: ArrayLike<number>, n: number = seeds.length): number {
    const { epsStart, epsTo, byteStart, callStart, atomStart, isEnd } = this.nfa;
    if (++this.epoch === 0xffffffff) {
      this.mark.fill(0);
      this.epoch = 1;
    }
    const ep = this.epoch;
    const mark = this.mark;
    this.closureWalks++;
    if (this.work.length < this.nfa.stateCount) {
      this.work = new Int32Array(Math.max(this.nfa.stateCount, this.work.length * 2));
      this.kept = new Int32Array(this.work.length);
    }
    const work = this.work;
    const out = this.kept;
    let top = 0;
    let w = 0;
    for (let i = 0; i < n; i++) {
      const s = seeds[i];
      if (s >= 0 && mark[s] !== ep) {
        mark[s] = ep;
        work[top++] = s;
      }
    }
    while (top > 0) {
      const q = work[--top];
      // Keep only the states that matter (an edge that reads, calls or is an atom, or a rule end): two closures with
      // the same such states behave the same, and merging them halves the states a mask walk has to visit.
      if (
        byteStart[q] < byteStart[q + 1] ||
        callStart[q] < callStart[q + 1] ||
        atomStart[q] < atomStart[q + 1] ||
        isEnd[q]
      )
        out[w++] = q;
      for (let k = epsStart[q], e = epsStart[q + 1]; k < e; k++) {
        const t = epsTo[k];
        if (mark[t] !== ep) {
          mark[t] = ep;
          work[top++] = t;
        }
      }
    }
    if (w === 0) return DEAD;
    // sorted (insertion sort: a set is a few states), hashed, and interned by its contents: no key string
    for (let i = 1; i < w; i++) {
      const x = out[i];
      let j = i - 1;
      while (j >= 0 && out[j] > x) {
        out[j + 1] = out[j];
        j--;
      }
      out[j + 1] = x;
    }
    let h = w;
    for (let i = 0; i < w; i++) h = Math.imul(h ^ out[i], 0x9e3779b1) ^ (h >>> 15);
    h &= 0x3fffffff; // a small integer key
    const head = this.rsByHash.get(h);
    for (let id = head ?? -1; id >= 0; id = this.rsHashNext[id]) {
      const set = this.rsSets[id];
      if (set.length !== w) continue;
      let same = true;
      for (let i = 0; i < w && same; i++) same = set[i] === out[i];
      if (same) return id;
    }
    const id = this.rsSets.length;
    if (id >= this.maxStates)
      throw new LimitExceededError(
        "LIMIT_AUTOMATON_SIZE",
        `the automaton exceeded ${this.maxStates} states; simplify the grammar or raise limits.maxAutomatonStates`,
      );
    const set = out.slice(0, w);
    this.rsSets.push(set);
    this.rsHashNext.push(head ?? -1);
    this.rsByHash.set(h, id);
    let fin = 0;
    for (let i = 0; i < w; i++) if (isEnd[set[i]]) fin = 1;
    this.rsFinal.push(fin);
    this.rsCalls.push(undefined);
    this.rsAtoms.push(undefined);
    this.rsRowDone.push(0);
    this.rsPlainFlag.push(-1);
    if (this.rsTrans.length < (id + 1) * 256) this.growRs(Math.max(this.initialRows * 256, this.rsTrans.length * 2));
    this.rsTrans.fill(UNKNOWN, id * 256, id * 256 + 256);
    return id;
  }

  /**
   * A longer table with the rows so far. Rows past them are filled with UNKNOWN as their R-states (configurations) are
   * made, not here: a doubling of a table of 2,048 rows wrote 4 MB at once (1–2 ms inside one mask, on fresh pages),
   * where the new rows' pages are now first written a row at a time. The rows so far are not copied either: the
   * table grows in place in a buffer that reserves `maxStates` rows (growTable), after its first allocation.
   */
  private growRs(len: number): void {
    const { table, copied } = growTable(this.rsTrans, len, this.maxStates * 256);
    this.growthWrites += copied;
    this.rsTrans = table;
  }

  /** All 256 byte transitions of an R-state at once (bytes with the same targets share one closure). */
  private rsRow(rs: number): void {
    if (this.rsRowDone[rs]) return;
    const { byteStart, byteLo, byteHi, byteTo } = this.nfa;
    const set = this.rsSets[rs];
    // the edges of the set's states, in scratch (an R-state has few)
    let m = 0;
    for (let i = 0; i < set.length; i++) m += byteStart[set[i] + 1] - byteStart[set[i]];
    if (this.edgeLo.length < m) {
      this.edgeLo = new Int32Array(m * 2);
      this.edgeHi = new Int32Array(m * 2);
      this.edgeTo = new Int32Array(m * 2);
      this.seeds = new Int32Array(m * 2);
    }
    const lo = this.edgeLo;
    const hi = this.edgeHi;
    const to = this.edgeTo;
    const seeds = this.seeds;
    m = 0;
    for (let i = 0; i < set.length; i++) {
      const q = set[i];
      for (let k = byteStart[q], e = byteStart[q + 1]; k < e; k++) {
        lo[m] = byteLo[k];
        hi[m] = byteHi[k];
        to[m] = byteTo[k];
        m++;
      }
    }
    // scratch (closure never computes a row, so rows are not computed inside each other)
    const row = this.rowScratch.fill(DEAD);
    // the targets only change at range boundaries: one closure per interval between them, not per byte
    const cuts = this.cutScratch.fill(0);
    for (let k = 0; k < m; k++) {
      cuts[lo[k]] = 1;
      cuts[hi[k] + 1] = 1;
    }
    // the previous interval's seeds and closure: neighbouring intervals often have the same targets
    let prevN = -1;
    let prevT = DEAD;
    const prev = this.prevSeeds;
    for (let b = 0; b < 256; ) {
      let e = b + 1;
      while (e < 256 && !cuts[e]) e++;
      let n = 0;
      for (let k = 0; k < m; k++) if (lo[k] <= b && b <= hi[k]) seeds[n++] = to[k];
      if (n > 0) {
        let t: number;
        if (n === 1) t = this.closureOf(seeds[0]);
        else {
          let same = n === prevN;
          for (let k = 0; same && k < n; k++) same = prev[k] === seeds[k];
          if (same) t = prevT;
          else {
            t = this.closure(seeds, n);
            if (n <= prev.length) {
              prev.set(seeds.subarray(0, n));
              prevN = n;
              prevT = t;
            }
          }
        }
        row.fill(t, b, e);
      }
      b = e;
    }
    this.rsTrans.set(row, rs * 256); // closure may have grown the table: index it afresh
    this.rsRowDone[rs] = 1;
  }

  private rsStep(rs: number, b: number): number {
    this.rsRow(rs);
    return this.rsTrans[rs * 256 + b];
  }

  private rsAtom(rs: number, a: number): number {
    let m = this.rsAtoms[rs];
    if (!m) this.rsAtoms[rs] = m = new Map();
    const known = m.get(a);
    if (known !== undefined) return known;
    const { atomStart, atomIdx, atomTo } = this.nfa;
    const seeds: number[] = [];
    for (const q of this.rsSets[rs])
      for (let k = atomStart[q], e = atomStart[q + 1]; k < e; k++) if (atomIdx[k] === a) seeds.push(atomTo[k]);
    const t = seeds.length ? this.closure(seeds) : DEAD;
    m.set(a, t);
    return t;
  }

  /** Calls available from an R-state, grouped by rule: flat [rule, returnRs]. */
  private rsCallList(rs: number): number[] {
    const known = this.rsCalls[rs];
    if (known) return known;
    const { callStart, callRule, callTo } = this.nfa;
    const byRule = new Map<number, number[]>();
    for (const q of this.rsSets[rs]) {
      for (let k = callStart[q], e = callStart[q + 1]; k < e; k++) {
        let l = byRule.get(callRule[k]);
        if (!l) byRule.set(callRule[k], (l = []));
        l.push(callTo[k]);
      }
    }
    const out: number[] = [];
    for (const [rule, targets] of byRule) {
      const ret = this.closure(targets);
      if (ret >= 0 && this.frameStartOf(rule) >= 0) out.push(rule, ret);
    }
    this.rsCalls[rs] = out;
    return out;
  }

  // ---- stacks ----

  private stack(top: number, parent: number): number {
    const key = top * 0x4000000 + (parent + 1);
    const known = this.stKeys.get(key);
    if (known !== undefined) return known;
    const id = this.stTop.length;
    if (id >= MAX_STACKS)
      throw new LimitExceededError(
        "LIMIT_AUTOMATON_SIZE",
        `the automaton exceeded ${MAX_STACKS} stacks; the grammar's rules nest ambiguously too deep`,
      );
    this.stTop.push(top);
    this.stParent.push(parent);
    this.stComplete.push(-1);
    this.stKeys.set(key, id);
    return id;
  }

  private stackComplete(st: number): boolean {
    const c = this.stComplete[st];
    if (c >= 0) return c === 1;
    const p = this.stParent[st];
    const r = this.rsFinal[this.stTop[st]] === 1 && (p < 0 || this.stackComplete(p));
    this.stComplete[st] = r ? 1 : 0;
    return r;
  }

  /** All stacks reachable from `st` by consuming symbol `sym` (a byte, or atom index + 256), added to `out`. */
  private stepStack(st: number, sym: number, out: Set<number>, seen: Set<number>, depth: number): void {
    if (seen.has(st)) return;
    seen.add(st);
    guardStackDepth(depth);
    const top = this.stTop[st];
    const p = this.stParent[st];
    const t = sym < 256 ? this.rsStep(top, sym) : this.rsAtom(top, sym - 256);
    if (t >= 0) out.add(this.stack(t, p));
    const calls = this.rsCallList(top);
    for (let i = 0; i < calls.length; i += 2) {
      const pushed = this.stack(this.frameStartOf(calls[i]), this.stack(calls[i + 1], p));
      this.stepStack(pushed, sym, out, seen, depth + 1);
    }
    if (p >= 0 && this.rsFinal[top] === 1) this.stepStack(p, sym, out, seen, depth + 1);
  }

  // ---- configurations ----

  /**
   * Replace each stack whose top can only call (no byte, atom or return of its own) by the stacks of its calls.
   * Same language, but the configuration after a string's opening quote is then "inside the string frame", whose
   * masks are shared by every place that calls it, rather than a state of the caller.
   */
  private expandCalls(stacks: number[]): number[] {
    const out: number[] = [];
    const seen = new Set<number>();
    const visit = (st: number, depth: number): void => {
      if (seen.has(st)) return;
      seen.add(st);
      guardStackDepth(depth);
      const top = this.stTop[st];
      const calls = this.rsCallList(top);
      if (calls.length === 0 || this.rsOwn(top)) out.push(st);
      const p = this.stParent[st];
      for (let i = 0; i < calls.length; i += 2)
        visit(this.stack(this.frameStartOf(calls[i]), this.stack(calls[i + 1], p)), depth + 1);
    };
    for (const st of stacks) visit(st, 0);
    return out;
  }

  /** The R-state reads a byte or an atom, or ends its rule. */
  private rsOwn(rs: number): boolean {
    if (this.rsFinal[rs] === 1) return true;
    const { byteStart, atomStart } = this.nfa;
    for (const q of this.rsSets[rs])
      if (byteStart[q] < byteStart[q + 1] || atomStart[q] < atomStart[q + 1]) return true;
    return false;
  }

  private config(input: number[]): number {
    // one stack whose top calls nothing is its own expansion (the usual step inside a frame): no walk, no sort
    const stacks =
      input.length === 1 && this.rsCallList(this.stTop[input[0]]).length === 0 ? input : this.expandCalls(input);
    if (stacks.length === 0) return DEAD; // cannot happen after pruning unproductive parts; kept as a guard
    let key: string | number;
    if (stacks.length === 1) key = stacks[0];
    else {
      stacks.sort((a, b) => a - b);
      key = stacks.join(",");
    }
    const known = this.cfKeys.get(key);
    if (known !== undefined) return known;
    const id = this.cfStacks.length;
    if (id >= this.maxStates)
      throw new LimitExceededError(
        "LIMIT_AUTOMATON_SIZE",
        `the automaton exceeded ${this.maxStates} configurations; simplify the grammar or raise limits.maxAutomatonStates`,
      );
    this.cfStacks.push(Int32Array.from(stacks));
    this.cfKeys.set(key, id);
    this.cfAtoms.push(undefined);
    this.cfComplete.push(-1);
    this.cfForced.push(UNKNOWN);
    if (this.cTrans.length < (id + 1) * 256) this.growConfigs(Math.max(this.initialRows * 256, this.cTrans.length * 2));
    this.cTrans.fill(UNKNOWN, id * 256, id * 256 + 256);
    this.cComplete[id] = this.isComplete(id) ? 1 : 0;
    return id;
  }

  private growConfigs(len: number): void {
    // rows past the configurations so far are filled as they are made (see growRs); in place (see growTable)
    const { table: nt, copied } = growTable(this.cTrans, len, this.maxStates * 256);
    this.growthWrites += copied;
    this.cTrans = nt;
    const nc = new Uint8Array(nt.length / 256);
    nc.set(this.cComplete);
    this.cComplete = nc;
    const nd = new Uint8Array(nt.length / 256);
    nd.set(this.cDeadDone);
    this.cDeadDone = nd;
    const nf = new Int32Array(nt.length / 256).fill(UNKNOWN);
    nf.set(this.cFrameTop);
    this.cFrameTop = nf;
  }

  private stepConfig(c: number, sym: number): number {
    const out = new Set<number>();
    const seen = new Set<number>();
    for (const st of this.cfStacks[c]) this.stepStack(st, sym, out, seen, 0);
    return out.size ? this.config([...out]) : DEAD;
  }

  /** Next configuration after byte `b` (DEAD if none). Fills the dense table; read `cTrans` afresh afterwards. */
  step(c: number, b: number): number {
    const k = c * 256 + b;
    const known = this.cTrans[k];
    if (known !== UNKNOWN) return known;
    const stacks = this.cfStacks[c];
    if (stacks.length === 1) {
      const st = stacks[0];
      const top = this.stTop[st];
      const p = this.stParent[st];
      if (this.rsCallList(top).length === 0 && (p < 0 || this.rsFinal[top] === 0)) {
        // one frame that can neither call nor return: the R-state's (shared) row decides. Only this byte's
        // configuration is made: a trie node has few children, and making all 256 would cost more than the walk.
        const t = this.rsStep(top, b);
        // the row's dead bytes are known now: record them all, once per configuration, so that a trie walk reads
        // them from the table instead of calling here once per root child
        if (this.cDeadDone[c] === 0) {
          this.cDeadDone[c] = 1;
          const rsBase = top * 256;
          const cBase = c * 256;
          const rsTrans = this.rsTrans;
          const cTrans = this.cTrans;
          for (let x = 0; x < 256; x++) if (rsTrans[rsBase + x] === DEAD) cTrans[cBase + x] = DEAD;
        }
        const r = t < 0 ? DEAD : this.singleConfig(this.stack(t, p));
        this.cTrans[k] = r; // singleConfig may have grown the table: index it afresh
        return r;
      }
    }
    // several stacks, or calls and returns: each byte is a walk over the stacks. Record first, in one walk, every byte
    // none of them can read, so that a trie walk skips those root children (and siblings) without stepping each
    if (this.cDeadDone[c] === 0) {
      this.cDeadDone[c] = 1;
      this.markDeadBytes(c);
      if (this.cTrans[k] === DEAD) return DEAD;
    }
    const t = this.stepConfig(c, b);
    this.cTrans[k] = t;
    return t;
  }

  /**
   * Fills configuration `c`'s whole row of `cTrans` (for a search that reads every byte of many configurations: see
   * PlainReaders). A step of any byte visits the same stacks (stepStack: each top, the frames it calls, the callers it
   * may return to); only each visited top's row entry differs with the byte. Bytes with the same entries in every
   * visited top's row lead to the same configuration, so a configuration of several stacks is stepped once per group
   * of such bytes (a handful), not once per byte (each a walk of its stacks and a configuration looked up by its key).
   */
  stepAll(c: number): void {
    if (this.cDeadDone[c] === 2) return;
    const visited: number[] = [];
    const seen = new Set<number>();
    for (const st of this.cfStacks[c]) this.visitStacks(st, visited, seen, 0);
    const tops = new Set<number>();
    for (const st of visited) tops.add(this.stTop[st]);
    for (const top of tops) this.rsRow(top);
    // where some visited top's row changes between two bytes: between two such cuts every row is constant
    const cuts = this.rowCuts.fill(0);
    const rows = this.rsTrans;
    for (const top of tops) {
      const base = top * 256;
      for (let b = 1; b < 256; b++) if (rows[base + b] !== rows[base + b - 1]) cuts[b] = 1;
    }
    const row = c * 256;
    const out = new Set<number>();
    for (let b = 0; b < 256; ) {
      let e = b + 1;
      while (e < 256 && cuts[e] === 0) e++;
      out.clear();
      for (const st of visited) {
        const r = this.rsTrans[this.stTop[st] * 256 + b];
        if (r >= 0) out.add(this.stack(r, this.stParent[st]));
      }
      // a configuration made here may grow the tables: cTrans is indexed afresh below
      const t =
        out.size === 0 ? DEAD : out.size === 1 ? this.singleConfig(out.values().next().value!) : this.config([...out]);
      for (let x = b; x < e; x++) if (this.cTrans[row + x] === UNKNOWN) this.cTrans[row + x] = t;
      b = e;
    }
    this.cDeadDone[c] = 2;
  }

  /** The stacks a step of any byte from `st` visits (see stepStack, which visits them in the same order). */
  private visitStacks(st: number, visited: number[], seen: Set<number>, depth: number): void {
    if (seen.has(st)) return;
    seen.add(st);
    guardStackDepth(depth);
    visited.push(st);
    const top = this.stTop[st];
    const p = this.stParent[st];
    const calls = this.rsCallList(top);
    for (let i = 0; i < calls.length; i += 2) {
      const pushed = this.stack(this.frameStartOf(calls[i]), this.stack(calls[i + 1], p));
      this.visitStacks(pushed, visited, seen, depth + 1);
    }
    if (p >= 0 && this.rsFinal[top] === 1) this.visitStacks(p, visited, seen, depth + 1);
  }

  /** Records in cTrans every byte configuration `c` cannot read (once; step does it on the first step too). */
  recordDeadBytes(c: number): void {
    if (this.cDeadDone[c] !== 0) return;
    this.cDeadDone[c] = 1;
    const f = this.frameTopOf(c);
    if (f < 0) {
      this.markDeadBytes(c);
      return;
    }
    this.rsRow(f);
    const rsBase = f * 256;
    const cBase = c * 256;
    for (let x = 0; x < 256; x++) if (this.rsTrans[rsBase + x] === DEAD) this.cTrans[cBase + x] = DEAD;
  }

  /**
   * Sets cTrans to DEAD for every byte that no stack of configuration `c` can read: the bytes the top R-states read,
   * through the same calls and returns as stepStack, so a byte is marked exactly when stepConfig would find nothing.
   */
  private markDeadBytes(c: number): void {
    const alive = new Uint8Array(256);
    const seen = new Set<number>();
    for (const st of this.cfStacks[c]) this.readableBytes(st, alive, seen, 0);
    const base = c * 256;
    const cTrans = this.cTrans;
    for (let x = 0; x < 256; x++) if (alive[x] === 0 && cTrans[base + x] === UNKNOWN) cTrans[base + x] = DEAD;
  }

  /** Marks in `alive` the bytes some stack reachable from `st` (as stepStack reaches them) can read. */
  private readableBytes(st: number, alive: Uint8Array, seen: Set<number>, depth: number): void {
    if (seen.has(st)) return;
    seen.add(st);
    guardStackDepth(depth);
    const top = this.stTop[st];
    const p = this.stParent[st];
    this.rsRow(top);
    const rsTrans = this.rsTrans;
    const base = top * 256;
    for (let x = 0; x < 256; x++) if (rsTrans[base + x] >= 0) alive[x] = 1;
    const calls = this.rsCallList(top);
    for (let i = 0; i < calls.length; i += 2) {
      this.readableBytes(this.stack(this.frameStartOf(calls[i]), this.stack(calls[i + 1], p)), alive, seen, depth + 1);
    }
    if (p >= 0 && this.rsFinal[top] === 1) this.readableBytes(p, alive, seen, depth + 1);
  }

  private singleConfig(st: number): number {
    const known = this.cfOfStack.get(st);
    if (known !== undefined) return known;
    const c = this.config([st]);
    this.cfOfStack.set(st, c);
    return c;
  }

  /** Next configuration after the special token of atom index `a`. */
  stepAtom(c: number, a: number): number {
    let m = this.cfAtoms[c];
    if (!m) this.cfAtoms[c] = m = new Map();
    const known = m.get(a);
    if (known !== undefined) return known;
    const t = this.stepConfig(c, 256 + a);
    m.set(a, t);
    return t;
  }

  // ---- walking inside one frame (mask walks) ----
  //
  // A configuration that is one stack whose top R-state calls nothing, and cannot return (no caller, or not at its
  // rule's end), steps by its top R-state's byte row alone (see step). A mask walk follows such R-states through
  // `rsTable` without making a configuration for every trie node it passes; a configuration is made only where the
  // walk leaves that shape (a call or a possible return), and acceptToken makes the ones of the token it takes.

  /** R-state byte transitions: rsTable[rs * 256 + b] is an R-state, DEAD, or UNKNOWN until `rsRowOf(rs)`. */
  get rsTable(): Int32Array {
    return this.rsTrans;
  }

  /** Fills R-state `rs`'s row of `rsTable` (read the table afresh afterwards: it may have grown). */
  rsRowOf(rs: number): void {
    this.rsRow(rs);
  }

  /** R-state `rs` ends its frame's rule. */
  rsIsFinal(rs: number): boolean {
    return this.rsFinal[rs] === 1;
  }

  /** R-state `rs` calls nothing: every byte it reads leads to an R-state of the same frame. */
  rsPlain(rs: number): boolean {
    let f = this.rsPlainFlag[rs];
    if (f < 0) this.rsPlainFlag[rs] = f = this.rsCallList(rs).length === 0 ? 1 : 0;
    return f === 1;
  }

  /**
   * The top R-state of configuration `c` when `c` steps by that R-state's row alone (one stack, a top that calls
   * nothing and cannot return: no caller, or not final), else -1. Its caller stack is `frameParentOf(c)`.
   */
  frameTopOf(c: number): number {
    let f = this.cFrameTop[c];
    if (f === UNKNOWN) {
      f = -1;
      const stacks = this.cfStacks[c];
      if (stacks.length === 1) {
        const top = this.stTop[stacks[0]];
        const p = this.stParent[stacks[0]];
        if (this.rsPlain(top) && (p < 0 || this.rsFinal[top] === 0)) f = top;
      }
      this.cFrameTop[c] = f;
    }
    return f;
  }

  /** The caller stack below the top frame of a one-stack configuration (-1 for none). */
  frameParentOf(c: number): number {
    return this.stParent[this.cfStacks[c][0]];
  }

  /** The configuration of the one stack [rs, parent...] (DEAD only for a stack that derives nothing). */
  configOfStack(rs: number, parent: number): number {
    return this.singleConfig(this.stack(rs, parent));
  }

  /**
   * For a configuration that is one stack with a caller below its top frame: [top R-state, caller stack].
   * Otherwise undefined. Masks of such configurations are composed from a context-free part of the top frame.
   */
  splitTop(c: number): [number, number] | undefined {
    const stacks = this.cfStacks[c];
    if (stacks.length !== 1) return undefined;
    const p = this.stParent[stacks[0]];
    return p < 0 ? undefined : [this.stTop[stacks[0]], p];
  }

  /**
   * For a configuration of one stack with states inside one copy of a bounded repetition (see RepeatCopies): a key
   * naming it apart from which copy (the run, the offsets of its states in their copy, its other states, level by
   * level down its stack), and `short`: every token of at most that many bytes is read from it as from any
   * configuration with the same key and at least as large a `short`. Each copy reads at least a byte (the item derives
   * no empty text), so such a token ends before the copy whose structure differs (the last), in copies built alike:
   * the same paths, shifted by a number of copies. Undefined otherwise.
   */
  countedKey(c: number): CountedKey | undefined {
    const known = this.cfCounted[c];
    if (known !== undefined) return known ?? undefined;
    const stacks = this.cfStacks[c];
    const r = stacks.length === 1 && this.nfa.repeatCopies.copies.length > 0 ? this.countedOfStack(stacks[0]) : null;
    this.cfCounted[c] = r;
    return r ?? undefined;
  }

  private countedOfStack(st: number): CountedKey | null {
    const { copyOf, offsetOf, copies } = this.nfa.repeatCopies;
    // the innermost run met (the lowest id: a repetition inside another's item is recorded first)
    let run = Number.MAX_SAFE_INTEGER;
    let levels = 0;
    for (let x = st; x >= 0; x = this.stParent[x]) {
      if (++levels > COUNTED_LEVELS) return null;
      for (const q of this.rsSets[this.stTop[x]]) {
        const ru = this.runOfState(q);
        if (ru >= 0 && ru < run) run = ru;
      }
    }
    if (run === Number.MAX_SAFE_INTEGER) return null;
    let copy = -1;
    const names: string[] = [];
    for (let x = st; x >= 0; x = this.stParent[x]) {
      const rs = this.stTop[x];
      const parts: number[] = [];
      let inRun = false;
      for (const q of this.rsSets[rs]) {
        if (this.runOfState(q) !== run) {
          parts.push(q);
          continue;
        }
        const at = copyOf[q];
        // states of two copies (an item that reads a prefix of another copy's text): not named apart
        if (copy >= 0 && at !== copy) return null;
        copy = at;
        inRun = true;
        parts.push(-1 - offsetOf[q]);
      }
      names.push(inRun ? parts.sort((a, b) => a - b).join(",") : `r${rs}`);
    }
    return { key: `${run}:${names.join("|")}`, short: copies[run] - 1 - copy };
  }

  /** The run state `q` is in a copy of (see RepeatCopies), or -1. */
  private runOfState(q: number): number {
    const ru = this.nfa.repeatCopies.runAt(q);
    if (ru >= -1) return ru;
    return this.firstEntryAlike(-2 - ru) ? -2 - ru : -1;
  }

  /**
   * The entry of run `run`'s first copy has the edges of its second copy's entry, their targets one copy back (none
   * of another part of the grammar that starts there too): then it is named like the other entries.
   */
  private firstEntryAlike(run: number): boolean {
    const known = this.firstAlike[run];
    if (known !== undefined) return known;
    const nfa = this.nfa;
    const rc = nfa.repeatCopies;
    const e0 = rc.stateAt(run, 0, 0);
    const e1 = rc.stateAt(run, 1, 0);
    // a target one copy back: a state of the run's copy k at the same offset in copy k - 1, any other the same
    const back = (t: number): number =>
      rc.runAt(t) === run && rc.copyOf[t] >= 1 ? rc.stateAt(run, rc.copyOf[t] - 1, rc.offsetOf[t]) : t;
    const same = (start: Int32Array, to: Int32Array, label: ArrayLike<number>[]): boolean => {
      const n = start[e1 + 1] - start[e1];
      if (start[e0 + 1] - start[e0] !== n) return false;
      for (let k = 0; k < n; k++) {
        const a = start[e0] + k;
        const b = start[e1] + k;
        if (to[a] !== back(to[b])) return false;
        for (const l of label) if (l[a] !== l[b]) return false;
      }
      return true;
    };
    const r =
      same(nfa.byteStart, nfa.byteTo, [nfa.byteLo, nfa.byteHi]) &&
      same(nfa.epsStart, nfa.epsTo, []) &&
      same(nfa.callStart, nfa.callTo, [nfa.callRule]) &&
      same(nfa.atomStart, nfa.atomTo, [nfa.atomIdx]);
    this.firstAlike[run] = r;
    return r;
  }

  /**
   * A key naming R-state `rs` independently of the grammar (its frame's structure and its canonical states) when
   * its frame is self-contained; masks inside it can then be shared across grammars. Undefined otherwise.
   */
  sharedKey(rs: number): string | undefined {
    const known = this.rsShared[rs];
    if (known !== undefined) return known ?? undefined;
    const set = this.rsSets[rs];
    const f = this.nfa.stateFrame[set[0]];
    const fk = f >= 0 ? this.nfa.frameKeyOf(f) : undefined;
    const key =
      fk === undefined
        ? undefined
        : `${fk}#${Array.from(set, (q) => this.nfa.stateCanon[q])
            .sort((a, b) => a - b)
            .join(",")}`;
    this.rsShared[rs] = key ?? null;
    return key;
  }

  /** R-state `rs` is the start of a frame (a call enters its frame there). */
  rsIsFrameStart(rs: number): boolean {
    return this.rsStarts.has(rs);
  }

  /** The configuration of the top frame alone (no caller: returning is impossible). */
  localConfig(rs: number): number {
    return this.singleConfig(this.stack(rs, -1));
  }

  /** The configuration made of one stack. */
  stackConfig(st: number): number {
    return this.singleConfig(st);
  }

  /** The stacks of configuration `c` (read-only view; for analyses such as completion distances). */
  stacksOf(c: number): Int32Array {
    return this.cfStacks[c];
  }

  /** The R-state on top of stack `st`. */
  stackTop(st: number): number {
    return this.stTop[st];
  }

  /** The stack below the top frame of `st`, or -1 for the outermost frame. */
  stackParent(st: number): number {
    return this.stParent[st];
  }

  /** The NFA states of R-state `rs` (read-only view). */
  rsStates(rs: number): Int32Array {
    return this.rsSets[rs];
  }

  /** The text so far is a complete match. */
  isComplete(c: number): boolean {
    if (c < 0) return false;
    const k = this.cfComplete[c];
    if (k >= 0) return k === 1;
    let r = false;
    for (const st of this.cfStacks[c]) if (this.stackComplete(st)) r = true;
    this.cfComplete[c] = r ? 1 : 0;
    return r;
  }

  /** The only byte that can follow (and no special token, and not complete), or -1. */
  forcedByte(c: number): number {
    const known = this.cfForced[c];
    if (known !== UNKNOWN) return known;
    let only = -1;
    let ok = !this.isComplete(c);
    for (let a = 0; ok && a < this.atomTexts.length; a++) if (this.stepAtom(c, a) >= 0) ok = false;
    for (let b = 0; ok && b < 256; b++) {
      if (this.step(c, b) >= 0) {
        if (only >= 0) ok = false;
        else only = b;
      }
    }
    const r = ok ? only : -1;
    this.cfForced[c] = r;
    return r;
  }
}

/**
 * A stack walk deeper than this is a left recursion (a rule calling itself before consuming any text), which would
 * otherwise run until the call stack overflows: refused with a fix the user can make.
 */
function guardStackDepth(depth: number): void {
  if (depth > 10_000)
    throw new LimitExceededError(
      "LIMIT_NESTING",
      "the grammar is left-recursive (a rule can call itself before consuming any text); rewrite it with repetition",
    );
}
