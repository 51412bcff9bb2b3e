import { CostHeap } from "./CostHeap.js";
import { followedSteps } from "./followedSteps.js";
import { LimitExceededError } from "../errors.js";
import { nearWarmBounds, type WarmHost } from "./MaskWarmer.js";
import { nestingRepeats } from "./nestingRepeats.js";

/** A mask with more tokens than this is wide: followed by its one-byte steps, not by its tokens (as the prefetch). */
const AHEAD_FANOUT = 16;
/**
 * Positions more than this many tokens (or one-byte steps) after the current one are not warmed: the walk starts
 * again from the next position after every token, so a few steps ahead is what the time between two masks can use,
 * and a recursive grammar (`[[[…`) does not go down one branch for ever.
 */
const AHEAD_LEVELS = 24;
/**
 * Order of the walk, as the first mask's prefetch orders it: a position's cost is its number of steps from the
 * current one plus this much for each continuation other than the first on its path (tokens longest first, bytes in
 * order), so the path of first continuations (the one a model writing the longest tokens follows) comes first. Less
 * than the prefetch's 64: the prefetch's budget serves the whole start of a grammar, where this one serves the next
 * steps of one generation, whose second-likeliest token is worth more than its first path's ninth step.
 */
const AHEAD_RANK_WEIGHT = 8;
/**
 * Units of work counted for each position taken from the queue, beside its trie walk and determinization: a walk
 * through positions whose masks are all known walks no trie node, and would otherwise go on through every
 * continuation within AHEAD_LEVELS on a call of any size.
 */
const POSITION_WORK = 4;

/** A queued position: its parent configuration and the token (or byte) after it, until it is stepped. */
interface Position {
  cost: number;
  order: number;
  /** The parent configuration until stepped (see AheadWarmer.resolve), then its own. */
  c: number;
  /** The token id after the parent, -1 - b for a one-byte step of byte b, or STEPPED. */
  via: number;
  /** For a one-byte step: the parent's nesting (nestingRepeats), which the position may not pass; else -1. */
  nesting: number;
  level: number;
}

const STEPPED = -(2 ** 30);

/**
 * The warm-up ahead of a generation (see MaskTable.warmAhead): from the configuration a matcher is at, the masks of
 * the positions it can reach next, best first as the first mask's prefetch goes (the current position, then a narrow
 * mask's tokens longest first and a wide one's one-byte steps, the path of first continuations before any other),
 * within a counted budget of work per call. Calls from the same configuration go on where the last stopped; a call
 * from another one (the generation accepted a token) starts afresh from it. Every mask is computed by the table's own
 * compute; a walk that would pass what is left stops and stores nothing. It stops below the tables' bounds, as the
 * warm-up from the start does (nearWarmBounds), and never makes a step meet a bound sooner than it would alone.
 */
export class AheadWarmer {
  /** Masks computed ahead (they were not known), walks stopped at a call's end, positions left to their steps. */
  computed = 0;
  stopped = 0;
  left = 0;
  /** Why the last call ended before its budget: the tables near a bound, or a limit met (left to the steps). */
  stopReason: "done" | "bounds" | "limit" | undefined;
  private from = -1;
  private epoch = -1;
  private debt = 0;
  private readonly heap = new CostHeap<Position>();
  private seen = new Set<number>();
  /** Walks stopped, by configuration, with the work they had reached: they need more than that (kept per epoch). */
  private readonly need = new Map<number, number>();

  constructor(private readonly host: WarmHost) {}

