import { LimitExceededError, ToolgramError } from "../errors.js";
import { BoundedMap } from "../util/BoundedMap.js";
import { TOKEN_TEXT, type Vocabulary } from "../vocab/Vocabulary.js";
import type { Automaton } from "./Automaton.js";
import { CompletionDistance } from "./CompletionDistance.js";
import type { BudgetLists } from "./MaskCache.js";
import { DEFERRED_HOLD } from "./buildNfa.js";
import { forEachSet } from "./maskBits.js";
import { MaskWalk, WALK_LIMIT } from "./MaskWalk.js";
import { MaskWarmer, type WarmHost } from "./MaskWarmer.js";
import { AheadWarmer } from "./AheadWarmer.js";
import { TAIL_FRAME } from "./NfaBuilder.js";
import { nestingRepeats } from "./nestingRepeats.js";
import { plainTrie } from "./plainText.js";
import { framesWarmedWhole, SHARED_LOCALS_CAP } from "./sharedFrameMasks.js";
import { tablesFull } from "./tablesFull.js";
import { singleByteTokens } from "./trieByByte.js";

/** A frame with more R-states than this is not warmed beyond its start (a string's content has about 15). */
const WARM_FRAME_RSTATES = 64;
/** Trie nodes the warm of a frame's other R-states may walk in all (toolgram's string content: 24,506). */
const WARM_FRAME_NODES = 65536;

/**
 * Work the first mask of a grammar may spend on the masks that follow it (MaskTable.prefetch), in trie nodes walked
 * plus PREFETCH_CLOSURE_WEIGHT per epsilon closure walked (an R-state made or found) and per configuration made: each
 * about as costly as that many nodes. Counted in work, never in time, so a prefetch does the same on any machine.
 * The budget trades the first mask against the masks after it: on the JSONSchemaBench sample, 6,144 left the mask
 * p99 at 0.8–1.1× XGrammar's in some runs, 8,192 took the first mask to 0.10–0.11× (a record of those runs:
 * docs/perf/2026-11-26-cold-masks.md).
 */
export const PREFETCH_WORK = 7168;
export const PREFETCH_CLOSURE_WEIGHT = 16;
/** A prefetched mask with more tokens than this is wide: followed by its one-byte steps, not by its tokens. */
const PREFETCH_FANOUT = 16;
/**
 * Positions more than this many tokens (or one-byte steps) after the start are not prefetched: a recursive grammar
 * (`[[[…`) would otherwise go down one branch ever deeper, and make stacks deeper than any decoding's first steps.
 */
const PREFETCH_TOKENS = 48;
/**
 * A prefetched position whose walk passes this many trie nodes is left to the step that needs it (a string frame
 * met for the first time in the process: a walk of the whole trie), and the prefetch goes on with the next one.
 */
const PREFETCH_POSITION_NODES = 1024;
/**
 * Order of the prefetch: a position's cost is its number of tokens from the start plus this much for each time its
 * path took a continuation other than the first (tokens longest first, bytes in order), so every position on the
 * path of first continuations comes before any second one (the weight is above PREFETCH_TOKENS).
 */
const PREFETCH_RANK_WEIGHT = 64;

/**
 * Token masks of one automaton for one vocabulary, cached per configuration.
 *
 * A miss walks the vocabulary's token trie, skipping a whole subtree as soon as the automaton dies. When the
 * configuration is a frame called from somewhere (a string inside an object, a value inside an array), the walk is
 * split: the frame's own part (usually almost the whole vocabulary inside a string) is walked once per frame state
 * and shared by every calling context; only the subtrees where the frame returns are walked from the caller.
 * A hit is a copy (dense mask) or a zero-fill plus a few bit sets (sparse mask: the list of allowed ids).
 *
 * In three layers: MaskCache stores the masks, MaskWalk walks the trie and computes them, and this class reads them
 * out, warms the shared frames and prefetches the masks after the first one, and keeps the token-budget lists.
 */
export class MaskTable extends MaskWalk {
  protected distance: CompletionDistance | undefined;
  /** The first mask's shared frames were looked at (see warmSharedFrames). */
  protected warmed = false;
  /** Self-contained frames some of whose local masks warmSharedFrames computed (not found computed by another grammar). */
  framesWarmed = 0;
  /** The first mask's prefetch ran (see prefetch). */
  protected prefetched = false;
  /** Configurations the prefetch reached (their masks computed, but for the last ones when the budget ran out). */
  prefetchedMasks = 0;
  /** Prefetches stopped inside a compute (its walk passed the budget, or a limit of the automaton was met). */
  prefetchStops = 0;

