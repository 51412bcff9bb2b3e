import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { compileTools } from "../../src/compile.js";
import { XGRAMMAR_MAX_REPEAT, toXGrammarEbnf } from "../../src/emit/toXGrammarEbnf.js";
import { FORMAT_NAMES } from "../../src/formats/index.js";
import { accepts } from "../../src/grammar/accepts.js";
import { alt, cls, lit, rep, seq } from "../../src/grammar/build.js";
import { agree, xgAccepts, xgHarness, type XgHarness } from "../support/emit/xgrammarCheck.js";
import { arbGrammar, textsOf } from "../support/grammar/arbGrammar.js";
import { SEED, corpus, grammar, textsFor } from "../support/grammar/corpus.js";
import { LONG_TIER, tierRuns, tierSample } from "../support/tier.js";
import { EXPORT_TOOLS } from "../support/emit/exportTools.js";

const weather = EXPORT_TOOLS;

let h: XgHarness;
beforeAll(async () => {
  h = await xgHarness();
}, 60_000);

describe("toXGrammarEbnf: XGrammar compiles every emitted grammar and agrees with the reference acceptor", () => {
  it("the hand-built corpus (left recursion included) and random grammars: same verdict on members and mutations", async () => {
    const cases = [
      ...corpus.map((k) => ({ name: k.name, g: k.grammar, texts: textsFor(k, 15).slice(0, 40) })),
      ...fc
        .sample(arbGrammar, { seed: SEED, numRuns: tierRuns(40, 150) })
        .map((g, i) => ({ name: `random-${i}`, g, texts: textsOf(g, SEED + i, 12) })),
    ];
    const disagreements: unknown[] = [];
    let members = 0;
    for (const { name, g, texts } of cases) {
      const compiled = await h.textCompiler.compileGrammar(toXGrammarEbnf(g));
      const got = await xgAccepts(h.xg, compiled, texts);
      compiled.dispose();
      texts.forEach((t, i) => {
        const want = accepts(g, t);
        if (want) members++;
        if (got[i] !== want) disagreements.push({ name, text: t, xgrammar: got[i], toolgram: want });
      });
    }
    expect(disagreements).toEqual([]);
    // the check is not vacuous: members and non-members both met
    expect(members).toBeGreaterThan(100);
  }, 120_000);

  it("splits repetition bounds above the limit into blocks with the same language", async () => {
    const big = XGRAMMAR_MAX_REPEAT * 2 + 7;
    const g = grammar("root", [["root", seq(rep(cls([0x61, 0x62]), 1, big), lit("!"))]]);
    const ebnf = toXGrammarEbnf(g);
    expect(ebnf).toContain("repeat-block");
    expect(ebnf).not.toContain(`${big}}`);
    const texts = [1, XGRAMMAR_MAX_REPEAT, XGRAMMAR_MAX_REPEAT + 1, big, big + 1].map(
      (n) => `${"ab".repeat(n).slice(0, n)}!`,
    );
    const compiled = await h.textCompiler.compileGrammar(ebnf);
    expect(await xgAccepts(h.xg, compiled, texts)).toEqual(texts.map((t) => accepts(g, t)));
    expect(texts.map((t) => accepts(g, t))).toEqual([true, true, true, true, false]);
    compiled.dispose();
  }, 60_000);
});

describe("toXGrammarEbnf: repetition bounds XGrammar reads exactly", () => {
  // XGrammar reads a maximum above 128 through a path that drops members ("éa" under x{2,129}); the emitter prints
  // no bound above XGRAMMAR_MAX_REPEAT, so a JSON-string-like x{2,500} and a huge x{0,100000} keep their languages
  const item = cls([0x61, 0x7a, 0xe9, 0xe9, 0x3b1, 0x3c9]);
  const cases = [
    { g: grammar("root", [["root", rep(item, 2, 500)]]), lengths: [0, 1, 2, 3, 129, 500, 501] },
    {
      g: grammar("root", [["root", seq(lit("<"), rep(alt(item, lit("\\n")), 0, 100_000), lit(">"))]]),
      lengths: [0, 2, 300],
    },
  ];
  it("no printed bound above the limit, and XGrammar's verdicts equal toolgram's on non-ASCII-first texts", async () => {
    let members = 0;
    for (const [k, { g, lengths }] of cases.entries()) {
      const ebnf = toXGrammarEbnf(g);
      for (const m of ebnf.matchAll(/\{(\d+)(?:,(\d*))?\}/g))
        expect(Math.max(Number(m[1]), Number(m[2] || 0))).toBeLessThanOrEqual(XGRAMMAR_MAX_REPEAT);
      const texts = lengths.flatMap((n) => {
        const body = ["é", "a", "α", "\\n"].map((c, i) =>
          Array.from({ length: n }, (_, j) => (j === 0 ? c : "az"[(i + j) % 2])).join(""),
        );
        return k === 0 ? body : body.map((b) => `<${b}>`);
      });
      const compiled = await h.textCompiler.compileGrammar(ebnf);
      const got = await xgAccepts(h.xg, compiled, texts);
      compiled.dispose();
      const want = texts.map((t) => accepts(g, t));
      members += want.filter(Boolean).length;
      expect(texts.filter((_, i) => got[i] !== want[i])).toEqual([]);
    }
    expect(members).toBeGreaterThan(10);
  }, 60_000);
});

describe("toXGrammarEbnf on tool-call grammars: seeded samples accepted, XGrammar's mask walks accepted", () => {
  // a walk needs XGrammar's compile over the 151,936-token vocabulary: one format in the quick tier, every 4th in the long
  const walkFormats = new Set(LONG_TIER ? tierSample(FORMAT_NAMES, 4, 4) : ["qwen3"]);
  // each format's EBNF compiled in XGrammar costs about as much as its walk: the first (qwen3) in the quick tier, all in the long
  const formats = tierSample(FORMAT_NAMES, FORMAT_NAMES.length);
  it(`formats (${formats.length} of ${FORMAT_NAMES.length}) with two tools; mask walks on some`, async () => {
    let ended = 0;
    for (const [i, format] of formats.entries()) {
      const c = compileTools(weather, { format });
      ended += await agree(h, c, SEED + i, tierRuns(3, 20), walkFormats.has(format) ? tierRuns(3, 8) : 0);
    }
    expect(ended).toBeGreaterThan(0);
  }, 300_000);
});
