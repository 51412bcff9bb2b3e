/**
 * What the quick tier leaves out must run somewhere: a test file that reads the tier (LONG_TIER, tierSample, tierRuns,
 * tierRotate) to subsample is one the long tier runs whole (LONG_FILES, SAMPLED_FILES, test/conformance) or an e2e file.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { LONG_FILES, SAMPLED_FILES } from "../support/tier.js";

const root = join(import.meta.dirname, "..", "..");

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return testFiles(path);
    return e.name.endsWith(".test.ts") ? [relative(root, path).split("\\").join("/")] : [];
  });
}

describe("test tiers", () => {
  it("every file that subsamples by tier runs whole in the long tier", () => {
    const tiered = testFiles(join(root, "test")).filter((f) =>
      /\b(LONG_TIER|tierSample|tierRuns|tierRotate)\b/.test(readFileSync(join(root, f), "utf8")),
    );
    expect(tiered.length).toBeGreaterThan(5);
    const covered = (f: string) =>
      f === "test/layout/tiers.test.ts" ||
      LONG_FILES.includes(f) ||
      SAMPLED_FILES.includes(f) ||
      f.startsWith("test/conformance/") ||
      f.startsWith("test/e2e/");
    expect(tiered.filter((f) => !covered(f))).toEqual([]);
  });

  it("every listed file exists", () => {
    const all = new Set(testFiles(join(root, "test")));
    expect([...LONG_FILES, ...SAMPLED_FILES].filter((f) => !all.has(f))).toEqual([]);
  });
});
