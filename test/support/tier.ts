/**
 * Test tiers, chosen by `TOOLGRAM_TIER` (read by vitest.config.ts and by the tests themselves); a file's name and
 * imports say which tiers run it (tierFiles.ts):
 * - `quick` (the default, `npm test`): every module, within 150 s on two cores. Corpus ratchets, property runs and
 *   per-format grids judge fixed subsamples; the heaviest files (`*.long.test.ts`) wait for the long tier.
 * - `long` (`npm run test:long`, run by .ci/run after `npm test`): the `*.long.test.ts` files, and again, whole, every
 *   file that subsamples in the quick tier (every file that imports this module).
 * - `e2e` (`npm run e2e`): the seeded generations of the tiny models (`*.e2e.test.ts`, `TOOLGRAM_E2E_SEEDS` per tool
 *   set and path).
 * A subsample is fixed (every k-th row), never a clock, so a verdict never depends on which rows a machine had time
 * for. Each module keeps a quick-tier file: a `.long` file moves the heavy cases out, not the module.
 */
export type Tier = "quick" | "long" | "e2e";

export const TIER: Tier = ((): Tier => {
  const t = process.env.TOOLGRAM_TIER ?? "quick";
  if (t !== "quick" && t !== "long" && t !== "e2e")
    throw new Error(`TOOLGRAM_TIER must be quick, long or e2e, not ${JSON.stringify(t)}`);
  return t;
})();

/** Whole samples rather than subsamples. */
export const LONG_TIER = TIER !== "quick";

/** Keeps every `quickStride`-th row in the quick tier, every `longStride`-th (default: all) in the long tier. */
export function tierSample<T>(rows: readonly T[], quickStride: number, longStride = 1): T[] {
  const stride = LONG_TIER ? longStride : quickStride;
  return rows.filter((_, i) => i % stride === 0);
}

/** fast-check runs (or any repetition count): `quick` in the quick tier, `long` in the others. */
export function tierRuns(quick: number, long: number): number {
  return LONG_TIER ? long : quick;
}

/**
 * A rotating subset for grids that grow with the number of formats: in the quick tier, the rows i with
 * (i + offset) % quickStride === 0 (give each format its own offset, so every row still runs for some format); in the
 * long tier, every row.
 */
export function tierRotate<T>(rows: readonly T[], offset: number, quickStride: number): T[] {
  if (LONG_TIER) return [...rows];
  return rows.filter((_, i) => (i + offset) % quickStride === 0);
}
