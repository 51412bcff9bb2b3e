import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { twentyOpenAiTools } from "../../bench/toolSets.js";
import type { CompiledGrammar } from "../../src/CompiledGrammar.js";
import { compileSchema, compileTools } from "../../src/compile.js";
import { readCorpus } from "../../src/conformance/judgeCorpus.js";
import { toLark } from "../../src/emit/toLark.js";
import { LimitExceededError } from "../../src/errors.js";
import { FORMAT_NAMES } from "../../src/formats/index.js";
import { accepts } from "../../src/grammar/accepts.js";
import { alt, cls, lit, rep, seq } from "../../src/grammar/build.js";
import { canonicalJson } from "../../src/json.js";
import { renderToolCalls } from "../../src/parser/renderToolCalls.js";
import { seededRandom } from "../../src/util/seededRandom.js";
import { withFormatIds } from "../support/envelope/formatTools.js";
import { arbGrammar, textsOf } from "../support/grammar/arbGrammar.js";
import { SEED, corpus, grammar, textsFor } from "../support/grammar/corpus.js";
import { LARK_MISSING, disagreements, larkTexts, larkVerdicts, toolgramWalk } from "../support/larkCheck.js";
import { qwen3 } from "../support/qwen3.js";
import { tierSample } from "../support/tier.js";
import { EXPORT_TOOLS } from "../support/emit/exportTools.js";

/**
 * The heavy half of test/emit/toLark.test.ts: Python Lark (Earley, dynamic lexer) judges the Lark export of the
 * grammar corpus and random grammars, every format's grammar for a small tool set, a twenty-tool set and every 12th
 * schema of the JSONSchemaBench sample, on seeded members, their mutations and cut prefixes, renders, instances, and
 * seeded walks under toolgram's own token masks over the Qwen3 vocabulary. Any disagreement fails.
 */
const here = dirname(fileURLToPath(import.meta.url));
// the compile and the export count steps; a clock budget would fail on a loaded machine
const NO_CLOCK = { maxCompileMs: 600_000 };
// Python's Earley parser is cubic at worst: texts past this length are left to the other checks
const MAX_TEXT = 2000;

const short = (texts: readonly string[]) => texts.filter((t) => t.length <= MAX_TEXT);
// Python Lark 1.1.5 computes its Earley FIRST/FOLLOW sets in pure Python: on the largest schema grammars it does not
// finish in minutes (a 555-rule export of a Github_hard schema ran past 100 s before parsing anything), so exports of
// more rules than this are left out of the schema check (counted in rules, not in time)
const MAX_RULES = 300;

// the first of the quick check's tools alone: one call per walk keeps the texts short for Earley
const weather = EXPORT_TOOLS.slice(0, 1);

/** Seeded walks under toolgram's masks that ended: each must be a member for Lark too. */
function walks(c: CompiledGrammar, seed: number, n: number): string[] {
  const random = seededRandom(seed);
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const w = toolgramWalk(c, qwen3().vocab, random);
    if (w !== undefined) out.push(w);
  }
  return out;
}

const skip = LARK_MISSING !== undefined;

