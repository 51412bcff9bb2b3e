import type { LlamaModel, Token, TokenBias } from "node-llama-cpp";
import { BoundedMap } from "../util/BoundedMap.js";

/** How a mask is handed to node-llama-cpp: a boost on the allowed tokens, or "never" on the disallowed ones. */
export type MaskEncoding = "boost" | "never";

/** Added to the logits of allowed tokens: far above any real logit, small enough to keep float32 precision. */
export const ALLOWED_LOGIT_BOOST = 10_000;

/** At most this many masks are kept per model (by hash: two masks of one hash, never seen in practice, count once)… */
const MAX_ENTRIES = 512;
/** …and at most this many biased token ids over all of them (a TokenBias costs some tens of bytes per id); the oldest go first. */
const MAX_IDS = 1_000_000;

interface CachedBias {
  bits: Uint32Array;
  bias: TokenBias;
  ids: number;
}

const byModel = new WeakMap<LlamaModel, MaskBiasCache>();

/**
 * node-llama-cpp's TokenBias for a token mask, built once per distinct mask and encoding, and shared by every
 * generation on the same model. Building one costs ~0.2 µs per biased token through node-llama-cpp's public
 * `TokenBias.set` (it asks the native model whether each token ends generation), a millisecond for a typical mask;
 * decoding meets the same masks again and again (every step inside a string has the same mask, and a tool set's
 * structural masks recur in every call), so a repeated step costs a hash and a compare.
 * End-of-generation tokens are never in a bias (node-llama-cpp ignores them there): the caller handles them.
 */
export class MaskBiasCache {
  private readonly entries = new BoundedMap<string, readonly CachedBias[]>({
    maxEntries: MAX_ENTRIES,
    maxSize: MAX_IDS,
    sizeOf: (list) => list.reduce((n, e) => n + e.ids, 0),
    order: "insertion",
  });
  /** TokenBias objects built (cache misses): at most one per distinct mask and encoding while it stays cached. */
  builds = 0;
  /** Requests served from the cache. */
  hits = 0;
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

  biasFor(bits: Uint32Array, encoding: MaskEncoding): TokenBias {
    const key = `${encoding}:${hashWords(bits)}`;
    const bucket = this.entries.get(key);
    const hit = bucket?.find((e) => sameWords(e.bits, bits));
    if (hit) {
      this.hits++;
      return hit.bias;
    }
    // word by word: whole words of allowed (or disallowed) tokens are skipped or taken without testing each bit
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
    const bias = new this.TokenBiasClass(this.model.tokenizer).set(ids, boost ? { logit: ALLOWED_LOGIT_BOOST } : "never");
    this.builds++;
    this.entries.set(key, [...(bucket ?? []), { bits: bits.slice(), bias, ids: ids.length }]);
    return bias;
  }
}

function hashWords(bits: Uint32Array): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < bits.length; i++) h = Math.imul(h ^ bits[i], 0x01000193);
  return h >>> 0;
}

function sameWords(a: Uint32Array, b: Uint32Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
