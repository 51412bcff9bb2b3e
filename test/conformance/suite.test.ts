/**
 * The JSON-Schema-Test-Suite ratchet (draft2020-12 and draft7). Every test instance is serialized canonically and
 * fed to `compileSchema(schema).accepts()`. Categories are compared with the committed baseline:
 * - a false positive (invalid instance accepted) always fails;
 * - a test that passed in the baseline and no longer passes fails (regression);
 * - improvements are printed; `UPDATE_BASELINE=1 npx vitest run test/conformance` rewrites the baseline.
 * Format and content assertion is optional in the spec and implementations differ: toolgram's formats accept what
 * both ajv-formats ("full" mode) and the format's RFC grammar accept, so for `optional/format/*` of a format toolgram
 * enforces an instance is expected valid when ajv and the suite both say so (where they disagree, the count is printed); for
 * `optional/content` the expected verdict is ajv's. The comparison with llguidance uses the tests its own
 * expectation file lists (the non-optional draft2020-12 suite).
 */
import { describe, expect, it } from "vitest";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { dirname, join } from "node:path";
import { compileSchema } from "../../src/compile.js";
import { judgeSchema, type Verdict } from "../../src/conformance/judgeSchema.js";
import { loadTestSuite, testKey } from "../../src/conformance/loadTestSuite.js";
import { CONFORMANCE_OPTIONS } from "../../src/conformance/judgeCorpus.js";
import { Referee } from "../../src/conformance/referee.js";
import { canonicalJson } from "../../src/json.js";
import { formatSource } from "../../src/schema/formatSources.js";
import { LONG_TIER } from "../support/tier.js";

const here = dirname(fileURLToPath(import.meta.url));
const fixtures = join(here, "../fixtures/json-schema-test-suite");
const referee = new Referee();
type Llg = Record<string, Record<string, Record<string, string>>>;
const llguidance = JSON.parse(
  readFileSync(join(here, "../fixtures/peer-results/llguidance_expected_json_schema_test_suite.json"), "utf8"),
)["draft2020-12"] as Llg;

// draft 7 shares draft 2020-12's code paths but for a few keywords: the quick tier judges draft 2020-12, the long both
const DRAFTS = LONG_TIER ? (["draft2020-12", "draft7"] as const) : (["draft2020-12"] as const);
for (const draft of DRAFTS) {
  describe(`JSON-Schema-Test-Suite ${draft}`, () => {
    it("has no false positives and no regressions against the baseline", () => {
      const baselinePath = join(here, `baseline-${draft}.json`);
      const baseline: Record<string, Verdict> = existsSync(baselinePath)
        ? JSON.parse(readFileSync(baselinePath, "utf8"))
        : {};
      const current: Record<string, Verdict> = {};
      const falsePositives: string[] = [];
      const crashes: string[] = [];
      let overridden = 0;
      let ours = 0;
      let theirs = 0;
      let compared = 0;
      for (const c of loadTestSuite(join(fixtures, draft), draft)) {
        const byAjv = /^optional\/(format\/|content)/.test(c.file);
        // only formats toolgram enforces: an unknown one (idn-hostname, iri...) is an annotation, valid as ajv says
        const andSuite = formatSource(c.file.replace(/^optional\/format\//, "")) !== undefined;
        const tests = c.tests.map((t) => {
          if (!byAjv) return t;
          const byReferee = referee.validText(c.schema, canonicalJson(t.data));
          const valid = andSuite ? byReferee && t.valid : byReferee;
          if (valid !== t.valid) overridden++;
          return { ...t, valid };
        });
        const j = judgeSchema(compileSchema, c.schema, tests, CONFORMANCE_OPTIONS);
        c.tests.forEach((t, i) => {
          const peer = draft === "draft2020-12" ? llguidance[c.file]?.[c.description]?.[t.description] : undefined;
          if (peer === undefined) return;
          compared++;
          if (peer === "pass") theirs++;
          if (j.verdicts[i] === "pass") ours++;
        });
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
      console.log(
        `${draft}: ${Object.keys(current).length} tests ${JSON.stringify(counts)}; ${improvements.length} improvements over the baseline; ${overridden} optional format/content verdicts taken from ajv`,
      );
      if (compared)
        console.log(
          `${draft} vs llguidance on the ${compared} tests it lists: toolgram passes ${ours}, llguidance ${theirs}`,
        );
      if (process.env.UPDATE_BASELINE)
        writeFileSync(baselinePath, `${JSON.stringify(current, Object.keys(current).sort(), 1)}\n`);
      expect(falsePositives, "invalid instances accepted").toEqual([]);
      expect(crashes, "compiler crashes").toEqual([]);
      expect(regressions, "tests that passed in the baseline").toEqual([]);
    }, 300_000); // hostname alone compiles its 253-character product automaton (about 1.5 million steps) per schema
  });
}
