/**
 * A logits row: `Float32Array`, `Float64Array`, or `Float16Array` where the runtime has it (any indexable array of
 * numbers that can hold −∞).
 */
export interface LogitsArray {
  /** Number of logits in the row (the vocabulary's size, or more: bits past the mask count as clear). */
  readonly length: number;
  /** The logit of token id `index`, written in place. */
  [index: number]: number;
}

/**
 * Set every logit whose bit is clear to −∞, in place, and return the same array. Bit `i` of the mask is
 * `(bits[i >>> 5] >>> (i & 31)) & 1`, the layout `TokenMatcher.fillNextTokenBitmask` writes. Logits past the mask
 * (a model whose logit count exceeds the vocabulary's, e.g. padding ids) are masked too, so nothing the matcher
 * never saw can be sampled.
 */
export function applyMask<T extends LogitsArray>(logits: T, bits: Uint32Array): T {
  const n = logits.length;
  const words = Math.min(bits.length, Math.ceil(n / 32));
  for (let w = 0; w < words; w++) {
    const m = bits[w];
    if (m === 0xffffffff) continue; // all allowed: the common case inside a string
    const base = w * 32;
    const end = Math.min(base + 32, n);
    if (m === 0) {
      for (let i = base; i < end; i++) logits[i] = -Infinity;
      continue;
    }
    for (let i = base; i < end; i++) if (((m >>> (i - base)) & 1) === 0) logits[i] = -Infinity;
  }
  for (let i = words * 32; i < n; i++) logits[i] = -Infinity;
  return logits;
}
