import { defineConfig } from "vitest/config";
import { TIER } from "./test/support/tier.js";
import { tierFiles } from "./test/support/tierFiles.js";

// The tier decides the files, and each file's name and imports decide its tiers (test/support/tierFiles.ts): npm test
// runs the quick tier, npm run test:long the long one, npm run e2e the generations.
const { include, exclude } = tierFiles(TIER, import.meta.dirname);

export default defineConfig({
  test: {
    include,
    exclude: ["**/node_modules/**", ...exclude],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Two cores in CI: one worker per core (a third, beside the typecheck, made npm test slower: 157 s → 171 s).
    maxWorkers: 2,
    // The quick tier runs its files in the workers' shared processes rather than one fresh process per file: a fresh
    // one re-imports and re-optimizes the compiler (and reloads vocabularies) for every file; the 42 files of
    // test/parser, schema, grammar, lower, string and tools took 61 s of CPU that way, 34 s shared. Test files keep no
    // state between them: src's caches are keyed by the objects they describe or hold pure results, spies are
    // restored, a model is disposed or shared by every file (test/support/tinyQwen3.ts). The long and e2e tiers keep one process per file.
    isolate: TIER !== "quick",
  },
});
