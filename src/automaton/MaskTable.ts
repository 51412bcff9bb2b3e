import { TOKEN_ATOM, TOKEN_TEXT, type Vocabulary } from "../vocab/Vocabulary.js";
import type { TokenTrie } from "../vocab/TokenTrie.js";
import { type Automaton, DEAD, UNKNOWN } from "./Automaton.js";
import { DEFERRED_HOLD } from "./buildNfa.js";
import { CompletionDistance } from "./CompletionDistance.js";
import { LimitExceededError, ToolgramError } from "../errors.js";
import { BoundedMap } from "../util/BoundedMap.js";
import { addIds, addIdsExcept, clearWords, countBits, forEachSet, idsOfBits, orWords, setBits } from "./maskBits.js";
import { nestingRepeats } from "./nestingRepeats.js";
import {
  framesWarmedWhole,
  type LocalMask,
  SHARED_LOCALS_CAP,
  SHARED_SUBTREES_BYTES,
  SHARED_SUBTREES_CAP,
  sharedLocals,
  sharedSubtrees,
  type SubtreeMask,
  subtreeBytes,
} from "./sharedFrameMasks.js";
import { nodesByByte, rootChildren, singleByteTokens } from "./trieByByte.js";

/** Cached masks above this many bytes are dropped (a cache: correctness never depends on it). */
const CACHE_BYTES_CAP = 40 << 20;

/** A frame with more R-states than this is not warmed beyond its start (a string's content has about 15). */
const WARM_FRAME_RSTATES = 64;
/** Trie nodes the warm of a frame's other R-states may walk in all (toolgram's string content: 24,506). */
const WARM_FRAME_NODES = 65536;
/** Above this many exits (a 64th of the trie's nodes), a local mask keeps them as a bit per node. */
const EXIT_LIST_FRACTION = 64;

/**
 * A frame entered at a node with a subtree larger than this (nodes) takes the subtree's shared mask: below it, a walk
 * costs less than looking the mask up.
 */
const SUBTREE_MIN_NODES = 16;

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
/** Thrown by a walk that passes MaskTable.walkLimit. */
const WALK_LIMIT = new Error("walk limit");

/** See MaskTable.budgetLists. */
export interface BudgetLists {
  /** Completion distance of the configuration itself. */
  here: number;
  /** Allowed tokens after which the distance is larger, farthest first, and those distances. */
  raiserIds: Int32Array;
  raiserDist: Int32Array;
  /** Allowed tokens after which the distance is smaller, and those distances. */
  lowererIds: Int32Array;
  lowererDist: Int32Array;
}

/** A mask stored as a shared dense local part and the ids added to it (see MaskTable.composite). */
interface CompositeMask {
  base: Uint32Array;
  ids: Int32Array;
}

/**
 * Token masks of one automaton for one vocabulary, cached per configuration.
 *
 * A miss walks the vocabulary's token trie, skipping a whole subtree as soon as the automaton dies. When the
 * configuration is a frame called from somewhere (a string inside an object, a value inside an array), the walk is
 * split: the frame's own part (usually almost the whole vocabulary inside a string) is walked once per frame state
 * and shared by every calling context; only the subtrees where the frame returns are walked from the caller.
 * A hit is a copy (dense mask) or a zero-fill plus a few bit sets (sparse mask: the list of allowed ids).
 */
