import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { compileAutomaton } from "../../src/automaton/createMatcher.js";
import { compileSchema, compileTools } from "../../src/compile.js";
import { alt, cls, lit, ref, rep, seq } from "../../src/grammar/build.js";
import type { GExpr, Grammar } from "../../src/grammar/Grammar.js";
import { fuzzVocab } from "../support/fuzzVocab.js";
import { checkRandomWalks } from "../support/automaton/walkCheck.js";

/**
 * Rules referenced from several places are inlined only while that keeps the NFA small: a chain of rules each
 * referenced three times (the lowering's per-digit residue rules of an integer `multipleOf`) used to be copied
 * 3^depth times and hit LIMIT_AUTOMATON_SIZE.
 */
const SEED = Number(process.env.TOOLGRAM_SEED ?? 20261122);
const vocab = fuzzVocab();

/** d levels of residue rules mod 3, each rule referenced three times by the level above. */
function residueChain(depth: number): Grammar {
  const rules = new Map<string, GExpr>();
  const digits = [
    cls([0x30, 0x30, 0x33, 0x33, 0x36, 0x36, 0x39, 0x39]),
    cls([0x31, 0x31, 0x34, 0x34, 0x37, 0x37]),
    cls([0x32, 0x32, 0x35, 0x35, 0x38, 0x38]),
  ];
  for (let r = 0; r < 3; r++) rules.set(`l0-${r}`, r === 0 ? lit("") : lit("x"));
  for (let d = 1; d <= depth; d++) {
    for (let r = 0; r < 3; r++)
      rules.set(`l${d}-${r}`, alt(...digits.map((c, k) => seq(c, ref(`l${d - 1}-${(r + 3 - k) % 3}`)))));
  }
  rules.set("root", ref(`l${depth}-0`));
  return { root: "root", rules };
}

describe("shared rules keep the NFA linear", () => {
  it("a 40-level chain of rules referenced three times builds a small NFA", () => {
    const small = compileAutomaton(residueChain(10)).nfa.stateCount;
    const big = compileAutomaton(residueChain(40)).nfa.stateCount;
    // linear: four times the levels, about four times the states (inlined, 40 levels would be ~3^40)
    expect(big).toBeLessThan(small * 6);
    expect(big).toBeLessThan(5000);
  });

  it('{"type":"integer","multipleOf":3}: masks are exact and every completed text is a multiple of 3', () => {
    const compiled = compileSchema({ type: "integer", multipleOf: 3 });
    expect(compileAutomaton(compiled.grammar).nfa.stateCount).toBeLessThan(5000);
    let completed = 0;
    checkRandomWalks(compiled.grammar, vocab, {
      seed: SEED,
      numRuns: 60,
      maxLength: 24,
      onText: (text) => {
        completed++;
        expect(compiled.accepts(text)).toBe(true);
        expect(BigInt(text) % 3n).toBe(0n);
      },
    });
    expect(completed).toBeGreaterThan(5);
  });

  it("the nested-arrays tool set compiles to a matcher and its masks are exact", () => {
    const tools = JSON.parse(
      readFileSync(new URL("../regressions/automaton-blowup-nested-arrays.tools.json", import.meta.url), "utf8"),
    ) as Parameters<typeof compileTools>[0];
    const compiled = compileTools(tools, { format: "qwen3" });
    compiled.createMatcher(vocab);
    checkRandomWalks(compiled.grammar, vocab, {
      seed: SEED,
      numRuns: 30,
      maxLength: 60,
      onText: (text) => expect(compiled.accepts(text)).toBe(true),
    });
  });

  it("a large rule used twice is called, not copied, and masks stay exact", () => {
    const big = alt(...Array.from({ length: 40 }, (_, k) => lit(`w${k}`)));
    const g: Grammar = {
      root: "root",
      rules: new Map<string, GExpr>([
        ["root", seq(ref("big"), lit(","), ref("big"))],
        ["big", big],
      ]),
    };
    const A = compileAutomaton(g);
    expect(A.nfa.frameNames).toContain("big");
    checkRandomWalks(g, vocab, { seed: SEED, numRuns: 30, maxLength: 12 });
  });
});

describe("string frames are shared whatever follows the closing quote", () => {
  it("a loop followed by a merged literal calls the same self-contained frame", () => {
    const str = (after: string): GExpr =>
      seq(lit('"'), rep(cls([0x20, 0x21, 0x23, 0x5b, 0x5d, 0x10ffff]), 0, null), lit(after));
    const keysOf = (g: Grammar): string[] =>
      compileAutomaton(g).nfa.frameKey.filter((k): k is string => k !== undefined);
    const a = keysOf({ root: "root", rules: new Map<string, GExpr>([["root", seq(lit("{"), str('", "b": 1}'))]]) });
    const b = keysOf({ root: "root", rules: new Map<string, GExpr>([["root", seq(lit("["), str('"]'))]]) });
    expect(a.length).toBe(1);
    expect(a).toEqual(b);
    const g: Grammar = {
      root: "root",
      rules: new Map<string, GExpr>([["root", alt(seq(lit("{"), str('", "b": 1}')), seq(lit("["), str('"]')))]]),
    };
    checkRandomWalks(g, vocab, { seed: SEED, numRuns: 30, maxLength: 20 });
  });
});

describe("long bounded repetitions", () => {
  it("a string character repeated {0,500} calls one frame per copy: small NFA, exact masks, the bound holds", () => {
    const compiled = compileSchema({ type: "string", maxLength: 500 });
    const small = compileAutomaton(compileSchema({ type: "string", maxLength: 20 }).grammar).nfa.stateCount;
    expect(compileAutomaton(compiled.grammar).nfa.stateCount).toBeLessThan(small * 2); // inlined: about 25 times
    checkRandomWalks(compiled.grammar, vocab, {
      seed: SEED,
      numRuns: 20,
      maxLength: 40,
      onText: (text) => expect(compiled.accepts(text)).toBe(true),
    });
    const m = compiled.createMatcher(vocab);
    expect(m.acceptString(`"${"é".repeat(500)}`)).toBe(true);
    expect(m.acceptString("é")).toBe(false);
    expect(m.acceptString('"')).toBe(true);
    expect(m.isCompleted()).toBe(true);
  });
});
