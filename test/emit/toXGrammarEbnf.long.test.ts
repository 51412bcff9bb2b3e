import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { twentyOpenAiTools } from "../../bench/toolSets.js";
import type { CompiledGrammar } from "../../src/CompiledGrammar.js";
import { compileSchema, compileTools } from "../../src/compile.js";
import { LimitExceededError } from "../../src/errors.js";
import { readCorpus } from "../../src/conformance/judgeCorpus.js";
import { sampleGrammar } from "../../src/testing/sampleGrammar.js";
import { seededRandom } from "../../src/util/seededRandom.js";
import { agree, xgHarness, type XgHarness } from "../support/emit/xgrammarCheck.js";
import { SEED } from "../support/grammar/corpus.js";
import { tierRuns, tierSample } from "../support/tier.js";

/**
 * The heavy half of test/emit/toXGrammarEbnf.test.ts: XGrammar's mask walks over the Qwen3 vocabulary on larger tool
 * sets and on the JSONSchemaBench sample (each needs XGrammar's compile over 151,936 tokens).
 */
const here = dirname(fileURLToPath(import.meta.url));
// the compile and the EBNF printed under its budget count steps; a clock budget would fail on a loaded machine
const NO_CLOCK = { maxCompileMs: 600_000 };

let h: XgHarness;
beforeAll(async () => {
  h = await xgHarness();
}, 60_000);

describe("toXGrammarEbnf on larger tool sets", () => {
  // a walk's text holds the text of the special tokens it drew (<tool_call>…), as XGrammar matched it
  it("twenty tools, calls required, in the qwen3 and llama3-json formats", async () => {
    let ended = 0;
    for (const [i, format] of (["qwen3", "llama3-json"] as const).entries()) {
      const c = compileTools(twentyOpenAiTools(), { format, toolChoice: "required", limits: NO_CLOCK });
      ended += await agree(h, c, SEED + 100 + i, tierRuns(10, 30), tierRuns(4, 12));
    }
    expect(ended).toBeGreaterThan(0);
  }, 300_000);
});

describe("toXGrammarEbnf on the JSONSchemaBench sample", () => {
  // strings with minLength > 0 and maxLength > 128 (XGrammar's repetition above 128 dropped members) are covered here
  it("schemas toolgram compiles: XGrammar compiles the EBNF and agrees on samples and walks", async () => {
    const rows = tierSample(readCorpus(join(here, "../fixtures/jsonschemabench/sample.jsonl")), 40, 12);
    let checked = 0;
    let ended = 0;
    for (const [i, row] of rows.entries()) {
      let c: CompiledGrammar;
      try {
        // the default step budget without the clock: the same schemas are compared on any machine
        c = compileSchema(row.schema, { limits: NO_CLOCK });
      } catch {
        continue; // toolgram refuses it (or its budget runs out): nothing to export
      }
      try {
        c.toXGrammarEbnf();
      } catch (e) {
        // printing spends the same budget, a step per printed byte (one schema here prints 65 MB, which XGrammar's
        // EBNF reader aborts on): a limit reached there is the export's clear refusal, nothing to compare
        if (e instanceof LimitExceededError) continue;
        throw e;
      }
      // the sampler's length budget finds no member of some grammars (every member long): nothing to compare there
      if (sampleGrammar(c.grammar, seededRandom(SEED + i), { extraRepeats: 2, maxLength: 1500 }) === undefined)
        continue;
      ended += await agree(h, c, SEED + 1000 + i, tierRuns(4, 10), i % 3 === 0 ? 2 : 0);
      checked++;
    }
    expect(checked).toBeGreaterThan(rows.length / 2);
    expect(ended).toBeGreaterThan(0);
  }, 900_000);
});
