/**
 * Test tiers, chosen by `TOOLGRAM_TIER` (read by vitest.config.ts and by the tests themselves):
 * - `quick` (the default, `npm test`): every module, within a few minutes on two cores. Corpus ratchets and
 *   token-level checks judge fixed subsamples; the heaviest files (LONG_FILES) wait for the long tier.
 * - `long` (`npm run test:long`, run by .ci/run after `npm test`): LONG_FILES, test/conformance and SAMPLED_FILES on
 *   whole samples.
 * - `e2e` (`npm run e2e`): the seeded generations of the tiny models (`TOOLGRAM_E2E_SEEDS` per tool set and path).
 * A subsample is fixed (every k-th row), so a verdict never depends on which rows a machine had time for.
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

/**
 * Files that run in the long tier only: each starts a server or a browser, or costs tens of seconds (a llama-server
 * process, a real browser, many generations or property runs over a 151,936-token vocabulary). The quick tier still
 * exercises their modules through lighter files (test/server/openaiClient, test/automaton/qwen3,
 * test/lower/lowerNumber.examples, test/llama-cpp/nodeLlamaCpp, test/playground/analyzeOutput; the declarations of
 * `toolgram types` through `npm run typecheck`, which compiles test/parser/types).
 */
export const LONG_FILES: readonly string[] = [
  "test/conformance/tokenLevel.test.ts",
  "test/server/upstream.test.ts",
  "test/server/faults.test.ts",
  "test/server/hostile.test.ts",
  "test/automaton/tokenBudget.test.ts",
  "test/automaton/lazyToolSets.long.test.ts",
  "test/llama-cpp/llamaServer.test.ts",
  "test/llama-cpp/toolCallsServer.test.ts",
  "test/server/aiSdk.test.ts",
  "test/server/readmeServe.test.ts",
  "test/lower/lowerNumber.property.test.ts",
  "test/playground/playground.test.ts",
  "test/parser/cliTypes.long.test.ts",
  "test/docs/site.long.test.ts",
];

/**
 * Files that run in both tiers: a fixed subsample (tierSample / tierRuns / tierRotate / LONG_TIER) in the quick tier,
 * the whole of it in the long tier. Every file that reads the tier outside LONG_FILES and test/conformance is here, so
 * that what the quick tier leaves out does run in CI (a test checks the list).
 */
export const SAMPLED_FILES: readonly string[] = [
  "test/envelope/formatRoundTrip.test.ts",
  "test/parser/stream.test.ts",
  "test/parser/fuzz.test.ts",
  "test/formats/reasoning.test.ts",
  "test/automaton/familyVocabularies.test.ts",
  "test/automaton/gemma4Vocabulary.test.ts",
  "test/automaton/qwenStyleFormats.test.ts",
  "test/automaton/coldMasks.test.ts",
  "test/gguf/tinyModelFamilies.test.ts",
  "test/fuzz/differential.test.ts",
  "test/llama-cpp/nodeLlamaCpp.test.ts",
  "test/compile/simplifiedBodies.test.ts",
];

/** The end-to-end generations: `npm run e2e` only. */
export const E2E_FILES: readonly string[] = ["test/e2e/**/*.test.ts"];

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
