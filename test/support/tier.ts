/**
 * Test tiers. `npm test` (the quick tier) must stay within a few minutes on two cores and still exercise every
 * module: corpus ratchets and token-level conformance run on a fixed subsample there, the end-to-end generations on a
 * couple of seeds. `TOOLGRAM_LONG=1` (`npm run test:long`, run by .ci/run after `npm test`) runs the whole samples.
 * The subsample is fixed (every k-th row), so a verdict never depends on which rows a machine had time for.
 */
export const LONG_TIER = process.env.TOOLGRAM_LONG === "1";

/** Keeps every `quickStride`-th row in the quick tier, every `longStride`-th (default: all) in the long tier. */
export function tierSample<T>(rows: readonly T[], quickStride: number, longStride = 1): T[] {
  const stride = LONG_TIER ? longStride : quickStride;
  return rows.filter((_, i) => i % stride === 0);
}
