import { describe, expect, it } from "vitest";
import { githubMcpTools, twentyOpenAiTools } from "../../bench/toolSets.js";
import { compileSchema, compileTools } from "../../src/compile.js";
import { FORMAT_NAMES } from "../../src/formats/descriptions.js";
import type { Grammar } from "../../src/grammar/Grammar.js";
import { simplify } from "../../src/grammar/passes/rewrite.js";
import { sampleRows } from "../../bench/jsonSchemaBenchSample.js";
import { tierRotate, tierSample } from "../support/tier.js";

/**
 * The optimizer simplifies only the bodies an inlining rebuilt: the others are left as the lowering and the envelopes
 * built them, with the smart constructors, which give what `simplify` would (simplifying every body again was a walk of
 * the whole grammar with a table entry per node). Checked here on every format and the JSONSchemaBench sample: every
 * body of a compiled grammar is its own simplified form. The quick tier takes every third format with one of the two
 * tool sets (in turn) and every twenty-fourth schema of the sample; the long tier all of them.
 */
function unsimplified(g: Grammar): string[] {
  return [...g.rules].filter(([, body]) => simplify(body) !== body).map(([name]) => name);
}

describe("compiled grammars are simplified", () => {
  tierSample(FORMAT_NAMES, 3).forEach((format, i) => {
    it(`${format}: the 20 tools' and the GitHub tools' bodies`, () => {
      for (const make of tierRotate([twentyOpenAiTools, githubMcpTools], i, 2)) {
        const tools = make();
        let c;
        try {
          c = compileTools(tools, { format, toolChoice: "required" });
        } catch (e) {
          // a format whose argument spelling refuses a schema of the set (checked by the format's own tests)
          expect((e as { code?: string }).code).toBeDefined();
          continue;
        }
        expect(unsimplified(c.grammar)).toEqual([]);
      }
    });
  });

  it("the JSONSchemaBench sample", () => {
    let compiled = 0;
    const rows = tierSample(sampleRows(), 24);
    for (const row of rows) {
      let c;
      try {
        c = compileSchema(row.schema, { limits: { maxCompileMs: Number.POSITIVE_INFINITY } });
      } catch {
        continue;
      }
      compiled++;
      expect(unsimplified(c.grammar), row.id).toEqual([]);
    }
    expect(compiled).toBeGreaterThan(rows.length / 2);
  });
});
