import { BoundedMap } from "../util/BoundedMap.js";
import type { Vocabulary } from "../vocab/Vocabulary.js";
import { type Automaton, type CountedKey, DEAD, UNKNOWN } from "./Automaton.js";
import { MaskCache } from "./MaskCache.js";
import { TAIL_FRAME } from "./NfaBuilder.js";
import { addIds, addIdsExcept, clearWords, forEachSet, orWords, setBits } from "./maskBits.js";
import { PLAIN_CHARS_CAP, PlainReaders } from "./PlainReaders.js";
import { plainChars, plainTokensUpTo } from "./plainChars.js";
import { NOT_PLAIN, PLAIN_BELOW, plainTrie } from "./plainText.js";
import {
  type LocalMask,
  SHARED_LOCALS_CAP,
  SHARED_SUBTREES_BYTES,
  SHARED_SUBTREES_CAP,
  sharedLocals,
  sharedSubtrees,
  type SubtreeMask,
  subtreeBytes,
} from "./sharedFrameMasks.js";
import { nodesByByte, rootChildren } from "./trieByByte.js";
import { deepestBelow, tokensUpTo } from "./trieDepths.js";

/** Above this many exits (a 64th of the trie's nodes), a local mask keeps them as a bit per node. */
const EXIT_LIST_FRACTION = 64;

/**
 * A frame entered at a node with a subtree larger than this (nodes) takes the subtree's shared mask: below it, a walk
 * costs less than looking the mask up.
 */
const SUBTREE_MIN_NODES = 16;

/**
 * A tail frame's R-states other than its start are entered from a caller too: the one of an object's other keys'
 * characters of several bytes is entered after their lead byte (see thompsonStep's stepSeq).
 */
const TAIL_KEY = `${TAIL_FRAME}|`;

/**
 * A configuration whose top frame's local mask is known with at most this many exits is composed from it (see
 * composeInto: a string's content returns below about 400 of Qwen3's nodes), not from the plain tokens (composePlain:
 * a walk of up to 10,500 nodes).
 */
const PLAIN_EXITS = 2048;

/** Below this many characters, a bounded string's mask is walked (composeInto): the plain tokens would save little. */
const PLAIN_CHARS_MIN = 8;

/** Thrown by a walk that passes `walkLimit`. */
export const WALK_LIMIT = new Error("walk limit");

/**
 * The computing part of a MaskTable (see there): walks of the token trie from a configuration, split at frame
 * boundaries into a frame's local mask (shared by its callers) and the walks from its exits, and subtree masks shared
 * across grammars; `compute` composes a configuration's mask and stores it (MaskCache).
 */
export class MaskWalk extends MaskCache {
  /** Bitsets and id buffers of subtree masks being computed, by nesting (one computes inside another's walk). */
  protected readonly subBits: Uint32Array[] = [];
  protected readonly subIds: Int32Array[] = [];
  protected subLevel = 0;
  protected readonly stateAt: Int32Array;
  protected readonly parentAt: Int32Array;
  /** Where a local mask is walked (clean between walks): a sparse one keeps only its ids, not a bitset of its own. */
  protected readonly localScratch: Uint32Array;
  protected computing = false;
  /** A walk that passes this many nodes walked in all stops (throws WALK_LIMIT): only while prefetching. */
  protected walkLimit = Infinity;
  /** Trie nodes mask walks have visited so far (a dead node's subtree is skipped, not visited): their work. */
  nodesWalked = 0;
  /** Subtree masks taken by walks that entered a keyed frame (`enterFrame`), and those of them computed here. */
  subtreesTaken = 0;
  subtreesComputed = 0;
  /** Masks inside a bounded repetition composed from another copy's (see composeCounted); false: computed whole. */
  shareCounted = true;
  /** Masks composed so by composeCounted. */
  countedMasks = 0;
  /**
   * While composeCounted walks: the walk skips the subtrees whose tokens all have at most this many bytes, and sets
   * no token of so few bytes (-1: none skipped).
   */
  protected shortBytes = -1;
  protected deepest: Uint16Array;
  /** Masks where every plain text stays live composed from the plain tokens (see composePlain); false: walked. */
  sharePlain = true;
  /** Masks composed so by composePlain. */
  plainMasks = 0;
  /** Which configurations read every plain text (see PlainReaders), made on first use. */
  protected plainReaders: PlainReaders | undefined;
  /**
   * While composePlain walks: the trie nodes' plain marks (see plainTrie): the walk skips the subtrees that hold
   * only plain tokens and sets no plain token (null: none skipped).
   */
  protected plainMark: Uint8Array | null = null;
  protected plainSkip: Int32Array = new Int32Array(0);
  /** Masks inside a bounded string composed from the plain tokens of at most the characters left (composePlainUpTo). */
  sharePlainUpTo = true;
  /** Masks that took the plain tokens of at most the characters left: composePlainUpTo's, composeCounted's near the bound. */
  plainUpToMasks = 0;
  /**
   * While composePlainUpTo walks: the characters of the plain tokens not walked (-1: none), with the trie's plain
   * character counts (see plainChars): a PLAIN_BELOW subtree is skipped only where its tokens have at most that many.
   */
  protected plainUpTo = -1;
  protected plainCharsOf: Uint8Array = new Uint8Array(0);
  protected plainDeepChars: Uint8Array = new Uint8Array(0);

