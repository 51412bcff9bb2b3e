import { describe, expect, it } from "vitest";
import { accepts } from "../../src/grammar/accepts.js";
import { alt, cls, lit, ref, rep, seq } from "../../src/grammar/build.js";
import type { Grammar } from "../../src/grammar/Grammar.js";
import { dedupeRules } from "../../src/grammar/passes/dedupeRules.js";
import { inlineRules } from "../../src/grammar/passes/inlineRules.js";
import { leftRecursiveRules } from "../../src/grammar/analysis/leftRecursiveRules.js";
import { optimize } from "../../src/grammar/passes/optimize.js";
import { isRecursive, recursiveRules } from "../../src/grammar/analysis/ruleGraph.js";
import { removeDeadRules } from "../../src/grammar/passes/removeDeadRules.js";
import { removeNullableLoops } from "../../src/grammar/passes/removeNullableLoops.js";
import { grammarKey } from "../../src/grammar/analysis/exprKey.js";
import { validateGrammar } from "../../src/grammar/validateGrammar.js";
import fc from "fast-check";
import { arbGrammar, textsOf } from "../support/grammar/arbGrammar.js";
import { SEED, corpus, grammar, textsFor } from "../support/grammar/corpus.js";

const passes: [string, (g: Grammar) => Grammar][] = [
  ["removeDeadRules", removeDeadRules],
  ["dedupeRules", dedupeRules],
  ["inlineRules", inlineRules],
  ["removeNullableLoops", removeNullableLoops],
  ["optimize", optimize],
];

describe("passes preserve the language", () => {
  for (const k of corpus) {
    const texts = textsFor(k, 60, 7);
    for (const [name, pass] of passes) {
      it(`${name} on ${k.name}`, () => {
        const before = grammarKey(k.grammar);
        const out = pass(k.grammar);
        expect(grammarKey(k.grammar)).toBe(before); // input untouched
        validateGrammar(out);
        expect(out.root).toBe(k.grammar.root);
        for (const t of texts) expect([t.slice(0, 60), accepts(out, t)]).toEqual([t.slice(0, 60), k.oracle(t)]);
        // deterministic: same input, byte-identical output
        expect(grammarKey(pass(k.grammar))).toBe(grammarKey(out));
      });
    }
  }
});

describe("what each pass does", () => {
  it("removeDeadRules drops unreachable rules and keeps order", () => {
    const g = grammar("root", [
      ["root", seq(ref("b"), ref("a"))],
      ["x", lit("x")],
      ["a", lit("a")],
      ["b", ref("a")],
      ["y", ref("x")],
    ]);
    expect([...removeDeadRules(g).rules.keys()]).toEqual(["root", "a", "b"]);
  });

  it("dedupeRules merges equal bodies into the first, transitively, and never renames the root", () => {
    const g = grammar("root", [
      ["root", seq(ref("a1"), ref("a2"), ref("b1"), ref("b2"))],
      ["a1", lit("a")],
      ["a2", lit("a")],
      ["b1", seq(lit("b"), ref("a1"))],
      ["b2", seq(lit("b"), ref("a2"))],
      ["r2", seq(ref("a1"), ref("a2"), ref("b1"), ref("b2"))],
    ]);
    const out = dedupeRules(g);
    expect([...out.rules.keys()]).toEqual(["root", "a1", "b1"]);
    expect(grammarKey(out)).toContain('root=s(r"a1" r"a1" r"b1" r"b1")');
  });

  it("dedupeRules merges rules whose bodies differ only in references to themselves", () => {
    // two tools' any-value rules: each refers to itself, so their bodies are not equal as they stand
    const value = (self: string) =>
      alt(lit("n"), seq(lit("["), ref(self), rep(seq(lit(","), ref(self)), 0, null), lit("]")));
    const g = grammar("root", [
      ["root", alt(ref("a-value"), seq(lit("b:"), ref("b-value")), seq(lit("c:"), ref("c-list")))],
      ["a-value", value("a-value")],
      ["b-value", value("b-value")],
      // the same shape referring to another rule is not merged with them (it is not its own least solution)
      ["c-list", value("a-value")],
    ]);
    const out = dedupeRules(g);
    expect([...out.rules.keys()]).toEqual(["root", "a-value", "c-list"]);
    expect(grammarKey(out)).toContain('root=a(r"a-value"|s(l"b:" r"a-value")|s(l"c:" r"c-list"))');
    for (const text of ["n", "b:[n,[n]]", "c:[[n],n]", "b:[]"]) expect(accepts(out, text)).toBe(accepts(g, text));
  });

  it("inlineRules inlines single-use and tiny rules but never recursive ones or the root", () => {
    const g = grammar("root", [
      ["root", seq(ref("once"), ref("tiny"), ref("tiny"), ref("rec"), ref("big"), ref("big"))],
      ["once", seq(lit("o"), rep(cls([0x61, 0x7a]), 0, null), lit("o"))],
      ["tiny", lit("t")],
      ["rec", alt(seq(lit("("), ref("rec"), lit(")")), lit("r"))],
      ["big", seq(lit("b"), rep(cls([0x30, 0x39]), 1, 3), lit("b"), opt2())],
    ]);
    const out = inlineRules(g);
    expect([...out.rules.keys()]).toEqual(["root", "rec", "big"]);
    expect(accepts(out, "oabotttbb1b(r)b2b")).toBe(false);
    expect(accepts(out, "oabott(r)b1bb2b")).toBe(true);
  });

  it("optimize reaches a fixpoint and is idempotent", () => {
    for (const k of corpus) {
      const once = optimize(k.grammar);
      expect(grammarKey(optimize(once))).toBe(grammarKey(once));
    }
  });

  it("recursiveRules / isRecursive / leftRecursiveRules", () => {
    const g = grammar("root", [
      ["root", seq(ref("a"), ref("list"))],
      ["a", alt(seq(lit("x"), ref("b")), lit("y"))],
      ["b", seq(ref("a"), lit("z"))],
      ["list", rep(lit("l"), 0, null)],
      ["self", seq(ref("self"), lit("s"))],
    ]);
    expect(recursiveRules(g)).toEqual(["a", "b", "self"]);
    expect(isRecursive(g)).toBe(true);
    expect(leftRecursiveRules(g)).toEqual(["self"]);
    expect(
      isRecursive(
        grammar("root", [
          ["root", ref("l")],
          ["l", lit("l")],
          ["self", ref("self")],
        ]),
      ),
    ).toBe(false);
    for (const k of corpus) {
      expect(isRecursive(k.grammar)).toBe(k.recursive);
      expect(leftRecursiveRules(k.grammar).length > 0).toBe(k.leftRecursive ?? false);
    }
  });
});

function opt2() {
  return rep(lit("!"), 0, 1);
}

describe("passes preserve the language of random grammars", () => {
  it("optimize and removeNullableLoops agree with the original on samples and mutations", () => {
    const grammars = fc.sample(arbGrammar, { seed: SEED, numRuns: 80 });
    grammars.forEach((g, i) => {
      const texts = textsOf(g, SEED + i, 10);
      for (const [name, pass] of passes) {
        const out = pass(g);
        validateGrammar(out);
        for (const t of texts) {
          if (accepts(out, t) !== accepts(g, t))
            throw new Error(`${name} changed the verdict on ${JSON.stringify(t)} (grammar #${i}, seed ${SEED})`);
        }
      }
    });
  });
});
