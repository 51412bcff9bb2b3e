/** A source of randomness in [0, 1) (e.g. a seeded PRNG). */
export type Random = () => number;

/**
 * A small deterministic PRNG (mulberry32): the same seed gives the same stream on every platform, which makes
 * grammar samples and the generated test model reproducible byte for byte. Returns floats in [0, 1).
 */
export function seededRandom(seed: number): Random {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