  constructor(automaton: Automaton, vocab: Vocabulary) {
    super(automaton, vocab);
    this.stateAt = new Int32Array(this.trie.maxDepth + 1);
    this.parentAt = new Int32Array(this.trie.maxDepth + 1);
    this.localScratch = new Uint32Array(this.words);
    this.deepest = new Uint16Array(0);
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
  protected walk(
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
  protected walkRange(from: number, to: number, out: Uint32Array, exits: number[] | null, exitMin: number): void {
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
    const short = this.shortBytes;
    const deepest = this.deepest;
    const plain = this.plainMark;
    const upTo = this.plainUpTo;
    while (i < to) {
      if (short >= 0 && deepest[i] <= short) {
        i = next[i];
        continue;
      }
      if (plain !== null && plain[i] === PLAIN_BELOW) {
        if (upTo < 0) {
          i = this.plainSkip[i];
          continue;
        }
        if (this.plainDeepChars[i] <= upTo) {
          i = next[i];
          continue;
        }
      }
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
      if (
        k < e &&
        d > short &&
        (plain === null || plain[i] === NOT_PLAIN || (upTo >= 0 && this.plainCharsOf[i] > upTo))
      ) {
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
      if (entry && short < 0 && plain === null && next[i] - i > SUBTREE_MIN_NODES) {
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

  /** A compute stopped inside (a prefetch's walk limit) stored nothing; its scratch is cleaned as after any compute. */
  protected cleanAfterStop(): void {
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
  protected enterFrame(i: number, d: number, out: Uint32Array, exits: number[] | null, exitMin: number): boolean {
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
    if (p < 0 || !(A.rsIsFrameStart(rs) || A.sharedKey(rs)?.startsWith(TAIL_KEY) === true)) return false;
    const sub = this.subtreeMask(rs, i);
    if (sub === null) return false;
    this.subtreesTaken++;
    this.nSet = addIds(out, sub.ids, this.setIds, this.nSet, this.words);
    const P = A.stackConfig(p);
    if (P >= 0 && exits === null && (sub.selfExit || sub.exits.length > 0)) {
      this.nSet = addIds(out, this.afterFrame(i, sub, P), this.setIds, this.nSet, this.words);
    } else if (P >= 0) {
      const { next } = this.trie;
      this.walkExits(sub.exits, P, out, exits, exitMin);
      if (sub.selfExit) this.walk(i + 1, next[i], P, out, exits, exitMin);
    }
    return true;
  }

  /**
   * The tokens below node `i` that the caller `P` reads after the frame of `sub` returned there (walkExits of its
   * exits, and the whole subtree where it may return at `i`), kept per subtree mask and caller: a frame that may return
   * after any byte (a loop that ends an object's key, free text) has every node as an exit, and walking them from the
   * caller at every visit was most of the mask of an object's key.
   */
  protected afterFrame(i: number, sub: SubtreeMask, P: number): Int32Array {
    let byCaller = this.afterFrames.get(sub);
    if (byCaller === undefined) this.afterFrames.set(sub, (byCaller = new Map()));
    const known = byCaller.get(P);
    if (known !== undefined) return known;
    const level = this.subLevel++;
    const buf = (this.subBits[level] ??= new Uint32Array(this.words));
    const outerIds = this.setIds;
    const outerSet = this.nSet;
    this.setIds = this.subIds[level] ??= new Int32Array(this.words);
    this.nSet = 0;
    let count: number;
    try {
      this.walkExits(sub.exits, P, buf, null, 0);
      if (sub.selfExit) this.walk(i + 1, this.trie.next[i], P, buf, null);
      count = this.nSet;
    } finally {
      this.subLevel--;
      this.setIds = outerIds;
      this.nSet = outerSet;
    }
    const ids = this.idsOf(buf, this.subIds[level], count);
    byCaller.set(P, ids);
    this.cachedBytes += ids.byteLength;
    return ids;
  }

  /** The ids set in `buf` (counted `count`, listed in `listed` while fewer than the words), clearing `buf`. */
  protected idsOf(buf: Uint32Array, listed: Int32Array, count: number): Int32Array {
    if (count < this.words) {
      const ids = listed.slice(0, count);
      clearWords(buf, ids, count);
      return ids;
    }
    const ids = new Int32Array(count);
    let k = 0;
    forEachSet(buf, (id) => (ids[k++] = id));
    buf.fill(0);
    return ids;
  }

  /**
   * Exit nodes in the order of their bytes, then of their ids (see walkExits). A counting sort by byte: a frame that
   * may return after any byte (an object's other keys) has hundreds of thousands of exits, and a comparison sort of
   * them was a fifth of the first visit of a key position.
   */
  protected byByte(exits: number[]): Int32Array {
    const { byte } = this.trie;
    const start = new Int32Array(257);
    for (let k = 0; k < exits.length; k++) start[byte[exits[k]] + 1]++;
    for (let b = 0; b < 256; b++) start[b + 1] += start[b];
    const at = start.slice(0, 256);
    const out = new Int32Array(exits.length);
    for (let k = 0; k < exits.length; k++) out[at[byte[exits[k]]]++] = exits[k];
    // a walk records its exits in trie order, mostly: a run of one byte is sorted only where it is not
    for (let b = 0; b < 256; b++) {
      const e = start[b + 1];
      for (let k = start[b] + 1; k < e; k++)
        if (out[k] < out[k - 1]) {
          out.subarray(start[b], e).sort();
          break;
        }
    }
    return out;
  }

  /**
   * Walks the subtrees of `exits` (in the order of their bytes) from the caller's configuration `P`. An exit is where
   * a frame may have returned, before its node's byte: a string's exits are every node after a closing quote (about 400
   * in Qwen3's trie, 80 distinct bytes), of which a caller reads a byte or two (a comma, a closing brace), so each run
   * of one byte is skipped at once where `P` cannot read it (recorded as exits of `rec`'s walk, as `walk` would have,
   * where `P` is complete).
   */
  protected walkExits(exits: Int32Array, P: number, out: Uint32Array, rec: number[] | null, exitMin: number): void {
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
  protected subtreeMask(rs: number, node: number): SubtreeMask | null {
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
    const ids = this.idsOf(buf, this.subIds[level], count);
    const sub: SubtreeMask = { ids, exits: this.byByte(exits), selfExit: A.isComplete(L) };
    this.subtreesComputed++;
    this.subtree.set(memo, sub);
    shared.set(fullKey, sub);
    this.cachedBytes += subtreeBytes(sub);
    return sub;
  }

  /** Sets one id's bit outside a walk (special tokens, EOS: not in the trie), keeping the count of a counting compute. */
  protected setOne(out: Uint32Array, id: number): void {
    const w = id >>> 5;
    const m = 1 << (id & 31);
    if ((out[w] & m) !== 0) return;
    out[w] |= m;
    if (this.nSet >= 0) {
      if (this.nSet < this.words) this.setIds[this.nSet] = id;
      this.nSet++;
    }
  }

  protected localMask(rs: number): LocalMask {
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

  protected compute(c: number): void {
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
    let counted: CountedKey | undefined;
    try {
      counted = this.shareCounted ? this.automaton.countedKey(c) : undefined;
      if (
        (counted === undefined || !this.composeCounted(c, counted, out)) &&
        !this.composePlain(c, out) &&
        !this.composePlainUpTo(c, out)
      )
        this.composeInto(c, out);
    } finally {
      if (!nested) this.computing = false;
    }
    // the count is this compute's: a nested compute (the caller's mask) runs before it starts counting (composeInto)
    this.store(c, out, this.nSet);
    this.nSet = -1;
    if (counted === undefined) return;
    const ref = this.countedRefs.get(counted.key);
    // the copy farthest from the bound serves the most others
    if (ref === undefined || ref.short < counted.short) this.countedRefs.set(counted.key, { c, short: counted.short });
  }

  /**
   * The mask of `c`, inside a copy of a bounded repetition (see Automaton.countedKey), from that of a configuration of
   * another copy with the same key at least as far from the bound: its tokens of at most `short` bytes are the same,
   * so only the subtrees of the trie with longer tokens are walked from `c` (about 3,500 of Qwen3's 333,000 nodes 32
   * bytes from the bound), instead of every position of a `maxLength` string walking the whole trie. False where no
   * such mask is known.
   */
  protected composeCounted(c: number, counted: CountedKey, out: Uint32Array): boolean {
    const ref = this.countedRefs.get(counted.key);
    if (ref === undefined || ref.c === c || !this.known(ref.c)) return false;
    // a token is read alike from both copies only if neither reaches its bound within it: the reference may be the
    // nearer one (masks are computed in any order: a prefetch, a warm-up)
    const shortBytes = Math.min(ref.short, counted.short);
    this.readMask(ref.c, out);
    const short = tokensUpTo(this.trie, shortBytes, this.words);
    for (let w = 0; w < out.length; w++) out[w] &= short[w];
    this.pendingBase = undefined;
    this.nSet = -1;
    if (this.deepest.length === 0) this.deepest = deepestBelow(this.trie);
    this.shortBytes = shortBytes;
    // near the bound, the walk of the tokens of more bytes than the copies left is most of the trie: where every plain
    // text of more characters than that stays live, its plain tokens are taken too, and the walk skips them as well
    const n = shortBytes < PLAIN_CHARS_CAP ? this.plainCharsLive(c) : 0;
    if (n > shortBytes) {
      orWords(out, plainTokensUpTo(this.trie, this.words, n).bits);
      this.plainFilter(n);
      this.plainUpToMasks++;
    }
    try {
      this.walk(0, this.trie.nodeCount, c, out, null);
    } finally {
      this.shortBytes = -1;
      this.plainMark = null;
      this.plainUpTo = -1;
    }
    const A = this.automaton;
    const at = this.atomTokens;
    for (let k = 0; k < at.length; k += 2) if (A.stepAtom(c, at[k + 1]) >= 0) this.setOne(out, at[k]);
    if (A.isComplete(c)) for (const e of this.vocab.eosTokenIds) this.setOne(out, e);
    this.countedMasks++;
    return true;
  }

  /**
   * The mask of `c` where it would walk much of the trie (no caller, a top frame whose local mask is not known, or one
   * that returns below many nodes, each an exit walked from the caller) and every plain text leads from it to a live
   * configuration (see PlainReaders: inside a string that reads any text, as an unanchored `pattern` does at each of
   * its partial matches): the vocabulary's plain tokens (plainTrie), stored as the shared base of a composite mask,
   * plus the tokens that are not plain, found by a walk of only the trie nodes above one (about 10,500 of Qwen3's
   * 333,000, fewer where a quote or an escape dies) instead of the whole trie. False where that does not hold.
   */
  protected composePlain(c: number, out: Uint32Array): boolean {
    if (!this.sharePlain) return false;
    const { mark, bits, skipTo, walkNodes } = plainTrie(this.trie, this.words);
    if (!this.walksMuch(c, walkNodes)) return false;
    const A = this.automaton;
    // inside a bounded repetition, the text dies at its bound: not searched (composeCounted, composePlainUpTo)
    if (A.countedKey(c) !== undefined) return false;
    this.plainReaders ??= new PlainReaders(A);
    if (!this.plainReaders.allowsAllPlain(c)) return false;
    this.pendingBase = bits;
    this.nSet = 0;
    this.plainMark = mark;
    this.plainSkip = skipTo;
    try {
      this.walk(0, this.trie.nodeCount, c, out, null);
    } finally {
      this.plainMark = null;
    }
    const at = this.atomTokens;
    for (let k = 0; k < at.length; k += 2) if (A.stepAtom(c, at[k + 1]) >= 0) this.setOne(out, at[k]);
    if (A.isComplete(c)) for (const e of this.vocab.eosTokenIds) this.setOne(out, e);
    this.plainMasks++;
    return true;
  }

  /**
   * Whether `c`'s mask would walk much of the trie (no caller, a top frame whose local mask is not known, or one that
   * returns below many nodes, each an exit walked from the caller), and a walk of `walkNodes` nodes fits in the walk's
   * budget left (a prefetch's position: its walk would stop at its share, so nothing is searched for it).
   */
  protected walksMuch(c: number, walkNodes: number): boolean {
    if (this.walkLimit - this.nodesWalked < walkNodes) return false;
    const A = this.automaton;
    const split = A.splitTop(c);
    if (split === undefined) return true;
    // a top frame whose local mask is known and returns below few nodes (a string's content) costs less composed
    const key = A.sharedKey(split[0]);
    const local = this.local[split[0]] ?? (key === undefined ? undefined : sharedLocals.get(this.vocab)?.get(key));
    return !(local !== undefined && local.exitBits === undefined && local.exits.length <= PLAIN_EXITS);
  }

  /**
   * The mask of `c` where it would walk much of the trie and every plain text of at most n characters leads from it
   * to a live configuration, n >= PLAIN_CHARS_MIN (see PlainReaders.charsLive: a `maxLength` string's first positions,
   * before composeCounted has another copy's mask to take from, or where the copies are not named apart): the
   * vocabulary's plain tokens of at most n characters (up to PLAIN_CHARS_CAP), plus the tokens a walk of the other
   * trie nodes allows (above a token that is not plain, or a plain one of more characters) instead of the whole trie
   * (Qwen3: 13,000 nodes at most instead of 326,000). False where that does not hold.
   */
  protected composePlainUpTo(c: number, out: Uint32Array): boolean {
    if (!this.walksMuch(c, plainTokensUpTo(this.trie, this.words, PLAIN_CHARS_MIN).walkNodes)) return false;
    // a top frame whose local mask is known (free text's, shared by every tool set) is composed from it, the walks
    // from its exits taking shared subtree masks, which this walk does not: fewer nodes than this walk's (a second
    // tool set's first mask: 53,000 nodes this way)
    const split = this.automaton.splitTop(c);
    if (split !== undefined) {
      const key = this.automaton.sharedKey(split[0]);
      if (
        (this.local[split[0]] ?? (key === undefined ? undefined : sharedLocals.get(this.vocab)?.get(key))) !== undefined
      )
        return false;
    }
    const n = this.plainCharsLive(c);
    if (n < PLAIN_CHARS_MIN) return false;
    const A = this.automaton;
    this.pendingBase = plainTokensUpTo(this.trie, this.words, n).bits;
    this.nSet = 0;
    this.plainFilter(n);
    try {
      this.walk(0, this.trie.nodeCount, c, out, null);
    } finally {
      this.plainMark = null;
      this.plainUpTo = -1;
    }
    const at = this.atomTokens;
    for (let k = 0; k < at.length; k += 2) if (A.stepAtom(c, at[k + 1]) >= 0) this.setOne(out, at[k]);
    if (A.isComplete(c)) for (const e of this.vocab.eosTokenIds) this.setOne(out, e);
    this.plainUpToMasks++;
    return true;
  }

  /**
   * The characters of plain text that stay live from `c`, up to PLAIN_CHARS_CAP (see PlainReaders.charsLive); 0 with
   * this sharing off, or where a walk of the most nodes it may leave could pass the walk's budget (a prefetch).
   */
  protected plainCharsLive(c: number): number {
    if (!this.sharePlainUpTo) return 0;
    if (this.walkLimit - this.nodesWalked < plainTokensUpTo(this.trie, this.words, PLAIN_CHARS_MIN).walkNodes) return 0;
    this.plainReaders ??= new PlainReaders(this.automaton);
    return this.plainReaders.charsLive(c, PLAIN_CHARS_CAP);
  }

  /** Sets the walk to skip the subtrees of plain tokens of at most `n` characters and to set none of them. */
  protected plainFilter(n: number): void {
    const pc = plainChars(this.trie);
    this.plainMark = plainTrie(this.trie, this.words).mark;
    this.plainUpTo = n;
    this.plainCharsOf = pc.chars;
    this.plainDeepChars = pc.deepChars;
  }

  protected composeInto(c: number, out: Uint32Array): void {
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
  protected walkExitBits(exitBits: Uint32Array, P: number, out: Uint32Array): void {
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
}
