import type { LlamaModel, Token, TokenBias } from "node-llama-cpp";
import { BoundedMap } from "../util/BoundedMap.js";
import type { BiasArrays } from "./cacheBiasConversion.js";

/** How a mask is handed to node-llama-cpp: a boost on the allowed tokens, or "never" on the disallowed ones. */
export type MaskEncoding = "boost" | "never";

/** Added to the logits of allowed tokens: far above any real logit, small enough to keep float32 precision. */
export const ALLOWED_LOGIT_BOOST = 10_000;

/** At most this many masks are kept per model (by hash: two masks of one hash, never seen in practice, count once)… */
const MAX_ENTRIES = 512;
/** …and at most this many biased token ids over all of them (a TokenBias costs some tens of bytes per id); the oldest go first. */
const MAX_IDS = 1_000_000;

const byModel = new WeakMap<LlamaModel, MaskBiasCache>();

/** One distinct mask: its words, and what a step needs to know of it (counted once, when the mask is first met). */
export interface MaskEntry {
  readonly bits: Uint32Array;
  /** Ordinary (not end-of-generation) tokens the mask allows. */
  readonly ordinary: number;
}

/** A cached mask with its TokenBias per encoding, each built on first use. */
interface Entry extends MaskEntry {
  /** The mask's hash, its key in the cache. */
  readonly key: number;
  boost: TokenBias | undefined;
  never: TokenBias | undefined;
  /** Biased ids held by this entry's TokenBias objects. */
  ids: number;
}

/**
 * node-llama-cpp's TokenBias for a token mask, built once per distinct mask and encoding, and shared by every
 * generation on the same model. Building one costs ~0.2 µs per biased token through node-llama-cpp's public
 * `TokenBias.set` (it asks the native model whether each token ends generation), a millisecond for a typical mask;
 * decoding meets the same masks again and again (every step inside a string has the same mask, and a tool set's
 * structural masks recur in every call).
 *
 * A step's lookup (`entryFor`) reads the mask at most twice and usually once: the mask is first compared with the
 * previous step's (inside a string, the next mask is the same: one pass, no hash); only a different mask is hashed
 * and compared with the masks of its hash. Everything else a step needs of the mask (how many ordinary tokens it
 * allows) is kept in its entry, counted when the mask is first met. `wordsHashed` / `wordsCompared` / `counted`
 * count that work.
 * End-of-generation tokens are never in a bias (node-llama-cpp ignores them there): the caller handles them.
 */
export class MaskBiasCache {
  private readonly entries = new BoundedMap<number, readonly Entry[]>({
    maxEntries: MAX_ENTRIES,
    maxSize: MAX_IDS,
    sizeOf: (list) => list.reduce((n, e) => n + e.ids, 0),
    order: "insertion",
  });
  /** Each built TokenBias in llama.cpp's shape (see cacheBiasConversion). */
  private readonly arrays = new WeakMap<TokenBias, BiasArrays>();
  /** The entry of the last lookup: the next step's mask is most often the same. */
  private last: Entry | undefined;
  /** TokenBias objects built (cache misses): at most one per distinct mask and encoding while it stays cached. */
  builds = 0;
  /** Requests served from the cache. */
  hits = 0;
  /** Masks counted (a pass over the words to count their allowed tokens): once per distinct mask while cached. */
  counted = 0;
  /** Mask words read to hash masks (a mask equal to the previous lookup's is not hashed). */
  wordsHashed = 0;
  /** Mask words read to compare masks with cached ones (a comparison stops at the first differing word). */
  wordsCompared = 0;
  /** The end-of-generation bits of each mask word. */
  private readonly eogWords: Uint32Array;

  constructor(
    private readonly model: LlamaModel,
    private readonly TokenBiasClass: typeof TokenBias,
    /** 1 for end-of-generation token ids; its length is the vocabulary size. */
    private readonly eog: Uint8Array,
  ) {
    this.eogWords = new Uint32Array(Math.ceil(eog.length / 32));
    for (let id = 0; id < eog.length; id++) if (eog[id] === 1) this.eogWords[id >>> 5] |= 1 << (id & 31);
  }

  /** The cache shared by every generation on `model` (masks recur across generations with the same tools). */
  static of(model: LlamaModel, TokenBiasClass: typeof TokenBias, eog: Uint8Array): MaskBiasCache {
    let cache = byModel.get(model);
    if (cache === undefined || cache.TokenBiasClass !== TokenBiasClass || cache.eog !== eog) {
      cache = new MaskBiasCache(model, TokenBiasClass, eog);
      byModel.set(model, cache);
    }
    return cache;
  }

  /** The entry of the mask `bits` (by content; `bits` is copied when the mask is new, and may be reused after). */
  entryFor(bits: Uint32Array): MaskEntry {
    const last = this.last;
    if (last !== undefined && this.same(last.bits, bits)) return last;
    const key = this.hash(bits);
    const bucket = this.entries.get(key);
    if (bucket !== undefined) {
      for (const e of bucket) {
        if (this.same(e.bits, bits)) {
          this.last = e;
          return e;
        }
      }
    }
    const entry: Entry = {
      key,
      bits: bits.slice(),
      ordinary: this.ordinaryCount(bits),
      boost: undefined,
      never: undefined,
      ids: 0,
    };
    this.entries.set(key, [...(bucket ?? []), entry]);
    this.last = entry;
    return entry;
  }

