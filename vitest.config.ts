import { defineConfig } from "vitest/config";
import { E2E_FILES, LONG_FILES, SAMPLED_FILES, TIER } from "./test/support/tier.js";

// The tier decides the files (test/support/tier.ts): npm test runs the quick tier, npm run test:long the long one,
// npm run e2e the generations.
const include = { quick: ["test/**/*.test.ts"], long: [...LONG_FILES, ...SAMPLED_FILES, "test/conformance/**/*.test.ts"], e2e: [...E2E_FILES] }[TIER];
const exclude = TIER === "quick" ? [...LONG_FILES, ...E2E_FILES] : [];

export default defineConfig({
  test: {
    include,
    exclude: ["**/node_modules/**", ...exclude],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Two cores in CI: one worker per core keeps timings stable.
    maxWorkers: 2,
  },
});
