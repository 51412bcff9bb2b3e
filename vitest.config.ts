import { defineConfig } from "vitest/config";
import { E2E_FILES, LONG_FILES, SAMPLED_FILES, TIER } from "./test/support/tier.js";

// The tier decides the files (test/support/tier.ts): npm test runs the quick tier, npm run test:long the long one,
// npm run e2e the generations.
const include = {
  quick: ["test/**/*.test.ts"],
  long: [...LONG_FILES, ...SAMPLED_FILES, "test/conformance/**/*.test.ts"],
  e2e: [...E2E_FILES],
}[TIER];
const exclude = TIER === "quick" ? [...LONG_FILES, ...E2E_FILES] : [];

export default defineConfig({
  test: {
    include,
    exclude: ["**/node_modules/**", ...exclude],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Two cores in CI: one worker per core keeps timings stable.
    maxWorkers: 2,
    // The quick tier runs its files in the workers' shared processes rather than one fresh process per file: a fresh
    // one re-imports and re-optimizes the compiler (and reloads vocabularies) for every file; the 42 files of
    // test/parser, schema, grammar, lower, string and tools took 61 s of CPU that way, 34 s shared. Test files keep no
    // state between them: src's caches are keyed by the objects they describe or hold pure results, spies are
    // restored, models are disposed. The long and e2e tiers keep one process per file.
    isolate: TIER !== "quick",
  },
});