  /** The TokenBias of a mask in an encoding, built on first use. */
  biasOf(mask: MaskEntry, encoding: MaskEncoding): TokenBias {
    const entry = mask as Entry;
    const known = encoding === "boost" ? entry.boost : entry.never;
    if (known !== undefined) {
      this.hits++;
      return known;
    }
    const ids = this.idsOf(entry.bits, encoding);
    const logit = encoding === "boost" ? ALLOWED_LOGIT_BOOST : -Infinity;
    const bias = lazyBias(new this.TokenBiasClass(this.model.tokenizer), ids, logit);
    // node-llama-cpp's own conversion walks the bias's Map in insertion order: the ids in order, each with its logit
    this.arrays.set(bias, { keys: Uint32Array.from(ids), values: new Float32Array(ids.length).fill(logit) });
    this.builds++;
    if (encoding === "boost") entry.boost = bias;
    else entry.never = bias;
    entry.ids += ids.length;
    // set again, so that the cache counts the new ids (an entry dropped meanwhile, still in use by a step, stays out)
    const bucket = this.entries.peek(entry.key);
    if (bucket?.includes(entry)) this.entries.set(entry.key, bucket);
    return bias;
  }

  /** A TokenBias of this cache as llama.cpp's sampler takes it (ids and logits), built with it; undefined for others. */
  arraysOf(bias: TokenBias): BiasArrays | undefined {
    return this.arrays.get(bias);
  }

  biasFor(bits: Uint32Array, encoding: MaskEncoding): TokenBias {
    return this.biasOf(this.entryFor(bits), encoding);
  }

  /** The biased ids of an encoding, word by word: whole words of allowed (or disallowed) tokens are skipped or taken without testing each bit. */
  private idsOf(bits: Uint32Array, encoding: MaskEncoding): Token[] {
    const ids: Token[] = [];
    const { eogWords } = this;
    const size = this.eog.length;
    const boost = encoding === "boost";
    for (let w = 0; w < eogWords.length; w++) {
      let word = (boost ? bits[w] : ~bits[w]) & ~eogWords[w];
      if (w === eogWords.length - 1 && size % 32 !== 0) word &= (1 << (size % 32)) - 1;
      while (word !== 0) {
        const low = word & -word;
        ids.push((w * 32 + 31 - Math.clz32(low)) as Token);
        word ^= low;
      }
    }
    return ids;
  }

  private ordinaryCount(bits: Uint32Array): number {
    this.counted++;
    const { eogWords } = this;
    const size = this.eog.length;
    let n = 0;
    for (let w = 0; w < eogWords.length; w++) {
      let x = bits[w] & ~eogWords[w];
      if (w === eogWords.length - 1 && size % 32 !== 0) x &= (1 << (size % 32)) - 1;
      if (x !== 0) n += popcount(x);
    }
    return n;
  }

  /** Four independent FNV-1a lanes (one multiply chain each, so they run side by side), folded together. */
  private hash(bits: Uint32Array): number {
    let h0 = 0x811c9dc5;
    let h1 = 0x01000193;
    let h2 = 0x9e3779b9;
    let h3 = 0x85ebca6b;
    const n = bits.length;
    const n4 = n - (n % 4);
    for (let i = 0; i < n4; i += 4) {
      h0 = Math.imul(h0 ^ bits[i], 0x01000193);
      h1 = Math.imul(h1 ^ bits[i + 1], 0x01000193);
      h2 = Math.imul(h2 ^ bits[i + 2], 0x01000193);
      h3 = Math.imul(h3 ^ bits[i + 3], 0x01000193);
    }
    for (let i = n4; i < n; i++) h0 = Math.imul(h0 ^ bits[i], 0x01000193);
    this.wordsHashed += n;
    return (Math.imul(h0 ^ Math.imul(h1 ^ Math.imul(h2 ^ h3, 0x01000193), 0x01000193), 0x01000193) ^ n) >>> 0;
  }

  private same(a: Uint32Array, b: Uint32Array): boolean {
    if (a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) {
      if (a[i] !== b[i]) {
        this.wordsCompared += i + 1;
        return false;
      }
    }
    this.wordsCompared += a.length;
    return true;
  }
}

/**
 * `bias` holding `logit` for each of `ids` (no end-of-generation token among them), as `TokenBias.set` would fill
 * it, but filled only when node-llama-cpp reads it: a mask's bias reaches llama.cpp as the arrays built with it
 * (cacheBiasConversion), and `set` asks the native model about each token twice, ≈ 100 ms for a mask of 150,000
 * tokens on the event loop every stream shares.
 */
function lazyBias(bias: TokenBias, ids: readonly Token[], logit: number): TokenBias {
  let biases: Map<Token, number> | undefined;
  Object.defineProperty(bias, "_biases", {
    configurable: true,
    get: () => {
      biases ??= new Map(ids.map((id) => [id, logit]));
      return biases;
    },
  });
  return bias;
}

function popcount(x: number): number {
  x = x - ((x >>> 1) & 0x55555555);
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (((x + (x >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}
