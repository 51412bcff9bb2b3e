import type { TokenTrie } from "../vocab/TokenTrie.js";
import { TOKEN_ATOM, type Vocabulary } from "../vocab/Vocabulary.js";
import type { Automaton } from "./Automaton.js";
import { clearWords, countBits, idsOfBits, orWords, setBits } from "./maskBits.js";
import type { LocalMask, SubtreeMask } from "./sharedFrameMasks.js";

/** Cached masks above this many bytes are dropped (a cache: correctness never depends on it). */
const CACHE_BYTES_CAP = 40 << 20;

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
 * The storage of a MaskTable (see there): each configuration's mask, dense (a bitset), sparse (its ids) or composite
 * (a shared local bitset plus ids), the local and subtree masks of frames, and the budget lists; with the scratch
 * buffers a compute writes into and `store` copies out of. Dropped whole past CACHE_BYTES_CAP.
 */
export class MaskCache {
  readonly automaton: Automaton;
  readonly vocab: Vocabulary;
  readonly words: number;
  protected readonly trie: TokenTrie;
  /** [tokenId, atomIndex] for each special/added token whose text is a `token` node of the grammar. */
  protected readonly atomTokens: Int32Array;
  protected readonly atomOfToken = new Map<number, number>();
  protected dense: (Uint32Array | undefined)[] = [];
  protected sparse: (Int32Array | undefined)[] = [];
  /**
   * Masks composed from a frame's dense local part (inside a string: most of the vocabulary) and the few tokens the
   * caller adds after the frame's exits: the shared local bitset itself and those ids, not a copy of the whole mask.
   */
  protected composite: (CompositeMask | undefined)[] = [];
  /** Set by composeInto when the mask it is composing is `base` plus the ids it counts (see composite). */
  protected pendingBase: Uint32Array | undefined;
  protected local: (LocalMask | undefined)[] = [];
  /** Subtree masks by R-state and node (rs * trie nodes + node), null where the R-state has no shared key. */
  protected subtree = new Map<number, SubtreeMask | null>();
  /** What a caller configuration reads after a subtree mask's frame returns (see MaskWalk.afterFrame), per mask. */
  protected afterFrames = new Map<SubtreeMask, Map<number, Int32Array>>();
  /**
   * Per key of a configuration inside a copy of a bounded repetition (Automaton.countedKey): the configuration of that
   * key farthest from the bound whose mask was computed whole, which the others take their shorter tokens from.
   */
  protected countedRefs = new Map<string, { c: number; short: number }>();
  protected cachedBytes = 0;
  protected readonly scratch: Uint32Array;
  /** scratch holds bits from the last compute (cleared lazily: a sparse mask clears only its own words). */
  protected scratchDirty = false;
  /**
   * The ids a compute set, in the order set, while fewer than `words` (then the mask is stored sparse without a scan
   * of the bitset); `nSet` counts every set, or is -1 when a compute cannot count (a composed mask: the local part's
   * bits are copied in whole, and a token may be set by both parts).
   */
  protected setIds: Int32Array;
  protected nSet = -1;
  protected budget: (BudgetLists | undefined)[] = [];
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
    this.scratch = new Uint32Array(this.words);
    this.setIds = new Int32Array(this.words);
  }

  /** Drops every cached mask (they are found again by computing them). */
  protected dropMasks(): void {
    this.dense = [];
    this.sparse = [];
    this.composite = [];
    this.local = [];
    this.subtree = new Map();
    this.afterFrames = new Map();
    this.countedRefs = new Map();
    this.budget = [];
    this.cachedBytes = 0;
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
  protected known(c: number): boolean {
    return this.dense[c] !== undefined || this.sparse[c] !== undefined || this.composite[c] !== undefined;
  }

  /** Writes the cached mask of configuration `c` into `bits` (every word is overwritten). */
  protected readMask(c: number, bits: Uint32Array): void {
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

  /** `count`: the number of set bits when the compute counted them (their ids are in setIds), else -1. */
  protected store(c: number, out: Uint32Array, count: number): void {
    const base = this.pendingBase;
    this.pendingBase = undefined;
    if (this.cachedBytes > CACHE_BYTES_CAP) this.dropMasks();
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
