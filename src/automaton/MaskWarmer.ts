import { CostHeap } from "./CostHeap.js";
import { followedSteps } from "./followedSteps.js";
import type { Vocabulary } from "../vocab/Vocabulary.js";
import { type Automaton, MAX_STACKS } from "./Automaton.js";
import { nestingRepeats } from "./nestingRepeats.js";

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
 * Levels a position is put back for each shorter tokenization on its path: a token of a few-token mask that is a
 * prefix of another token of that mask (`"` beside `",` and `", "`) spells the same text in more tokens than the
 * longest does, which a model rarely writes. Every byte offset of a literal is a configuration of its own: followed
 * at their level, the shorter tokenizations took most of the warm-up (the 117 tools warmed by level reached level 30,
 * about 1,400 positions a level, before most tools' second argument). Distinct continuations (another key, another
 * tool, a value's bytes) are not put back. Along the big bench's calls and walks of the 117- and 500-tool sets, the
 * masks left to compute after a warm-up to the memory bound were 78 and 70 by level alone, 69/70, 63/70, 62/72 and
 * 62/88 with 2, 3, 4 and 8 levels (counted, the same on any machine).
 */
const ALT_LEVELS = 3;
/**
 * Where the warm-up stops for good, below every bound of the tables, so that what it builds never brings a
 * generation to a bound sooner than it would have gone alone: configurations, R-states and stacks at a quarter of
 * their caps, the NFA's lazily built states at the compile's cap (an eighth of the ceiling a decoding may build to),
 * and the tables' memory at WARM_MEMORY_BYTES.
 */
const WARM_TABLE_SHARE = 4;
/**
 * The tables' memory where the warm-up stops: byte tables (each counted at the size its next doubling gives it once
 * its rows pass GROW_SHARE of what it holds, so that no doubling takes it past this), an estimate of their keys, and
 * cached masks (the cache drops everything at 40 MB of masks). A configuration or R-state costs about 1.5 KB (a row
 * of 256 ids and its key). Why 96 MB: the big benchmark accepts 100 MB for a tool set's automaton and masks (as
 * Automaton.memoryBytes and the cache count them), and this estimate counts more per row than they do, so a warm-up
 * stopped here leaves room for the decoding after it: the 500-tool set stopped at 28,700 configurations and 18,800
 * R-states, about 88 MB here (its configurations' table at 7/8 of 32 MB), 72 MB as the benchmark counts it. The next
 * doubling of that table (to 64 MB) would pass 100 MB: the bound is what fits in the acceptance, not a finer tuning.
 * At 48 MB and with the byte tables counted as allocated, it stopped where the configurations' table had
 * just doubled (16,385 rows in a table of 32,768), before it reached most of the 500 tools' arguments.
 */
const WARM_MEMORY_BYTES = 96 << 20;
/** A byte table whose rows pass this share of its length is counted at twice its length (see WARM_MEMORY_BYTES). */
const GROW_SHARE = 7 / 8;
/** Bytes of a configuration's or R-state's key, interned stacks and map entries, beside its row (an estimate). */
const ROW_EXTRA_BYTES = 512;

/** Bytes of a byte table of `rows` rows after its next doubling, if they are near its length (see GROW_SHARE). */
function grown(bytes: number, rows: number): number {
  return rows * 1024 >= bytes * GROW_SHARE ? 2 * bytes : bytes;
}

/**
 * Configurations and R-states the warm-up from the start leaves below its bounds for the warm-up ahead of a
 * generation (AheadWarmer), which stops at the bounds themselves: once the warm-up from the start has reached them (a
 * large tool set's does, while its prompt is evaluated), the masks a generation is about to need could not be
 * computed ahead any more. 4,096 rows of each (about 12 MB as WARM_MEMORY_BYTES counts them) hold the warm-ahead of
 * dozens of generations: one step's 2,048 units make at most 128 configurations, most far fewer. Under a small cap
 * of configurations, a sixteenth of the cap.
 */
const AHEAD_RESERVE_ROWS = 4096;

/**
 * The tables are near a bound where a warm-up stops (see WARM_TABLE_SHARE, WARM_MEMORY_BYTES), with `reserve` more
 * configurations and R-states: what it would build past here could bring a generation to a bound sooner than it
 * would have gone alone. Shared by the warm-up ahead of a generation (AheadWarmer, no reserve).
 */
export function nearWarmBounds(host: WarmHost, reserve = 0): boolean {
  const A = host.automaton;
  const cap = A.stateCap;
  const configs = A.configCount + reserve;
  const rStates = A.rStateCount + reserve;
  return (
    configs * WARM_TABLE_SHARE >= cap ||
    rStates * WARM_TABLE_SHARE >= cap ||
    A.stackCount * WARM_TABLE_SHARE >= MAX_STACKS ||
    A.nfa.stateCount >= cap ||
    grown(A.cTrans.byteLength, configs) +
      grown(A.rsTable.byteLength, rStates) +
      ROW_EXTRA_BYTES * (configs + rStates) +
      host.cachedBytes() >=
      WARM_MEMORY_BYTES
  );
}

/** A position's step from its parent is taken (Position.via). */
const RESOLVED = -(2 ** 30);

/** A position queued for the warm-up: its parent and the token (or byte) after it, until it is stepped. */
interface Position {
  cost: number;
  /** Push order: ties of cost go first in, first out. */
  order: number;
  /** The parent configuration until the position is resolved (see MaskWarmer.resolve), then its own. */
  c: number;
  /** The token id after the parent, -1 - b for a one-byte step of byte b, or RESOLVED. */
  via: number;
  /** For a one-byte step: the parent's nesting (nestingRepeats), which the position may not pass; else -1. */
  nesting: number;
  level: number;
  /** Shorter tokenizations on its path (see ALT_LEVELS). */
  alts: number;
}

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
 * generation reaches soonest. Positions go by level (tokens, or one-byte steps through wide masks, from the start,
 * with ALT_LEVELS more for each shorter tokenization on the path), then by rank among their siblings: every tool's
 * first positions before any tool's later ones. A queued position is stepped from its parent only when it comes
 * first, so the configurations made are those of the positions warmed, not of every one queued. A slice spends at
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
  /**
   * Why the warm-up has nothing more to do: every position within WARM_LEVELS computed ("done"), a bound of the
   * tables near ("bounds"), or met ("tables full": they were started afresh); undefined while it has more.
   */
  stopReason: "done" | "bounds" | "tables full" | undefined;
  private epoch = -1;
  private finished = false;
  private debt = 0;
  /** Positions to warm, a binary min-heap by cost, then push order (a fixed order). */
  private readonly heap = new CostHeap<Position>();
  private seen = new Set<number>();
  /** Positions whose walk stopped, with the work it had reached: they need more than that. */
  private readonly need = new Map<number, number>();

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
      while (this.heap.size > 0 && !this.finished) {
        const left = end - host.work();
        if (left <= 0) break;
        if (nearWarmBounds(this.host, Math.min(AHEAD_RESERVE_ROWS, A.stateCap >> 4))) {
          this.finish("bounds");
          break;
        }
        const top = this.heap.peek()!;
        if (!this.resolve(top)) {
          this.heap.pop();
          continue;
        }
        const c = top.c;
        if (!host.known(c)) {
          const need = this.need.get(c) ?? 0;
          if (need >= work) {
            // more than a whole slice: left to the step that reaches it; a mask that walks so much is wide, and the
            // positions after it are found by its one-byte steps, which need no mask
            this.heap.pop();
            this.left++;
            if (top.level < WARM_LEVELS) this.expand(top, true);
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
        this.heap.pop();
        if (top.level < WARM_LEVELS) this.expand(top, false);
      }
    } catch (e) {
      // a bound of the tables met while warming (they were started afresh, as a step does): the warm-up stops here
      if (!host.tablesFull(e)) throw e;
      this.finish("tables full");
    }
    if (this.epoch !== A.tableEpoch) this.finish("tables full");
    this.debt = Math.max(0, host.work() - end);
    if (this.heap.size === 0) this.finish("done");
    return !this.finished;
  }

  /** The tables are new (a first run, or after a reset): the warm-up starts again from the initial configuration. */
  private restart(): void {
    const A = this.host.automaton;
    this.epoch = A.tableEpoch;
    this.finished = false;
    this.stopReason = undefined;
    this.heap.clear();
    this.need.clear();
    this.seen = new Set();
    if (A.initial >= 0) {
      this.seen.add(A.initial);
      this.heap.push({ cost: 0, order: 0, c: A.initial, via: RESOLVED, nesting: -1, level: 0, alts: 0 });
    }
  }

  /** Ends the warm-up of these tables, dropping its queue (positions queued are objects of the heap: free them). */
  private finish(why: "done" | "bounds" | "tables full"): void {
    if (!this.finished) this.stopReason = why;
    this.finished = true;
    this.heap.clear();
    this.need.clear();
    this.seen = new Set();
  }

  /**
   * The positions after `c`, as the prefetch follows them: a mask with few tokens by each of its tokens, longest
   * first; a wide one (or one left unknown, `wide`) by its one-byte steps (one per R-state they lead to inside one
   * frame), not into more nesting. Unlike the first mask's prefetch, from a wide start too (free text before tool
   * calls, any JSON value): there is time to follow its bytes to the structure after it.
   */
  private expand(from: Position, wide: boolean): void {
    const { c, level, alts } = from;
    const next = (level + 1 + ALT_LEVELS * alts) * LEVEL_WEIGHT;
    const steps = followedSteps(this.host, c, wide, WARM_FANOUT);
    let rank = 0;
    if ("bytes" in steps) {
      for (const b of steps.bytes) {
        const cost = next + Math.min(rank++, LEVEL_WEIGHT - 1);
        this.heap.push({ cost, order: 0, c, via: -1 - b, nesting: steps.nesting, level: level + 1, alts });
      }
      return;
    }
    const follow = steps.tokens;
    for (let k = 0; k < follow.length; k++) {
      const shorter = this.prefixOfEarlier(follow, k);
      const cost = next + (shorter ? ALT_LEVELS * LEVEL_WEIGHT : 0) + Math.min(rank++, LEVEL_WEIGHT - 1);
      this.heap.push({
        cost,
        order: 0,
        c,
        via: follow[k],
        nesting: -1,
        level: level + 1,
        alts: alts + (shorter ? 1 : 0),
      });
    }
  }

  /**
   * Steps a position from its parent when it comes to the top (configurations are made for the positions warmed,
   * not for every one queued); false when it is dead, already seen, or a one-byte step into more nesting.
   */
  private resolve(p: Position): boolean {
    if (p.via === RESOLVED) return true;
    const A = this.host.automaton;
    let s = p.c;
    if (p.via < 0) s = A.step(s, -1 - p.via);
    else {
      const { bytes, offsets } = this.host.vocab;
      for (let i = offsets[p.via], e = offsets[p.via + 1]; i < e && s >= 0; i++) s = A.step(s, bytes[i]);
    }
    p.via = RESOLVED;
    if (s < 0 || this.seen.has(s) || (p.nesting >= 0 && nestingRepeats(A, s) > p.nesting)) return false;
    this.seen.add(s);
    p.c = s;
    return true;
  }

  /** `follow[k]`'s bytes begin one of the (longer) tokens before it: a shorter tokenization of the same text. */
  private prefixOfEarlier(follow: readonly number[], k: number): boolean {
    const { bytes, offsets } = this.host.vocab;
    const a = offsets[follow[k]];
    const n = offsets[follow[k] + 1] - a;
    for (let j = 0; j < k; j++) {
      const b = offsets[follow[j]];
      if (offsets[follow[j] + 1] - b <= n) continue;
      let i = 0;
      while (i < n && bytes[a + i] === bytes[b + i]) i++;
      if (i === n) return true;
    }
    return false;
  }
}