  /** Spends at most about `work` units ahead of configuration `c`; returns whether there is more to do from it. */
  run(c: number, work: number): boolean {
    const A = this.host.automaton;
    if (this.epoch !== A.tableEpoch) {
      this.epoch = A.tableEpoch;
      this.need.clear();
      this.from = -1;
    }
    if (c !== this.from) this.restart(c);
    const { host } = this;
    const start = host.work();
    const end = start + work - this.debt;
    this.debt = 0;
    let visits = 0;
    try {
      while (this.heap.size > 0) {
        const left = end - host.work() - POSITION_WORK * visits;
        if (left <= 0) break;
        if (nearWarmBounds(host)) {
          this.finish("bounds");
          break;
        }
        const top = this.heap.peek()!;
        visits++;
        if (!this.resolve(top)) {
          this.heap.pop();
          continue;
        }
        const p = top.c;
        if (!host.known(p)) {
          const need = this.need.get(p) ?? 0;
          if (need >= work) {
            // more than a whole call: left to the step; such a mask is wide, followed by its one-byte steps
            this.heap.pop();
            this.left++;
            if (top.level < AHEAD_LEVELS) this.expand(top, true);
            continue;
          }
          if (need >= left) break; // the next call from here starts with it
          if (!host.computeWithin(p, left)) {
            this.need.set(p, left);
            this.stopped++;
            continue;
          }
          this.computed++;
        }
        this.heap.pop();
        if (top.level < AHEAD_LEVELS) this.expand(top, false);
      }
    } catch (e) {
      // a bound met (the tables were started afresh, as a step does), or a limit of the automaton met by a position
      // the generation may never reach: left to the step that reaches it
      if (!host.tablesFull(e) && !(e instanceof LimitExceededError)) throw e;
      this.finish("limit");
    }
    if (this.epoch !== A.tableEpoch) this.finish("limit");
    this.debt = Math.max(0, host.work() + POSITION_WORK * visits - end);
    if (this.heap.size === 0 && this.stopReason === undefined) this.finish("done");
    return this.heap.size > 0;
  }

  private restart(c: number): void {
    this.from = c;
    this.stopReason = undefined;
    this.heap.clear();
    this.seen = new Set([c]);
    if (c >= 0) this.heap.push({ cost: 0, order: 0, c, via: STEPPED, nesting: -1, level: 0 });
  }

  /** Nothing more from this configuration (until the generation moves on): the queue is dropped. */
  private finish(why: "done" | "bounds" | "limit"): void {
    this.stopReason ??= why;
    this.heap.clear();
    this.seen = new Set();
  }

  /**
   * The positions after `from`, as the prefetch follows them: a narrow mask by each of its tokens, longest first; a
   * wide one (or one left unknown, `wide`) by its one-byte steps (one per R-state they lead to inside one frame), not
   * into more nesting.
   */
  private expand(from: Position, wide: boolean): void {
    const { c, level, cost } = from;
    const next = followedSteps(this.host, c, wide, AHEAD_FANOUT);
    let rank = 0;
    if ("bytes" in next) {
      for (const b of next.bytes) {
        const at = cost + 1 + AHEAD_RANK_WEIGHT * rank++;
        this.heap.push({ cost: at, order: 0, c, via: -1 - b, nesting: next.nesting, level: level + 1 });
      }
      return;
    }
    for (const id of next.tokens)
      this.heap.push({
        cost: cost + 1 + AHEAD_RANK_WEIGHT * rank++,
        order: 0,
        c,
        via: id,
        nesting: -1,
        level: level + 1,
      });
  }

  /** Steps a position from its parent when it comes first; false when it is dead, seen, or into more nesting. */
  private resolve(p: Position): boolean {
    if (p.via === STEPPED) return true;
    const A = this.host.automaton;
    let s = p.c;
    if (p.via < 0) s = A.step(s, -1 - p.via);
    else {
      const { bytes, offsets } = this.host.vocab;
      for (let i = offsets[p.via], e = offsets[p.via + 1]; i < e && s >= 0; i++) s = A.step(s, bytes[i]);
    }
    p.via = STEPPED;
    if (s < 0 || this.seen.has(s) || (p.nesting >= 0 && nestingRepeats(A, s) > p.nesting)) return false;
    this.seen.add(s);
    p.c = s;
    return true;
  }
}
