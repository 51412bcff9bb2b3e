import type { LlamaModel, Token, TokenBias } from "node-llama-cpp";

/** How a mask is handed to node-llama-cpp: a boost on the allowed tokens, or "never" on the disallowed ones. */
export type MaskEncoding = "boost" | "never";

/** Added to the logits of allowed tokens: far above any real logit, small enough to keep float32 precision. */
export const ALLOWED_LOGIT_BOOST = 10_000;

const CAPACITY = 256;

/**
 * node-llama-cpp's TokenBias for a token mask, built once per distinct mask and encoding. Building one walks the
 * vocabulary and costs milliseconds; decoding meets the same masks again and again (every step inside a string has
 * the same mask), so a cache keyed by the mask's content makes a repeated step cost a hash and a compare.
 * End-of-generation tokens are never in a bias (node-llama-cpp ignores them there): the caller handles them.
 */
export class MaskBiasCache {
  private readonly entries = new Map<string, { bits: Uint32Array; bias: TokenBias }[]>();
  private count = 0;

  constructor(
    private readonly model: LlamaModel,
    private readonly TokenBiasClass: typeof TokenBias,
    /** 1 for end-of-generation token ids; its length is the vocabulary size. */
    private readonly eog: Uint8Array,
  ) {}

  biasFor(bits: Uint32Array, encoding: MaskEncoding): TokenBias {
    const key = `${encoding}:${hashWords(bits)}`;
    const bucket = this.entries.get(key);
    const hit = bucket?.find((e) => sameWords(e.bits, bits));
    if (hit) return hit.bias;
    const ids: Token[] = [];
    const { eog } = this;
    const size = eog.length;
    for (let id = 0; id < size; id++) {
      const allowed = ((bits[id >>> 5] >>> (id & 31)) & 1) === 1;
      if (eog[id] === 0 && allowed === (encoding === "boost")) ids.push(id as Token);
    }
    const bias = new this.TokenBiasClass(this.model.tokenizer).set(ids, encoding === "boost" ? { logit: ALLOWED_LOGIT_BOOST } : "never");
    if (this.count >= CAPACITY) {
      this.entries.clear();
      this.count = 0;
    }
    const list = bucket ?? [];
    list.push({ bits: bits.slice(), bias });
    this.entries.set(key, list);
    this.count++;
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
