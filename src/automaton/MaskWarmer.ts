import { TOKEN_TEXT, type Vocabulary } from "../vocab/Vocabulary.js";
import { type Automaton, MAX_STACKS } from "./Automaton.js";
import { nestingRepeats } from "./nestingRepeats.js";
import { singleByteTokens } from "./trieByByte.js";

/** A mask with more tokens than this is wide: followed by its one-byte steps, not by its tokens (as the prefetch). */
const WARM_FANOUT = 16;
/**
 * Positions more than this many tokens (or one-byte steps) after the start are not warmed: past the envelope and a
 * long tool name (one step per byte through the names' trie), a call's first members; and a recursive grammar
 * (`[[[…`) does not go down one branch for ever.
 */
const WARM_LEVELS = 96;
/** A position's cost: its level times this, plus its continuation's rank (every level before any deeper one). */
const LEVEL_WEIGHT = 1 << 16;
/**
 * Where the warm-up stops for good, below every bound of the tables, so that what it builds never brings a
 * generation to a bound sooner than it would have gone alone: configurations, R-states and stacks at a quarter of
 * their caps, the NFA's lazily built states at the compile's cap (an eighth of the ceiling a decoding may build to),
 * and the tables' memory at 48 MB (byte tables, an estimate of their keys, and cached masks: the cache drops
 * everything at 40 MB of masks). A configuration or R-state costs about 1.5 KB (a row of 256 ids and its key), and
 * the 117-tool set warmed whole makes about 50,000 configurations and 18,000 R-states (119 MB).
 */
const WARM_TABLE_SHARE = 4;
const WARM_MEMORY_BYTES = 48 << 20;
/** Bytes of a configuration's or R-state's key, interned stacks and map entries, beside its row (an estimate). */
const ROW_EXTRA_BYTES = 512;

/** What the warm-up reads and drives of its mask table (MaskTable.warm gives it). */
export interface WarmHost {
  readonly automaton: Automaton;
  readonly vocab: Vocabulary;
  /** Work done so far by the table, in the prefetch's measure (trie nodes walked, plus closures and configurations). */
  work(): number;
  known(c: number): boolean;
  /** Computes `c`'s mask walking at most `nodes` trie nodes; false when the walk stopped (nothing was stored). */
  computeWithin(c: number, nodes: number): boolean;
  /** `c`'s mask as ids when it has few (undefined when it is a bitset). */
  sparseIds(c: number): Int32Array | undefined;
  /** The grammar's first mask, as a decoding's first step computes it (with its shared frames and prefetch). */
  firstMask(): void;
  /** Bytes of masks cached in the table. */
  cachedBytes(): number;
  /** A bound of the tables met: they are started afresh (as a decoding's step does), every mask dropped. */
  tablesFull(e: unknown): boolean;
}

/**
 * The warm-up of a mask table (see MaskTable.warm): the prefetch of the first mask, carried on past its budget in
 * slices of work, so that idle time (a prompt being evaluated, a worker waiting for requests) computes the masks a
 * generation reaches soonest. Positions go by level (tokens, or one-byte steps through wide masks, from the start),
 * then by rank among their siblings: every tool's first positions before any tool's later ones. A slice spends at
 * most its work on trie walks: a position whose walk would pass what is left is stopped there (nothing stored) and
 * tried again at the start of a slice; one that needs more than a whole slice is left to the step that reaches it.
 * The determinization a position's steps make cannot be stopped midway: what one overshoots is taken from the next
 * slice. Every mask is computed by the table's own compute, so no mask differs from the one a step would compute.
 */
export class MaskWarmer {
  /** Positions computed by the warm-up (their masks were not known). */
  computed = 0;
  /** Walks stopped at the end of a slice (tried again), and positions left to the steps (more than a slice each). */
  stopped = 0;
  left = 0;
  private epoch = -1;
  private finished = false;
  private debt = 0;
  private readonly cost: number[] = [];
  private readonly config: number[] = [];
  private readonly level: number[] = [];
  private seen = new Set<number>();
  /** Positions whose walk stopped, with the work it had reached: they need more than that. */
  private readonly need = new Map<number, number>();
  private readonly targets = new Set<number>();

  constructor(private readonly host: WarmHost) {}

  /** Spends at most `work` units (see the class); returns whether there is more to do. */
  run(work: number): boolean {
    const { host } = this;
    const A = host.automaton;
    if (this.epoch !== A.tableEpoch) this.restart();
    if (this.finished) return false;
    const start = host.work();
    const end = start + work - this.debt;
    this.debt = 0;
    try {
      if (!host.known(A.initial)) host.firstMask();
      if (this.epoch !== A.tableEpoch) this.restart();
      while (this.cost.length > 0 && !this.finished) {
        const left = end - host.work();
        if (left <= 0) break;
        if (this.nearBounds()) {
          this.finished = true;
          break;
        }
        const c = this.config[0];
        if (!host.known(c)) {
          const need = this.need.get(c) ?? 0;
          if (need >= work) {
            // more than a whole slice: left to the step that reaches it; a mask that walks so much is wide, and the
            // positions after it are found by its one-byte steps, which need no mask
            const level = this.level[0];
            this.pop();
            this.left++;
            if (level < WARM_LEVELS) this.expand(c, level, true);
            continue;
          }
          if (need >= left) break; // the next slice starts with it
          if (!host.computeWithin(c, left)) {
            this.need.set(c, left);
            this.stopped++;
            continue;
          }
          this.computed++;
        }
        const level = this.level[0];
        this.pop();
        if (level < WARM_LEVELS) this.expand(c, level, false);
      }
    } catch (e) {
      // a bound of the tables met while warming (they were started afresh, as a step does): the warm-up stops here
      if (!host.tablesFull(e)) throw e;
      this.finished = true;
    }
    if (this.epoch !== A.tableEpoch) this.finished = true;
    this.debt = Math.max(0, host.work() - end);
    if (this.cost.length === 0) this.finished = true;
    return !this.finished;
  }