export class MaskTable {
  readonly automaton: Automaton;
  readonly vocab: Vocabulary;
  readonly words: number;
  private readonly trie: TokenTrie;
  /** [tokenId, atomIndex] for each special/added token whose text is a `token` node of the grammar. */
  private readonly atomTokens: Int32Array;
  private readonly atomOfToken = new Map<number, number>();
  private dense: (Uint32Array | undefined)[] = [];
  private sparse: (Int32Array | undefined)[] = [];
  /**
   * Masks composed from a frame's dense local part (inside a string: most of the vocabulary) and the few tokens the
   * caller adds after the frame's exits: the shared local bitset itself and those ids, not a copy of the whole mask.
   */
  private composite: (CompositeMask | undefined)[] = [];
  /** Set by composeInto when the mask it is composing is `base` plus the ids it counts (see composite). */
  private pendingBase: Uint32Array | undefined;
  private local: (LocalMask | undefined)[] = [];
  /** Subtree masks by R-state and node (rs * trie nodes + node), null where the R-state has no shared key. */
  private subtree = new Map<number, SubtreeMask | null>();
  /** Bitsets and id buffers of subtree masks being computed, by nesting (one computes inside another's walk). */
  private readonly subBits: Uint32Array[] = [];
  private readonly subIds: Int32Array[] = [];
  private subLevel = 0;
  private cachedBytes = 0;
  private readonly stateAt: Int32Array;
  private readonly parentAt: Int32Array;
  private readonly scratch: Uint32Array;
  /** Where a local mask is walked (clean between walks): a sparse one keeps only its ids, not a bitset of its own. */
  private readonly localScratch: Uint32Array;
  /** scratch holds bits from the last compute (cleared lazily: a sparse mask clears only its own words). */
  private scratchDirty = false;
  /**
   * The ids a compute set, in the order set, while fewer than `words` (then the mask is stored sparse without a scan
   * of the bitset); `nSet` counts every set, or is -1 when a compute cannot count (a composed mask: the local part's
   * bits are copied in whole, and a token may be set by both parts).
   */
  private setIds: Int32Array;
  private nSet = -1;
  private computing = false;
  private distance: CompletionDistance | undefined;
  private budget: (BudgetLists | undefined)[] = [];
  /** A walk that passes this many nodes walked in all stops (throws WALK_LIMIT): only while prefetching. */
  private walkLimit = Infinity;
  /** The first mask's shared frames were looked at (see warmSharedFrames). */
  private warmed = false;
  /** Self-contained frames some of whose local masks warmSharedFrames computed (not found computed by another grammar). */
  framesWarmed = 0;
  /** The first mask's prefetch ran (see prefetch). */
  private prefetched = false;
  /** Configurations the prefetch reached (their masks computed, but for the last ones when the budget ran out). */
  prefetchedMasks = 0;
  /** Prefetches stopped inside a compute (its walk passed the budget, or a limit of the automaton was met). */
  prefetchStops = 0;
  /** Trie nodes mask walks have visited so far (a dead node's subtree is skipped, not visited): their work. */
  nodesWalked = 0;
  /** Subtree masks taken by walks that entered a keyed frame (`enterFrame`), and those of them computed here. */
  subtreesTaken = 0;
  subtreesComputed = 0;
  /** Masks whose allowed tokens had to be counted by a scan of the whole bitset (their compute could not count them). */
  bitsetScans = 0;

