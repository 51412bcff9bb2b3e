import { MAX_CODE_POINT, SURROGATE_HI, SURROGATE_LO } from "./Grammar.js";

/**
 * Code-point range sets: flat arrays [lo0, hi0, lo1, hi1, ...] (inclusive), sorted, non-overlapping, non-adjacent,
 * surrogates excluded. All functions return normalized sets and never mutate their input.
 */
export type Ranges = readonly number[];

/** Every Unicode scalar value (all code points but the surrogates). */
export const ALL_SCALARS: Ranges = Object.freeze([0, SURROGATE_LO - 1, SURROGATE_HI + 1, MAX_CODE_POINT]);

/** Sort, merge and strip surrogates from arbitrary [lo, hi] pairs. */
export function normalizeRanges(pairs: readonly number[]): number[] {
  const items: [number, number][] = [];
  for (let i = 0; i < pairs.length; i += 2) {
    let lo = pairs[i];
    let hi = pairs[i + 1];
    if (lo > hi) continue;
    lo = Math.max(0, lo);
    hi = Math.min(MAX_CODE_POINT, hi);
    // cut out the surrogate block
    if (lo < SURROGATE_LO && hi > SURROGATE_HI) {
      items.push([lo, SURROGATE_LO - 1], [SURROGATE_HI + 1, hi]);
    } else if (lo >= SURROGATE_LO && hi <= SURROGATE_HI) {
    } else if (lo >= SURROGATE_LO && lo <= SURROGATE_HI) {
      items.push([SURROGATE_HI + 1, hi]);
    } else if (hi >= SURROGATE_LO && hi <= SURROGATE_HI) {
      items.push([lo, SURROGATE_LO - 1]);
    } else {
      items.push([lo, hi]);
    }
  }
  items.sort((a, b) => a[0] - b[0]);
  const out: number[] = [];
  for (const [lo, hi] of items) {
    const n = out.length;
    // merge overlapping or adjacent (adjacency across the surrogate gap is not merged: the gap stays explicit)
    if (n > 0 && lo <= out[n - 1] + 1) {
      if (hi > out[n - 1]) out[n - 1] = hi;
    } else {
      out.push(lo, hi);
    }
  }
  return out;
}

export function unionRanges(a: Ranges, b: Ranges): number[] {
  return normalizeRanges([...a, ...b]);
}

export function complementRanges(a: Ranges): number[] {
  const out: number[] = [];
  let next = 0;
  for (let i = 0; i < a.length; i += 2) {
    if (a[i] > next) out.push(next, a[i] - 1);
    next = a[i + 1] + 1;
  }
  if (next <= MAX_CODE_POINT) out.push(next, MAX_CODE_POINT);
  return normalizeRanges(out);
}

export function intersectRanges(a: Ranges, b: Ranges): number[] {
  const out: number[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const lo = Math.max(a[i], b[j]);
    const hi = Math.min(a[i + 1], b[j + 1]);
    if (lo <= hi) out.push(lo, hi);
    if (a[i + 1] < b[j + 1]) i += 2;
    else j += 2;
  }
  return normalizeRanges(out);
}

export function subtractRanges(a: Ranges, b: Ranges): number[] {
  return intersectRanges(a, complementRanges(b));
}

export function rangesContain(a: Ranges, cp: number): boolean {
  // binary search over pairs
  let lo = 0;
  let hi = a.length / 2 - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (cp < a[mid * 2]) hi = mid - 1;
    else if (cp > a[mid * 2 + 1]) lo = mid + 1;
    else return true;
  }
  return false;
}