  /** The tables are new (a first run, or after a reset): the warm-up starts again from the initial configuration. */
  private restart(): void {
    const A = this.host.automaton;
    this.epoch = A.tableEpoch;
    this.finished = false;
    this.cost.length = 0;
    this.config.length = 0;
    this.level.length = 0;
    this.need.clear();
    this.seen = new Set();
    if (A.initial >= 0) this.push(0, A.initial, 0);
  }

  private nearBounds(): boolean {
    const A = this.host.automaton;
    const cap = A.stateCap;
    return (
      A.configCount * WARM_TABLE_SHARE >= cap ||
      A.rStateCount * WARM_TABLE_SHARE >= cap ||
      A.stackCount * WARM_TABLE_SHARE >= MAX_STACKS ||
      A.nfa.stateCount >= cap ||
      A.cTrans.byteLength +
        A.rsTable.byteLength +
        ROW_EXTRA_BYTES * (A.configCount + A.rStateCount) +
        this.host.cachedBytes() >=
        WARM_MEMORY_BYTES
    );
  }

  /**
   * The positions after `c`, as the prefetch follows them: a mask with few tokens by each of its tokens, longest
   * first; a wide one (or one left unknown, `wide`) by its one-byte steps (one per R-state they lead to inside one
   * frame), not into more nesting. Unlike the first mask's prefetch, from a wide start too (free text before tool
   * calls, any JSON value): there is time to follow its bytes to the structure after it.
   */
  private expand(c: number, level: number, wide: boolean): void {
    const { host } = this;
    const A = host.automaton;
    const { bytes, offsets, kind } = host.vocab;
    const ids = wide ? undefined : host.sparseIds(c);
    const next = (level + 1) * LEVEL_WEIGHT;
    let rank = 0;
    if (ids === undefined || ids.length > WARM_FANOUT) {
      const one = singleByteTokens(host.vocab);
      const nesting = nestingRepeats(A, c);
      const f = A.frameTopOf(c);
      if (f >= 0) A.rsRowOf(f);
      const row = A.rsTable;
      this.targets.clear();
      for (let b = 0; b < 128; b++) {
        if (one[b] < 0) continue;
        if (f >= 0) {
          const u = row[f * 256 + b];
          if (u < 0 || this.targets.has(u)) continue;
          this.targets.add(u);
        }
        const s = A.step(c, b);
        if (s >= 0 && !this.seen.has(s) && nestingRepeats(A, s) <= nesting)
          this.push(next + Math.min(rank++, LEVEL_WEIGHT - 1), s, level + 1);
      }
      return;
    }
    const follow: number[] = [];
    for (let k = 0; k < ids.length; k++) if (kind[ids[k]] === TOKEN_TEXT) follow.push(ids[k]);
    follow.sort((a, b) => offsets[b + 1] - offsets[b] - (offsets[a + 1] - offsets[a]) || a - b);
    for (const id of follow) {
      let s = c;
      for (let i = offsets[id], e = offsets[id + 1]; i < e && s >= 0; i++) s = A.step(s, bytes[i]);
      if (s >= 0 && !this.seen.has(s)) this.push(next + Math.min(rank++, LEVEL_WEIGHT - 1), s, level + 1);
    }
  }

  // a binary min-heap of positions by cost, then configuration id (a fixed order)
  private before(i: number, j: number): boolean {
    const { cost, config } = this;
    return cost[i] < cost[j] || (cost[i] === cost[j] && config[i] < config[j]);
  }

  private swap(i: number, j: number): void {
    const { cost, config, level } = this;
    [cost[i], cost[j]] = [cost[j], cost[i]];
    [config[i], config[j]] = [config[j], config[i]];
    [level[i], level[j]] = [level[j], level[i]];
  }

  private push(cost: number, c: number, level: number): void {
    this.seen.add(c);
    this.cost.push(cost);
    this.config.push(c);
    this.level.push(level);
    for (let i = this.cost.length - 1; i > 0; ) {
      const p = (i - 1) >> 1;
      if (!this.before(i, p)) break;
      this.swap(i, p);
      i = p;
    }
  }

  private pop(): void {
    const last = this.cost.length - 1;
    this.swap(0, last);
    this.cost.pop();
    this.config.pop();
    this.level.pop();
    for (let i = 0; ; ) {
      const l = 2 * i + 1;
      let m = i;
      if (l < this.cost.length && this.before(l, m)) m = l;
      if (l + 1 < this.cost.length && this.before(l + 1, m)) m = l + 1;
      if (m === i) break;
      this.swap(i, m);
      i = m;
    }
  }
}
