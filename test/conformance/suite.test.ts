/**
 * The JSON-Schema-Test-Suite ratchet (draft2020-12 and draft7). Every test instance is serialized canonically and
 * fed to `compileSchema(schema).accepts()`. Categories are compared with the committed baseline:
 * - a false positive (invalid instance accepted) always fails;
 * - a test that passed in the baseline and no longer passes fails (regression);
 * - improvements are printed; `UPDATE_BASELINE=1 npx vitest run test/conformance` rewrites the baseline.
 */
import { describe, expect, it } from "vitest";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { dirname, join } from "node:path";
import { compileSchema } from "../../src/compile.js";
import { judgeSchema, type Verdict } from "../../src/conformance/judgeSchema.js";
import { loadTestSuite, testKey } from "../../src/conformance/loadTestSuite.js";

const here = dirname(fileURLToPath(import.meta.url));
const fixtures = join(here, "../fixtures/json-schema-test-suite");

for (const draft of ["draft2020-12", "draft7"] as const) {
  describe(`JSON-Schema-Test-Suite ${draft}`, () => {
    it("has no false positives and no regressions against the baseline", () => {
      const baselinePath = join(here, `baseline-${draft}.json`);
      const baseline: Record<string, Verdict> = existsSync(baselinePath) ? JSON.parse(readFileSync(baselinePath, "utf8")) : {};
      const current: Record<string, Verdict> = {};
      const falsePositives: string[] = [];
      const crashes: string[] = [];
      for (const c of loadTestSuite(join(fixtures, draft), draft)) {
        const j = judgeSchema(compileSchema, c.schema, c.tests);
        c.tests.forEach((t, i) => {
          let key = testKey(c.file, c.description, t.description);
          while (key in current) key += " (again)";
          current[key] = j.verdicts[i];
          if (j.verdicts[i] === "false-positive") falsePositives.push(key);
          if (j.verdicts[i] === "crash") crashes.push(`${key}: ${j.errorMessage ?? ""}`.slice(0, 400));
        });
      }
      const counts: Record<string, number> = {};
      for (const v of Object.values(current)) counts[v] = (counts[v] ?? 0) + 1;
      const regressions = Object.keys(baseline).filter((k) => baseline[k] === "pass" && current[k] !== "pass");
      const improvements = Object.keys(current).filter((k) => current[k] === "pass" && baseline[k] !== "pass");
      console.log(`${draft}: ${Object.keys(current).length} tests ${JSON.stringify(counts)}; ${improvements.length} improvements over the baseline`);
      if (process.env.UPDATE_BASELINE) writeFileSync(baselinePath, JSON.stringify(current, Object.keys(current).sort(), 1) + "\n");
      expect(falsePositives, "invalid instances accepted").toEqual([]);
      expect(crashes, "compiler crashes").toEqual([]);
      expect(regressions, "tests that passed in the baseline").toEqual([]);
    });
  });
}