  /** The warm-up of idle time (see warm), made on its first call. */
  warmer: MaskWarmer | undefined;
  /** The warm-up ahead of a generation (see warmAhead), made on its first call. */
  aheadWarmer: AheadWarmer | undefined;

  /** The automaton's epoch the cached masks belong to (see Automaton.reset). */
  private epoch: number;

  constructor(automaton: Automaton, vocab: Vocabulary) {
    super(automaton, vocab);
    this.epoch = automaton.tableEpoch;
  }

  /**
   * Called before each use: after the automaton's tables were started afresh (Automaton.reset), every mask cached
   * here is keyed by ids that now mean other configurations, and is dropped; a compute a reset interrupted (its
   * scratch half written) is cleaned.
   */
  syncEpoch(): void {
    if (this.epoch === this.automaton.tableEpoch) return;
    this.epoch = this.automaton.tableEpoch;
    this.dropMasks();
    this.cleanAfterStop();
    this.subLevel = 0;
    this.distance = undefined;
  }

  /**
   * Starts the automaton's tables afresh (see Automaton.reset) after a decoding met one of their bounds, and drops
   * this table's masks.
   */
  resetAutomaton(): void {
    this.automaton.reset();
    this.syncEpoch();
  }

  atomIndexOf(tokenId: number): number {
    return this.atomOfToken.get(tokenId) ?? -1;
  }

  /**
   * Distances to completion for token budgets, built on first use. Throws INVALID_OPTION when the vocabulary lacks a
   * single-byte token for some byte value: then a distance in bytes would not bound the tokens still needed.
   */
  completionDistance(): CompletionDistance {
    if (this.distance) return this.distance;
    const have = new Uint8Array(256);
    const { kind, bytes, offsets, size } = this.vocab;
    for (let id = 0; id < size; id++) {
      if (kind[id] === TOKEN_TEXT && offsets[id + 1] - offsets[id] === 1) have[bytes[offsets[id]]] = 1;
    }
    const missing = have.indexOf(0);
    if (missing >= 0) {
      throw new ToolgramError(
        "INVALID_OPTION",
        `token budgets need a vocabulary with a single-byte token for every byte value (byte-level BPE); this one has none for byte 0x${missing.toString(16).padStart(2, "0")}`,
      );
    }
    const atomAvailable = this.automaton.atomTexts.map(() => false);
    for (let k = 1; k < this.atomTokens.length; k += 2) atomAvailable[this.atomTokens[k]] = true;
    this.distance = new CompletionDistance(this.automaton, atomAvailable);
    return this.distance;
  }

  /**
   * The allowed ordinary tokens of configuration `c` whose completion distance after them differs from `c`'s own,
   * with those distances, cached per configuration. Most tokens keep the distance (inside a string, every token
   * that stays in it), so a budgeted mask is the plain mask minus the raisers above its limit, or — when the budget
   * only allows progress — just the lowerers: a short list either way, not a walk of the vocabulary.
   */
  budgetLists(c: number, next: (id: number) => number): BudgetLists {
    const known = this.budget[c];
    if (known !== undefined) return known;
    const dist = this.completionDistance();
    const here = dist.ofConfig(c);
    const bits = new Uint32Array(this.words);
    this.fill(c, bits);
    const raisers: [number, number][] = [];
    const lowerers: [number, number][] = [];
    const eos = this.vocab.eosTokenIds;
    forEachSet(bits, (id) => {
      if (eos.includes(id)) return;
      const d = dist.ofConfig(next(id));
      if (d > here) raisers.push([d, id]);
      else if (d < here) lowerers.push([d, id]);
    });
    raisers.sort((a, b) => b[0] - a[0]); // farthest first: a filter stops at the first one within its limit
    const lists: BudgetLists = {
      here,
      raiserIds: Int32Array.from(raisers, (r) => r[1]),
      raiserDist: Int32Array.from(raisers, (r) => r[0]),
      lowererIds: Int32Array.from(lowerers, (r) => r[1]),
      lowererDist: Int32Array.from(lowerers, (r) => r[0]),
    };
    this.budget[c] = lists;
    this.cachedBytes += (raisers.length + lowerers.length) * 8;
    return lists;
  }

