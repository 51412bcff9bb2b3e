import { join } from "node:path";
import { readImportGraph } from "./importGraph.js";

/**
 * The files each tier runs, read from the files themselves, so there is no list to keep in step with the tree:
 * - a name ending in `.long.test.ts` runs in the long tier only, one ending in `.e2e.test.ts` in the e2e tier only;
 * - every other test file runs in the quick tier; one whose imports reach test/support/tier.ts (directly or through a
 *   helper) subsamples there, so the long tier runs it again, whole.
 */
export const LONG_SUFFIX = ".long.test.ts";
export const E2E_SUFFIX = ".e2e.test.ts";

const TIER_MODULE = "support/tier.ts";

/** The tier-only files' globs, for vitest. */
const LONG_GLOB = `test/**/*${LONG_SUFFIX}`;
const E2E_GLOB = `test/**/*${E2E_SUFFIX}`;

/** Test files (repository-relative, `/` separators) of neither suffix whose imports reach test/support/tier.ts. */
export function filesReadingTier(repo: string): string[] {
  const graph = readImportGraph(join(repo, "test"));
  const importers = new Map<string, string[]>();
  for (const [file, targets] of graph.edges)
    for (const t of targets) importers.set(t, [...(importers.get(t) ?? []), file]);
  const reached = new Set<string>([TIER_MODULE]);
  const queue = [TIER_MODULE];
  for (let f = queue.pop(); f !== undefined; f = queue.pop()) {
    for (const importer of importers.get(f) ?? []) {
      if (reached.has(importer)) continue;
      reached.add(importer);
      queue.push(importer);
    }
  }
  return [...reached]
    .filter((f) => f.endsWith(".test.ts") && !f.endsWith(LONG_SUFFIX) && !f.endsWith(E2E_SUFFIX))
    .map((f) => `test/${f}`)
    .sort();
}

/** vitest's `include` and `exclude` (repository-relative) for a tier. */
export function tierFiles(tier: "quick" | "long" | "e2e", repo: string): { include: string[]; exclude: string[] } {
  if (tier === "quick") return { include: ["test/**/*.test.ts"], exclude: [LONG_GLOB, E2E_GLOB] };
  if (tier === "long") return { include: [LONG_GLOB, ...filesReadingTier(repo)], exclude: [] };
  return { include: [E2E_GLOB], exclude: [] };
}
