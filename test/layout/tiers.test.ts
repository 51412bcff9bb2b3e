/**
 * One tier mechanism (test/support/tierFiles.ts): a file's name says whether it waits for the long or the e2e tier, its
 * imports whether it subsamples in the quick tier and so runs again, whole, in the long tier. What the quick tier
 * leaves out must run somewhere, and every module must stay in the quick tier.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { E2E_SUFFIX, filesReadingTier, LONG_SUFFIX, tierFiles } from "../support/tierFiles.js";

const root = join(import.meta.dirname, "..", "..");

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return tsFiles(path);
    return e.name.endsWith(".ts") ? [relative(root, path).split("\\").join("/")] : [];
  });
}

const all = tsFiles(join(root, "test")).filter((f) => f.endsWith(".test.ts"));
const tierOnly = (f: string) => f.endsWith(LONG_SUFFIX) || f.endsWith(E2E_SUFFIX);
// (this file names the helpers without using them)
const usesTierHelpers = (f: string) =>
  f !== "test/layout/tiers.test.ts" &&
  /\b(LONG_TIER|TIER|tierSample|tierRuns|tierRotate)\b/.test(readFileSync(join(root, f), "utf8"));

describe("test tiers", () => {
  it("every file that subsamples by tier runs whole in the long tier, found through its imports", () => {
    const reading = filesReadingTier(root);
    // through a helper: the JSONSchemaBench shards subsample in test/support/conformance/jsonschemabenchRatchet.ts
    expect(reading).toContain("test/conformance/jsonschemabench1.test.ts");
    expect(reading).toContain("test/compile/simplifiedBodies.test.ts");
    const { include } = tierFiles("long", root);
    expect(all.filter((f) => usesTierHelpers(f) && !tierOnly(f) && !include.includes(f))).toEqual([]);
    expect(reading.every((f) => include.includes(f))).toBe(true);
  });

  it("only a tier-only name keeps a file out of the quick tier", () => {
    const { include, exclude } = tierFiles("quick", root);
    expect(include).toEqual(["test/**/*.test.ts"]);
    expect(exclude).toEqual([`test/**/*${LONG_SUFFIX}`, `test/**/*${E2E_SUFFIX}`]);
    expect(tierFiles("e2e", root).include).toEqual([`test/**/*${E2E_SUFFIX}`]);
  });

  it("only test/support/tier.ts reads TOOLGRAM_TIER: a file reads the tier by importing it, so the long tier sees it", () => {
    const readers = tsFiles(join(root, "test")).filter(
      (f) => f !== "test/support/tier.ts" && /env(\.|\[["'])TOOLGRAM_TIER/.test(readFileSync(join(root, f), "utf8")),
    );
    expect(readers).toEqual([]);
  });

  it("every folder with long-only files keeps quick-tier files, so the quick tier still exercises its modules", () => {
    const quickFolders = new Set(all.filter((f) => !tierOnly(f)).map(dirname));
    const longFolders = [...new Set(all.filter((f) => f.endsWith(LONG_SUFFIX)).map(dirname))];
    expect(longFolders.length).toBeGreaterThan(5);
    expect(longFolders.filter((d) => !quickFolders.has(d))).toEqual([]);
  });

  it("e2e files live in test/e2e", () => {
    expect(all.filter((f) => f.endsWith(E2E_SUFFIX) !== f.startsWith("test/e2e/"))).toEqual([]);
  });
});