  constructor(automaton: Automaton, vocab: Vocabulary) {
    this.automaton = automaton;
    this.vocab = vocab;
    this.words = Math.ceil(vocab.size / 32);
    this.trie = vocab.trie;
    const pairs: number[] = [];
    const byText = new Map(automaton.atomTexts.map((t, i) => [t, i]));
    for (const [id, text] of vocab.atoms) {
      const a = byText.get(text);
      if (a !== undefined && vocab.kind[id] === TOKEN_ATOM) {
        pairs.push(id, a);
        this.atomOfToken.set(id, a);
      }
    }
    this.atomTokens = Int32Array.from(pairs);
    this.stateAt = new Int32Array(this.trie.maxDepth + 1);
    this.parentAt = new Int32Array(this.trie.maxDepth + 1);
    this.scratch = new Uint32Array(this.words);
    this.localScratch = new Uint32Array(this.words);
    this.setIds = new Int32Array(this.words);
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

  /** Approximate bytes held by the cached masks. */
  memoryBytes(): number {
    return this.cachedBytes;
  }

  /** Number of configurations whose mask is cached. */
  get cachedMasks(): number {
    let n = 0;
    for (const d of this.dense) if (d) n++;
    for (const s of this.sparse) if (s) n++;
    for (const m of this.composite) if (m) n++;
    return n;
  }

  /** The mask of configuration `c` is cached. */
  private known(c: number): boolean {
    return this.dense[c] !== undefined || this.sparse[c] !== undefined || this.composite[c] !== undefined;
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
    const d = this.dense[c];
    if (d) {
      bits.set(d);
      if (bits.length > d.length) bits.fill(0, d.length);
      return;
    }
    const m = this.composite[c];
    if (m) {
      bits.set(m.base);
      if (bits.length > m.base.length) bits.fill(0, m.base.length);
      setBits(bits, m.ids, m.ids.length);
      return;
    }
    bits.fill(0);
    const ids = this.sparse[c]!;
    setBits(bits, ids, ids.length);
  }

  /**
   * Walk trie nodes [from, to) (a run of whole subtrees at depth `depth[from]`) starting in configuration `start`,
   * setting the bits of accepted tokens. With `exits`, also record nodes reached in a complete configuration.
   *
   * The state at each depth is a configuration (>= 0), or, where the walk is inside one frame that steps by its
   * R-state's row alone (Automaton.frameTopOf), that R-state encoded as -3 - rs with its caller stack in `parentAt`:
   * the walk then follows R-states and makes no configuration for the nodes it passes (making them was most of a
   * cold mask's time), only where it leaves that shape. Where it enters a keyed frame at a node with a large subtree,
   * it takes that subtree's shared mask (`enterFrame`). Exits are recorded from depth `exitMin` on (not the children
   * of the walk's start: its caller handles a start that is complete).
   */
  private walk(
    from: number,
    to: number,
    start: number,
    out: Uint32Array,
    exits: number[] | null,
    exitMin = this.trie.depth[from] + 1,
  ): void {
    if (start < 0) return;
    const A = this.automaton;
    const stateAt = this.stateAt;
    const parentAt = this.parentAt;
    const d0 = this.trie.depth[from] - 1;
    const f0 = A.frameTopOf(start);
    if (f0 >= 0) {
      stateAt[d0] = -3 - f0;
      parentAt[d0] = A.frameParentOf(start);
    } else stateAt[d0] = start;
    if (from !== 0 || to !== this.trie.nodeCount) {
      this.walkRange(from, to, out, exits, exitMin);
      return;
    }
    // the whole trie: its root's children are spread over all of it (a subtree each), so stepping every one of them
    // reads ~256 far-apart entries of each trie array. The start's byte row says which bytes are dead first; only
    // the subtrees of the others are walked.
    const rootChild = rootChildren(this.trie);
    let row: Int32Array;
    let base: number;
    if (f0 >= 0) {
      A.rsRowOf(f0);
      row = A.rsTable;
      base = f0 * 256;
    } else {
      A.recordDeadBytes(start);
      row = A.cTrans;
      base = start * 256;
    }
    for (let b = 0; b < 256; b++) {
      const c = rootChild[b];
      if (c < 0 || row[base + b] === DEAD) continue;
      this.walkRange(c, this.trie.next[c], out, exits, exitMin);
      // a step may have grown the tables
      row = f0 >= 0 ? A.rsTable : A.cTrans;
    }
  }

  /** The walk of trie nodes [from, to) from the state that `walk` put at depth[from] - 1 (see walk). */
  private walkRange(from: number, to: number, out: Uint32Array, exits: number[] | null, exitMin: number): void {
    const A = this.automaton;
    const { byte, depth, next, tokBegin, tokIds } = this.trie;
    const stateAt = this.stateAt;
    const parentAt = this.parentAt;
    let trans = A.cTrans;
    let complete = A.cComplete;
    let rsT = A.rsTable;
    const setIds = this.setIds;
    const words = this.words;
    let nSet = this.nSet;
    let i = from;
    let visited = 0;
    const limit = this.walkLimit - this.nodesWalked;
    while (i < to) {
      if (++visited > limit) {
        this.nodesWalked += visited;
        throw WALK_LIMIT;
      }
      const d = depth[i];
      const s = stateAt[d - 1];
      const b = byte[i];
      // the byte may have entered a frame (a call): only a step of a configuration, or one that leaves the R-state
      // shape, can (a step inside one frame's R-states stays in the frame, even where it loops back to its start)
      let entry = true;
      if (s >= 0) {
        if (exits !== null && d >= exitMin && complete[s] === 1) exits.push(i);
        let t = trans[s * 256 + b];
        if (t === UNKNOWN) {
          t = A.step(s, b);
          trans = A.cTrans;
          complete = A.cComplete;
          rsT = A.rsTable;
        }
        if (t < 0) {
          i = next[i];
          continue;
        }
        const f = A.frameTopOf(t);
        if (f >= 0) {
          stateAt[d] = -3 - f;
          parentAt[d] = A.frameParentOf(t);
        } else stateAt[d] = t;
      } else {
        const r = -3 - s;
        const p = parentAt[d - 1];
        // complete inside a frame only without a caller (with one, this shape is never at its rule's end)
        if (exits !== null && d >= exitMin && p < 0 && A.rsIsFinal(r)) exits.push(i);
        let u = rsT[r * 256 + b];
        if (u === UNKNOWN) {
          A.rsRowOf(r);
          rsT = A.rsTable;
          u = rsT[r * 256 + b];
        }
        if (u < 0) {
          i = next[i];
          continue;
        }
        if (A.rsPlain(u) && (p < 0 || !A.rsIsFinal(u))) {
          stateAt[d] = -3 - u;
          parentAt[d] = p;
          entry = false;
        } else {
          // leaving the shape (a call, or a possible return): the configuration step() would make
          const c = A.configOfStack(u, p);
          trans = A.cTrans;
          complete = A.cComplete;
          rsT = A.rsTable;
          if (c < 0) {
            i = next[i];
            continue;
          }
          stateAt[d] = c;
        }
      }
      const e = tokBegin[i + 1];
      let k = tokBegin[i];
      if (k < e) {
        if (nSet >= 0) {
          // counting: its ids are the sparse mask while there are few. A plain walk sets each token once; the walks
          // of a composed mask may meet a token the local part or another exit already set, which is not counted again
          for (; k < e; k++) {
            const id = tokIds[k];
            const w = id >>> 5;
            const m = 1 << (id & 31);
            if ((out[w] & m) !== 0) continue;
            out[w] |= m;
            if (nSet < words) setIds[nSet] = id;
            nSet++;
          }
        } else {
          for (; k < e; k++) {
            const id = tokIds[k];
            out[id >>> 5] |= 1 << (id & 31);
          }
        }
      }
      if (entry && next[i] - i > SUBTREE_MIN_NODES) {
        this.nSet = nSet;
        if (this.enterFrame(i, d, out, exits, exitMin)) {
          nSet = this.nSet;
          trans = A.cTrans;
          complete = A.cComplete;
          rsT = A.rsTable;
          i = next[i];
          continue;
        }
      }
      i++;
    }
    if (nSet >= 0) this.nSet = nSet;
    this.nodesWalked += visited;
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
    const A = this.automaton;
    const { frameKey } = A.nfa;
    let whole = framesWarmedWhole.get(this.vocab);
    if (!whole)
      framesWarmedWhole.set(this.vocab, (whole = new BoundedMap({ maxEntries: SHARED_LOCALS_CAP, order: "use" })));
    for (let f = 0; f < frameKey.length; f++) {
      const key = frameKey[f];
      if (key === undefined) continue;
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

  /** A compute stopped inside (a prefetch's walk limit) stored nothing; its scratch is cleaned as after any compute. */
  private cleanAfterStop(): void {
    this.computing = false;
    this.pendingBase = undefined;
    this.nSet = -1;
    this.scratchDirty = true;
    this.localScratch.fill(0);
    for (const b of this.subBits) b?.fill(0);
  }

  /**
   * The walk is at node `i` (depth `d`) in `stateAt[d]`. When that is one stack whose top is the start of a keyed
   * frame (a string, the any-value rule...) with a caller below it, the subtree below `i` is what the frame reads alone
   * (its subtree mask, computed once per process and vocabulary) and, below its exits, what the caller reads after it
   * returns: adds those tokens to `out` and returns true, so the walk skips the subtree. Else returns false.
   */
  private enterFrame(i: number, d: number, out: Uint32Array, exits: number[] | null, exitMin: number): boolean {
    const A = this.automaton;
    const s = this.stateAt[d];
    let rs: number;
    let p: number;
    if (s <= -3) {
      rs = -3 - s;
      p = this.parentAt[d];
    } else {
      const split = A.splitTop(s);
      if (split === undefined) return false;
      [rs, p] = split;
    }
    if (p < 0 || !A.rsIsFrameStart(rs)) return false;
    const sub = this.subtreeMask(rs, i);
    if (sub === null) return false;
    this.subtreesTaken++;
    this.nSet = addIds(out, sub.ids, this.setIds, this.nSet, this.words);
    const P = A.stackConfig(p);
    if (P >= 0) {
      const { next } = this.trie;
      this.walkExits(sub.exits, P, out, exits, exitMin);
      if (sub.selfExit) this.walk(i + 1, next[i], P, out, exits, exitMin);
    }
    return true;
  }

  /** Exit nodes in the order of their bytes (see walkExits). */
  private byByte(exits: number[]): Int32Array {
    const { byte } = this.trie;
    return Int32Array.from(exits).sort((a, b) => byte[a] - byte[b] || a - b);
  }

  /**
   * Walks the subtrees of `exits` (in the order of their bytes) from the caller's configuration `P`. An exit is where
   * a frame may have returned, before its node's byte: a string's exits are every node after a closing quote (about 400
   * in Qwen3's trie, 80 distinct bytes), of which a caller reads a byte or two (a comma, a closing brace), so each run
   * of one byte is skipped at once where `P` cannot read it (recorded as exits of `rec`'s walk, as `walk` would have,
   * where `P` is complete).
   */
  private walkExits(exits: Int32Array, P: number, out: Uint32Array, rec: number[] | null, exitMin: number): void {
    const A = this.automaton;
    const { byte, next, depth } = this.trie;
    // where P is complete (the caller's frame may return too), every exit is one of the walk being recorded
    const recordAll = rec !== null && A.isComplete(P);
    for (let k = 0; k < exits.length; ) {
      const b = byte[exits[k]];
      let e = k + 1;
      while (e < exits.length && byte[exits[e]] === b) e++;
      if (A.step(P, b) >= 0) for (; k < e; k++) this.walk(exits[k], next[exits[k]], P, out, rec, exitMin);
      else if (recordAll) for (; k < e; k++) if (depth[exits[k]] >= exitMin) rec.push(exits[k]);
      k = e;
    }
  }

  /** The subtree mask of frame start `rs` below node `node` (see SubtreeMask), or null when `rs` has no shared key. */
  private subtreeMask(rs: number, node: number): SubtreeMask | null {
    const memo = rs * this.trie.nodeCount + node;
    const known = this.subtree.get(memo);
    if (known !== undefined) return known;
    const A = this.automaton;
    const key = A.sharedKey(rs);
    if (key === undefined) {
      this.subtree.set(memo, null);
      return null;
    }
    let shared = sharedSubtrees.get(this.vocab);
    if (!shared) {
      shared = new BoundedMap({
        maxEntries: SHARED_SUBTREES_CAP,
        maxSize: SHARED_SUBTREES_BYTES,
        sizeOf: subtreeBytes,
        order: "use",
      });
      sharedSubtrees.set(this.vocab, shared);
    }
    const fullKey = `${key}@${node}`;
    const hit = shared.get(fullKey);
    if (hit !== undefined) {
      this.subtree.set(memo, hit);
      return hit;
    }
    // computed in buffers of its own: it may run inside another walk's (or subtree mask's) counting
    const level = this.subLevel++;
    const buf = (this.subBits[level] ??= new Uint32Array(this.words));
    const outerIds = this.setIds;
    const outerSet = this.nSet;
    this.setIds = this.subIds[level] ??= new Int32Array(this.words);
    this.nSet = 0;
    const L = A.localConfig(rs);
    const exits: number[] = [];
    let count: number;
    try {
      this.walk(node + 1, this.trie.next[node], L, buf, exits);
      count = this.nSet;
    } finally {
      this.subLevel--;
      this.setIds = outerIds;
      this.nSet = outerSet;
    }
    let ids: Int32Array;
    if (count < this.words) {
      ids = this.subIds[level].slice(0, count);
      clearWords(buf, ids, count);
    } else {
      ids = new Int32Array(count);
      let k = 0;
      forEachSet(buf, (id) => (ids[k++] = id));
      buf.fill(0);
    }
    const sub: SubtreeMask = { ids, exits: this.byByte(exits), selfExit: A.isComplete(L) };
    this.subtreesComputed++;
    this.subtree.set(memo, sub);
    shared.set(fullKey, sub);
    this.cachedBytes += subtreeBytes(sub);
    return sub;
  }

  /** Sets one id's bit outside a walk (special tokens, EOS: not in the trie), keeping the count of a counting compute. */
  private setOne(out: Uint32Array, id: number): void {
    const w = id >>> 5;
    const m = 1 << (id & 31);
    if ((out[w] & m) !== 0) return;
    out[w] |= m;
    if (this.nSet >= 0) {
      if (this.nSet < this.words) this.setIds[this.nSet] = id;
      this.nSet++;
    }
  }

  private localMask(rs: number): LocalMask {
    let l = this.local[rs];
    if (l) return l;
    const A = this.automaton;
    const key = A.sharedKey(rs);
    let shared = sharedLocals.get(this.vocab);
    if (!shared)
      sharedLocals.set(this.vocab, (shared = new BoundedMap({ maxEntries: SHARED_LOCALS_CAP, order: "use" })));
    if (key !== undefined) {
      // most recently used last: a full table drops its least recently used mask, not the new one
      const hit = shared.get(key);
      if (hit) {
        this.local[rs] = hit;
        return hit;
      }
    }
    const L = A.localConfig(rs);
    const buf = this.localScratch;
    const exits: number[] = [];
    this.nSet = 0;
    this.walk(0, this.trie.nodeCount, L, buf, exits);
    const count = this.nSet;
    this.nSet = -1;
    // a plain walk counts exactly; a sparse part keeps its ids (most local masks outside strings: a few tokens), so a
    // first visit neither allocates nor scans a bitset of the whole vocabulary for it
    let part: { bits: Uint32Array } | { ids: Int32Array };
    if (count < this.words) {
      const ids = this.setIds.slice(0, count);
      clearWords(buf, ids, count);
      part = { ids };
    } else {
      part = { bits: buf.slice() };
      buf.fill(0);
    }
    const rootExit = A.isComplete(L);
    if (exits.length > this.trie.nodeCount / EXIT_LIST_FRACTION) {
      const exitBits = new Uint32Array(Math.ceil(this.trie.nodeCount / 32));
      for (const x of exits) exitBits[x >>> 5] |= 1 << (x & 31);
      l = { ...part, count, exits: new Int32Array(0), exitBits, rootExit };
    } else {
      l = { ...part, count, exits: this.byByte(exits), rootExit };
    }
    this.local[rs] = l;
    if (key !== undefined) {
      shared.set(key, l);
    }
    this.cachedBytes += (l.bits ? this.words * 4 : count * 4) + l.exits.length * 4 + (l.exitBits?.byteLength ?? 0);
    return l;
  }

  private compute(c: number): void {
    // scratch, copied out by store(); a nested compute (the caller's mask) gets its own buffer
    const nested = this.computing;
    let out: Uint32Array;
    if (nested) out = new Uint32Array(this.words);
    else {
      out = this.scratch;
      if (this.scratchDirty) out.fill(0);
      this.scratchDirty = true;
    }
    this.computing = true;
    this.pendingBase = undefined;
    try {
      this.composeInto(c, out);
    } finally {
      if (!nested) this.computing = false;
    }
    // the count is this compute's: a nested compute (the caller's mask) runs before it starts counting (composeInto)
    this.store(c, out, this.nSet);
    this.nSet = -1;
  }

  private composeInto(c: number, out: Uint32Array): void {
    const A = this.automaton;
    const split = A.splitTop(c);
    if (split === undefined) {
      this.nSet = 0;
      this.walk(0, this.trie.nodeCount, c, out, null);
    } else {
      const [top, parent] = split;
      const P = A.stackConfig(parent);
      const local = this.localMask(top);
      // a frame that may return before any byte takes in the caller's whole mask: computed first (a nested compute
      // uses the count and the ids for itself), so that this compute's count can start after it
      if (local.rootExit && P >= 0 && !this.known(P)) this.compute(P);
      const localIds = local.ids;
      if (localIds !== undefined) {
        setBits(out, localIds, localIds.length);
        // the count goes on from the local part's: the walks below count only the tokens they add (see walk), so the
        // mask is stored without a scan of the bitset, and a sparse one clears only its own words of scratch afterwards
        this.nSet = local.count;
        this.setIds.set(localIds, 0);
      } else if (!(local.rootExit && P >= 0 && this.sparse[P] === undefined)) {
        // a dense local part (inside a string) is not copied: the walks below count the ids they add to it (a token
        // of the local part met again is counted twice, which the mask's union does not mind), and the mask is stored
        // as the shared local bitset plus those ids (see composite)
        this.pendingBase = local.bits!;
        this.nSet = 0;
      } else {
        out.set(local.bits!);
        this.nSet = local.count;
      }
      if (local.rootExit && P >= 0) {
        // the frame may return before any byte: everything the caller allows but its end tokens and special tokens,
        // which this configuration decides for itself (below)
        const callerIds = this.sparse[P];
        if (callerIds !== undefined) {
          // usually a few tokens (after a value: a comma or a closing brace): added one by one, still counted
          this.nSet = addIdsExcept(
            out,
            callerIds,
            this.setIds,
            this.nSet,
            this.words,
            this.vocab.eosTokenIds,
            this.atomOfToken,
          );
        } else {
          this.nSet = -1;
          const d = this.dense[P];
          if (d !== undefined) orWords(out, d);
          else {
            const m = this.composite[P]!;
            orWords(out, m.base);
            setBits(out, m.ids, m.ids.length);
          }
          for (const e of this.vocab.eosTokenIds) out[e >>> 5] &= ~(1 << (e & 31));
          for (let k = 0; k < this.atomTokens.length; k += 2)
            out[this.atomTokens[k] >>> 5] &= ~(1 << (this.atomTokens[k] & 31));
        }
      }
      this.walkExits(local.exits, P, out, null, 2);
      if (local.exitBits !== undefined) this.walkExitBits(local.exitBits, P, out);
    }
    const at = this.atomTokens;
    for (let k = 0; k < at.length; k += 2) if (A.stepAtom(c, at[k + 1]) >= 0) this.setOne(out, at[k]);
    if (A.isComplete(c)) for (const e of this.vocab.eosTokenIds) this.setOne(out, e);
  }

  /**
   * Walks, from the caller's configuration `P`, the subtrees of the exits kept as a bit per node (free text's): an exit
   * whose byte `P` cannot read adds nothing, so only the nodes of `P`'s first bytes are looked at. A method of its own
   * (see setBits): its loop over the nodes of a byte ran interpreted inside `composeInto`.
   */
  private walkExitBits(exitBits: Uint32Array, P: number, out: Uint32Array): void {
    const A = this.automaton;
    const { next } = this.trie;
    const { start, ids } = nodesByByte(this.trie);
    for (let b = 0; b < 256; b++) {
      if (start[b] === start[b + 1] || A.step(P, b) < 0) continue;
      for (let k = start[b]; k < start[b + 1]; k++) {
        const x = ids[k];
        if ((exitBits[x >>> 5] >>> (x & 31)) & 1) this.walk(x, next[x], P, out, null);
      }
    }
  }

  /** `count`: the number of set bits when the compute counted them (their ids are in setIds), else -1. */
  private store(c: number, out: Uint32Array, count: number): void {
    const base = this.pendingBase;
    this.pendingBase = undefined;
    if (this.cachedBytes > CACHE_BYTES_CAP) {
      this.dense = [];
      this.sparse = [];
      this.composite = [];
      this.local = [];
      this.subtree = new Map();
      this.budget = [];
      this.cachedBytes = 0;
    }
    if (base !== undefined) {
      if (count >= 0 && count < this.words) {
        const ids = this.setIds.slice(0, count);
        this.composite[c] = { base, ids };
        this.cachedBytes += count * 4 + 32;
        if (out === this.scratch) {
          clearWords(out, ids, count);
          this.scratchDirty = false;
        }
        return;
      }
      // the walks added as many ids as the mask has words: stored whole
      orWords(out, base);
      this.dense[c] = out.slice();
      this.cachedBytes += this.words * 4;
      return;
    }
    if (count >= 0 && count < this.words) {
      const ids = this.setIds.slice(0, count);
      this.sparse[c] = ids;
      this.cachedBytes += count * 4;
      if (out === this.scratch) {
        // clear just the words this mask touched: the next compute starts from a clean scratch without a fill
        clearWords(out, ids, count);
        this.scratchDirty = false;
      }
      return;
    }
    if (count >= 0) {
      this.dense[c] = out.slice();
      this.cachedBytes += this.words * 4;
      return;
    }
    // a sparse mask (fewer allowed tokens than words) is stored as its ids: count, stopping once it cannot be sparse
    const words = out.length;
    this.bitsetScans++;
    const cnt = countBits(out, words);
    if (cnt < words) {
      const ids = idsOfBits(out, cnt);
      this.sparse[c] = ids;
      this.cachedBytes += cnt * 4;
    } else {
      this.dense[c] = out.slice();
      this.cachedBytes += this.words * 4;
    }
  }
}