  /**
   * Computes ahead, within `work` units of the prefetch's measure (trie nodes walked, PREFETCH_CLOSURE_WEIGHT per
   * closure walked and configuration made), the masks a decoding reaches soonest, past the first mask's prefetch (see
   * MaskWarmer); computes the first mask first if no step has. Returns whether there is more to do. For idle time: a
   * prompt being evaluated, a worker between requests. The masks are the ones a step would compute.
   */
  warm(work: number): boolean {
    this.syncEpoch();
    this.warmer ??= new MaskWarmer(this.warmHost());
    return this.warmer.run(work);
  }

  /**
   * Computes, within about `work` units of the same measure, the masks of the positions a generation at configuration
   * `c` reaches next (see AheadWarmer); returns whether there is more to do from `c`.
   */
  warmAhead(c: number, work: number): boolean {
    this.syncEpoch();
    this.aheadWarmer ??= new AheadWarmer(this.warmHost());
    return this.aheadWarmer.run(c, work);
  }

  private warmHost(): WarmHost {
    const A = this.automaton;
    let first: Uint32Array | undefined;
    return {
      automaton: A,
      vocab: this.vocab,
      work: () => this.nodesWalked + PREFETCH_CLOSURE_WEIGHT * (A.closureWalks + A.configCount),
      known: (c) => this.known(c),
      computeWithin: (c, nodes) => {
        this.walkLimit = this.nodesWalked + nodes;
        try {
          this.compute(c);
          return true;
        } catch (e) {
          this.cleanAfterStop();
          if (e === WALK_LIMIT) return false;
          throw e;
        } finally {
          this.walkLimit = Infinity;
        }
      },
      sparseIds: (c) => this.sparse[c],
      firstMask: () => this.fill(A.initial, (first ??= new Uint32Array(this.words))),
      cachedBytes: () => this.cachedBytes,
      tablesFull: (e) => {
        if (!tablesFull(e)) return false;
        this.resetAutomaton();
        return true;
      },
    };
  }

  /** Write the mask of configuration `c` into `bits` (every word is overwritten). */
  fill(c: number, bits: Uint32Array): void {
    if (c < 0) {
      bits.fill(0);
      return;
    }
    if (!this.known(c)) {
      this.compute(c);
      if (c === this.automaton.initial && !this.warmed) this.warmSharedFrames();
      if (c === this.automaton.initial && !this.prefetched) {
        const nfa = this.automaton.nfa;
        // not where the grammar is built lazily (large tool sets): there the masks that follow would build the parts
        // of it the first mask leaves unbuilt, which is what building it lazily saves
        if (!nfa.lazy || nfa.deferred) this.prefetch(c);
        else this.prefetched = true;
        // a deferred grammar is built whole at the next frame a decoding enters (see Nfa.deferred)
        nfa.firstMaskDone();
      }
    }
    this.readMask(c, bits);
  }

