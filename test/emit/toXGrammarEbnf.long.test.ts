import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { twentyOpenAiTools } from "../../bench/toolSets.js";
import type { CompiledGrammar } from "../../src/CompiledGrammar.js";
import { compileSchema, compileTools } from "../../src/compile.js";
import { readCorpus } from "../../src/conformance/judgeCorpus.js";
import { agree, xgHarness, type XgHarness } from "../support/emit/xgrammarCheck.js";
import { SEED } from "../support/grammar/corpus.js";
import { tierRuns, tierSample } from "../support/tier.js";

/**
 * The heavy half of test/emit/toXGrammarEbnf.test.ts: XGrammar's mask walks over the Qwen3 vocabulary on larger tool
 * sets and on the JSONSchemaBench sample (each needs XGrammar's compile over 151,936 tokens).
 */
const here = dirname(fileURLToPath(import.meta.url));

let h: XgHarness;
beforeAll(async () => {
  h = await xgHarness();
}, 60_000);

describe("toXGrammarEbnf on larger tool sets", () => {
  // known disagreement (docs/vllm-sglang.md): some walks under XGrammar's masks end in texts toolgram's grammar
  // rejects, so the exported EBNF accepts more here; it.fails until the emitter is fixed, then this must pass
  it.fails("twenty tools, calls required, in the qwen3 and llama3-json formats", async () => {
    let ended = 0;
    for (const [i, format] of (["qwen3", "llama3-json"] as const).entries()) {
      const c = compileTools(twentyOpenAiTools(), { format, toolChoice: "required" });
      ended += await agree(h, c, SEED + 100 + i, tierRuns(10, 30), tierRuns(4, 12));
    }
    expect(ended).toBeGreaterThan(0);
  }, 300_000);
});

describe("toXGrammarEbnf on the JSONSchemaBench sample", () => {
  // known disagreement, as above (7 texts on the sample's every 4th schema)
  it.fails("schemas toolgram compiles: XGrammar compiles the EBNF and agrees on samples and walks", async () => {
    const rows = tierSample(readCorpus(join(here, "../fixtures/jsonschemabench/sample.jsonl")), 40, 4);
    let checked = 0;
    let ended = 0;
    for (const [i, row] of rows.entries()) {
      let c: CompiledGrammar;
      try {
        c = compileSchema(row.schema);
      } catch {
        continue; // toolgram refuses it: nothing to export
      }
      ended += await agree(h, c, SEED + 1000 + i, tierRuns(4, 10), i % 3 === 0 ? 2 : 0);
      checked++;
    }
    expect(checked).toBeGreaterThan(rows.length / 2);
    expect(ended).toBeGreaterThan(0);
  }, 300_000);
});
