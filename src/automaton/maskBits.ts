/*
 * Loops over a mask's ids (and words), each in a function of its own: inside the large functions that call them (a mask's
 * compute and store run once per configuration), V8 ran them in its interpreter, at 50–70 ns an id, until those
 * functions were optimized — 190 µs to add a string escape's 3,368 ids in each new context and 70 µs to clear them
 * in the first run of a process, where a small function is optimized after a few calls.
 */

/** Sets the bits of `ids[0..n)` in `bits`. */
export function setBits(bits: Uint32Array, ids: Int32Array, n: number): void {
  for (let k = 0; k < n; k++) {
    const id = ids[k];
    bits[id >>> 5] |= 1 << (id & 31);
  }
}

/** Zeroes the words of `bits` that hold `ids[0..n)` (a sparse mask's words of a scratch bitset). */
export function clearWords(bits: Uint32Array, ids: Int32Array, n: number): void {
  for (let k = 0; k < n; k++) bits[ids[k] >>> 5] = 0;
}

/**
 * Sets the bits of `ids` in `out`; while `nSet` counts (>= 0), counts those not set before and keeps their ids in
 * `setIds` while fewer than `words`. Returns the count.
 */
export function addIds(out: Uint32Array, ids: Int32Array, setIds: Int32Array, nSet: number, words: number): number {
  for (let k = 0; k < ids.length; k++) {
    const id = ids[k];
    const w = id >>> 5;
    const m = 1 << (id & 31);
    if ((out[w] & m) !== 0) continue;
    out[w] |= m;
    if (nSet >= 0) {
      if (nSet < words) setIds[nSet] = id;
      nSet++;
    }
  }
  return nSet;
}

/** addIds, leaving out the ids of `eos` and the keys of `atoms` (a caller's end tokens and special tokens). */
export function addIdsExcept(
  out: Uint32Array,
  ids: Int32Array,
  setIds: Int32Array,
  nSet: number,
  words: number,
  eos: readonly number[],
  atoms: ReadonlyMap<number, number>,
): number {
  for (let k = 0; k < ids.length; k++) {
    const id = ids[k];
    if (eos.includes(id) || atoms.has(id)) continue;
    const w = id >>> 5;
    const m = 1 << (id & 31);
    if ((out[w] & m) !== 0) continue;
    out[w] |= m;
    if (nSet >= 0) {
      if (nSet < words) setIds[nSet] = id;
      nSet++;
    }
  }
  return nSet;
}

/** The number of set bits of `bits`, or a number at least `limit` once it reaches it. */
export function countBits(bits: Uint32Array, limit: number): number {
  let cnt = 0;
  for (let w = 0; w < bits.length && cnt < limit; w++) {
    let x = bits[w];
    if (x === 0) continue;
    // SWAR popcount
    x = x - ((x >>> 1) & 0x55555555);
    x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
    cnt += (((x + (x >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
  }
  return cnt;
}

/** The indices of the `cnt` set bits of `bits`, in increasing order. */
export function idsOfBits(bits: Uint32Array, cnt: number): Int32Array {
  const ids = new Int32Array(cnt);
  let k = 0;
  for (let w = 0; w < bits.length; w++) {
    let x = bits[w];
    while (x) {
      const bit = 31 - Math.clz32(x & -x);
      ids[k++] = w * 32 + bit;
      x &= x - 1;
    }
  }
  return ids;
}

/** ORs `src` into `out`, word by word. */
export function orWords(out: Uint32Array, src: Uint32Array): void {
  for (let w = 0; w < src.length; w++) out[w] |= src[w];
}

/** Calls `f` with the index of every set bit of `bits`, in increasing order. */
export function forEachSet(bits: Uint32Array, f: (id: number) => void): void {
  for (let w = 0; w < bits.length; w++) {
    let x = bits[w];
    while (x !== 0) {
      const low = x & -x;
      f(w * 32 + (31 - Math.clz32(low)));
      x ^= low;
    }
  }
}