  /**
   * With the first mask of a grammar: the local masks of its built self-contained frames (a string's content and
   * closing quote, free text) that no grammar of the process has computed for this vocabulary. Most are nearly the
   * whole vocabulary, a walk of the whole trie (326,000 of Qwen3's 333,000 nodes inside a string, 7 ms warm and
   * several times that the first time the process walks a string); computed here, once per process and frame
   * structure, instead of in the middle of a decoding where its first string starts. A frame another grammar
   * computed costs a lookup. Not counted in the prefetch's budget: the walk is the process's, not the grammar's.
   */
  private warmSharedFrames(): void {
    this.warmed = true;
    // the vocabulary's plain tokens (see MaskWalk.composePlain), once per process and vocabulary: a pass over the trie
    if (this.sharePlain) plainTrie(this.trie, this.words);
    const A = this.automaton;
    const { frameKey } = A.nfa;
    let whole = framesWarmedWhole.get(this.vocab);
    if (!whole)
      framesWarmedWhole.set(this.vocab, (whole = new BoundedMap({ maxEntries: SHARED_LOCALS_CAP, order: "use" })));
    for (let f = 0; f < frameKey.length; f++) {
      const key = frameKey[f];
      if (key === undefined || key.startsWith(`${TAIL_FRAME}|`)) continue;
      const rs = A.builtFrameStart(f);
      // Only a frame that starts with its loop (a string's content without a minimum length, free text): a string
      // with a minimum length or a pattern starts with a chain of R-states, each a walk of its own that a decoding
      // may never reach, so it is left to the steps, as before.
      if (rs < 0 || !this.loopsAtStart(rs)) continue;
      const before = this.nodesWalked;
      if (!this.local[rs]) this.localMask(rs);
      // A string's other R-states (after a backslash, inside \u00XX, inside a character's UTF-8 bytes) are where a
      // token may end: their local masks walk the subtrees of the bytes they read (an escape letter's tokens: 6,931
      // nodes after a backslash, a continuation byte's up to 12,000), about 24,500 nodes for all 15 of them, each a
      // step of its own the first time a decoding of the process meets it. Not free text, whose start is complete:
      // its every other R-state (after `<`, `<t`...) continues with the whole vocabulary. At most WARM_FRAME_NODES
      // for them all, once per process and frame structure: a frame whose R-states walk more leaves the rest to the
      // steps that meet them.
      if (!A.rsIsFinal(rs) && !whole.has(key)) {
        whole.set(key, true);
        const seen = new Set([rs]);
        const queue = [rs];
        for (let h = 0; h < queue.length && queue.length <= WARM_FRAME_RSTATES; h++) {
          A.rsRowOf(queue[h]);
          const row = A.rsTable;
          const base = queue[h] * 256;
          for (let b = 0; b < 256; b++) {
            const u = row[base + b];
            if (u >= 0 && !seen.has(u)) {
              seen.add(u);
              queue.push(u);
            }
          }
        }
        if (queue.length <= WARM_FRAME_RSTATES) {
          this.walkLimit = this.nodesWalked + WARM_FRAME_NODES;
          try {
            for (const r of queue) if (!this.local[r]) this.localMask(r);
          } catch (e) {
            if (e !== WALK_LIMIT) throw e;
            // the stopped walk stored nothing; its scratch is cleaned as after a stopped prefetch
            this.nSet = -1;
            this.localScratch.fill(0);
            for (const b of this.subBits) b?.fill(0);
          } finally {
            this.walkLimit = Infinity;
          }
        }
      }
      if (this.nodesWalked > before) this.framesWarmed++;
    }
  }

  /** R-state `rs` reads a printable ASCII byte back into itself: a wide loop (a string's content, free text) starts there. */
  private loopsAtStart(rs: number): boolean {
    const A = this.automaton;
    A.rsRowOf(rs);
    const row = A.rsTable;
    for (let b = 0x20; b < 0x7f; b++) if (row[rs * 256 + b] === rs) return true;
    return false;
  }