describe.skipIf(skip)(`toLark in Python Lark, whole${skip ? ` (skipped: ${LARK_MISSING})` : ""}`, () => {
  it("the whole grammar corpus (large counts included) and 150 random grammars", () => {
    const cases = [
      ...corpus.map((k) => ({ name: k.name, g: k.grammar, texts: short(textsFor(k, 15)).slice(0, 40) })),
      ...fc
        .sample(arbGrammar, { seed: SEED, numRuns: 150 })
        .map((g, i) => ({ name: `random-${i}`, g, texts: short(textsOf(g, SEED + i, 12)) })),
    ];
    const verdicts = larkVerdicts(cases.map(({ g, texts }) => ({ grammar: toLark(g), texts })));
    const wrong = cases.flatMap(({ name, g, texts }, k) =>
      texts.flatMap((t, i) => (verdicts[k][i] === accepts(g, t) ? [] : [{ name, text: t, lark: verdicts[k][i] }])),
    );
    expect(wrong).toEqual([]);
  }, 900_000);

  it("counts across the block limit: the same verdicts on either side of each bound", () => {
    const item = alt(cls([0x61, 0x7a, 0xe9, 0xe9]), lit("\\n"));
    const g = grammar("root", [["root", seq(rep(item, 2, 300), lit("<"), rep(lit("b"), 129, 129))]]);
    const texts = [0, 1, 2, 128, 129, 256, 257, 300, 301].flatMap((n) =>
      [128, 129, 130].flatMap((m) => [
        `${"é".repeat(n)}<${"b".repeat(m)}`,
        `${"a\\n".repeat(n).slice(0, n)}<${"b".repeat(m)}`,
      ]),
    );
    const [v] = larkVerdicts([{ grammar: toLark(g), texts }]);
    expect(texts.filter((t, i) => v[i] !== accepts(g, t))).toEqual([]);
    expect(v.filter(Boolean).length).toBeGreaterThan(5);
  }, 300_000);

  it("every format with a tool: renders, samples, mutations, prefixes and (every 4th format) toolgram's walks", () => {
    const walkFormats = new Set(tierSample(FORMAT_NAMES, 4, 4));
    const call = { name: "get_weather", arguments: { city: 'Par"is\n😀', unit: "celsius", days: 3 } };
    let ended = 0;
    const cases = FORMAT_NAMES.map((format, i) => {
      const compiled = compileTools(weather, { format, limits: NO_CLOCK });
      const render = renderToolCalls(withFormatIds([call], format), format);
      const walked = walkFormats.has(format) ? walks(compiled, SEED + 200 + i, 6) : [];
      ended += walked.length;
      return { format, compiled, render, walked, ...larkTexts(compiled, SEED + i, 15, [render, ...walked]) };
    });
    const verdicts = larkVerdicts(cases.map((k) => ({ grammar: k.compiled.toLark(), texts: short(k.texts) })));
    const wrong = cases.flatMap((k, i) =>
      disagreements(k.compiled, short(k.texts), verdicts[i]).map((d) => ({ format: k.format, ...d })),
    );
    expect(wrong).toEqual([]);
    for (const k of cases) {
      expect(k.compiled.accepts(k.render), k.format).toBe(true);
      for (const w of k.walked) expect(k.compiled.accepts(w), k.format).toBe(true);
    }
    expect(ended).toBeGreaterThan(0);
  }, 900_000);

  it("twenty tools, calls required, in the qwen3 and llama3-json formats", () => {
    const cases = (["qwen3", "llama3-json"] as const).map((format, i) => {
      const compiled = compileTools(twentyOpenAiTools(), { format, toolChoice: "required", limits: NO_CLOCK });
      return { format, compiled, ...larkTexts(compiled, SEED + 100 + i, 30, walks(compiled, SEED + 300 + i, 6)) };
    });
    const verdicts = larkVerdicts(cases.map((k) => ({ grammar: k.compiled.toLark(), texts: short(k.texts) })));
    const wrong = cases.flatMap((k, i) =>
      disagreements(k.compiled, short(k.texts), verdicts[i]).map((d) => ({ format: k.format, ...d })),
    );
    expect(wrong).toEqual([]);
  }, 900_000);

  it("every 12th schema of the JSONSchemaBench sample: instances, samples, mutations, prefixes and walks", () => {
    const rows = tierSample(readCorpus(join(here, "../fixtures/jsonschemabench/sample.jsonl")), 40, 12);
    const cases = rows.flatMap((row, i) => {
      let compiled: CompiledGrammar;
      try {
        compiled = compileSchema(row.schema);
        compiled.toLark();
      } catch (e) {
        // toolgram refuses the schema, or the export runs out of the compile's budget: nothing to compare
        if (e instanceof LimitExceededError || (e as { code?: string }).code !== undefined) return [];
        throw e;
      }
      if (compiled.toLark().split("\n").length > MAX_RULES) return [];
      const instances = row.tests.map((t) => canonicalJson(t.data));
      const walked = i % 3 === 0 ? walks(compiled, SEED + 1000 + i, 2) : [];
      return [{ id: row.id, compiled, ...larkTexts(compiled, SEED + 1000 + i, 6, [...instances, ...walked]) }];
    });
    expect(cases.length).toBeGreaterThan(rows.length / 2);
    const verdicts = larkVerdicts(cases.map((k) => ({ grammar: k.compiled.toLark(), texts: short(k.texts) })));
    const wrong = cases.flatMap((k, i) =>
      disagreements(k.compiled, short(k.texts), verdicts[i]).map((d) => ({ id: k.id, ...d })),
    );
    expect(wrong).toEqual([]);
  }, 1_800_000);
});