  /**
   * The masks of the configurations a decoding reaches from `c0`, computed with the first mask of the grammar within
   * PREFETCH_WORK, so that the masks of the steps that follow are hits. A mask with few tokens (a key, punctuation,
   * the literal between two values) is followed by each of its tokens, longest first; a wide one (inside a string, a
   * value's first byte) by its one-byte steps (ASCII bytes that are a token alone), which lead to the few positions
   * a decoding goes through there: a string's start after ` "`, its content, the caller after its closing quote, a
   * value's first byte. Best first: the path of first continuations (`{"`, the key's longest tokens, `":`, ` `, `"`,
   * the string, `",`, the next key...) before any second one (see PREFETCH_RANK_WEIGHT), so the budget reaches the
   * later members of an object instead of every tokenization of its first key. A one-byte step into more nesting
   * of one frame than its position has (`[[`) is not followed, nor are the one-byte steps of the start itself when its
   * mask is wide (free text before tool calls: any token leads anywhere, and there is no structure near it).
   */
  private prefetch(c0: number): void {
    this.prefetched = true;
    const A = this.automaton;
    const { bytes, offsets, kind } = this.vocab;
    const one = singleByteTokens(this.vocab);
    const work = (): number => this.nodesWalked + PREFETCH_CLOSURE_WEIGHT * (A.closureWalks + A.configCount);
    const end = work() + PREFETCH_WORK;
    // a binary min-heap of positions by cost (then configuration id, for a fixed order)
    const hCost: number[] = [];
    const hConfig: number[] = [];
    const hLevel: number[] = [];
    const before = (i: number, j: number): boolean =>
      hCost[i] < hCost[j] || (hCost[i] === hCost[j] && hConfig[i] < hConfig[j]);
    const swap = (i: number, j: number): void => {
      [hCost[i], hCost[j]] = [hCost[j], hCost[i]];
      [hConfig[i], hConfig[j]] = [hConfig[j], hConfig[i]];
      [hLevel[i], hLevel[j]] = [hLevel[j], hLevel[i]];
    };
    const seen = new Set<number>([c0]);
    const push = (cost: number, c: number, level: number): void => {
      seen.add(c);
      hCost.push(cost);
      hConfig.push(c);
      hLevel.push(level);
      for (let i = hCost.length - 1; i > 0; ) {
        const p = (i - 1) >> 1;
        if (!before(i, p)) break;
        swap(i, p);
        i = p;
      }
    };
    const pop = (): void => {
      const last = hCost.length - 1;
      swap(0, last);
      hCost.pop();
      hConfig.pop();
      hLevel.pop();
      for (let i = 0; ; ) {
        const l = 2 * i + 1;
        let m = i;
        if (l < hCost.length && before(l, m)) m = l;
        if (l + 1 < hCost.length && before(l + 1, m)) m = l + 1;
        if (m === i) break;
        swap(i, m);
        i = m;
      }
    };
    hCost.push(0);
    hConfig.push(c0);
    hLevel.push(0);
    const follow: number[] = [];
    const targets = new Set<number>();
    let h = 0;
    // a deferred grammar is not built whole by a prefetch (where a call is required, the names' mask would): the
    // prefetch stops there, and the step at the names builds it
    A.nfa.holdDeferred = A.nfa.deferred;
    try {
      for (; hCost.length > 0; h++) {
        const cost = hCost[0];
        const c = hConfig[0];
        const level = hLevel[0];
        pop();
        const left = end - work();
        if (left <= 0) break;
        if (!this.known(c)) {
          // a walk stops when it passes its share: a mask that costs more (a new string frame: a walk of the whole
          // trie) is left to the step that needs it
          this.walkLimit = this.nodesWalked + Math.min(left, PREFETCH_POSITION_NODES);
          try {
            this.compute(c);
          } catch (e) {
            if (e !== WALK_LIMIT) throw e;
            this.prefetchStops++;
            this.cleanAfterStop();
            continue;
          }
        }
        if (level >= PREFETCH_TOKENS) continue;
        const ids = this.sparse[c];
        let rank = 0;
        if (ids === undefined || ids.length > PREFETCH_FANOUT) {
          if (c === c0) continue;
          const nesting = nestingRepeats(A, c);
          // inside one frame's R-states (a string's content), the byte's target R-state decides the configuration:
          // one byte per target (a string's letters all lead back to its content), not a step per byte
          const f = A.frameTopOf(c);
          if (f >= 0) A.rsRowOf(f);
          const row = A.rsTable;
          targets.clear();
          for (let b = 0; b < 128; b++) {
            if (one[b] < 0) continue;
            if (f >= 0) {
              const u = row[f * 256 + b];
              if (u < 0 || targets.has(u)) continue;
              targets.add(u);
            }
            const s = A.step(c, b);
            if (s >= 0 && !seen.has(s) && nestingRepeats(A, s) <= nesting)
              push(cost + 1 + PREFETCH_RANK_WEIGHT * rank++, s, level + 1);
          }
          continue;
        }
        follow.length = 0;
        for (let k = 0; k < ids.length; k++) if (kind[ids[k]] === TOKEN_TEXT) follow.push(ids[k]);
        follow.sort((a, b) => offsets[b + 1] - offsets[b] - (offsets[a + 1] - offsets[a]) || a - b);
        for (const id of follow) {
          let s = c;
          for (let i = offsets[id], e = offsets[id + 1]; i < e && s >= 0; i++) s = A.step(s, bytes[i]);
          if (s >= 0 && !seen.has(s)) push(cost + 1 + PREFETCH_RANK_WEIGHT * rank++, s, level + 1);
        }
      }
    } catch (e) {
      // a limit of the automaton (its state cap) reached while prefetching, or a deferred grammar's whole build, is
      // left to the step that reaches it: the first mask itself is computed
      if (e !== DEFERRED_HOLD && !(e instanceof LimitExceededError)) throw e;
      this.prefetchStops++;
      this.cleanAfterStop();
    } finally {
      this.walkLimit = Infinity;
      A.nfa.holdDeferred = false;
    }
    this.prefetchedMasks += h;
  }
}
