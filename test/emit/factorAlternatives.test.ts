import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { factorAlternatives } from "../../src/emit/factorAlternatives.js";
import { accepts } from "../../src/grammar/accepts.js";
import { alt, cls, lit, seq, token } from "../../src/grammar/build.js";
import type { GExpr, Grammar } from "../../src/grammar/Grammar.js";
import { arbGrammar, textsOf } from "../support/grammar/arbGrammar.js";
import { SEED } from "../support/grammar/corpus.js";

/** `e` with every alternation factored, as toGbnf prints it. */
function factorDeep(e: GExpr): GExpr {
  switch (e.type) {
    case "seq":
      return { type: "seq", items: e.items.map(factorDeep) };
    case "alt":
      return { type: "alt", items: factorAlternatives(e.items.map(factorDeep)) };
    case "repeat":
      return { ...e, item: factorDeep(e.item) };
    default:
      return e;
  }
}

describe("factorAlternatives", () => {
  it("shares leading text and merges single characters into one class", () => {
    const items = [
      lit("\\b"),
      lit("\\t"),
      seq(lit("\\u000"), cls([0x30, 0x37])),
      seq(lit("\\u001"), cls([0x30, 0x39])),
      cls([0x41, 0x5a]),
    ];
    expect(factorAlternatives(items)).toEqual([
      seq(
        lit("\\"),
        alt(
          cls([0x62, 0x62, 0x74, 0x74]),
          seq(lit("u00"), alt(seq(lit("0"), cls([0x30, 0x37])), seq(lit("1"), cls([0x30, 0x39])))),
        ),
      ),
      cls([0x41, 0x5a]),
    ]);
  });

  it("leaves special tokens whole and keeps an alternative that becomes empty", () => {
    expect(factorAlternatives([token("<a>"), token("<b>")])).toEqual([token("<a>"), token("<b>")]);
    expect(factorAlternatives([lit("ab"), lit("a")])).toEqual([
      seq(lit("a"), alt(lit("b"), { type: "literal", text: "" })),
    ]);
  });

  it("never changes the language (random grammars, samples and mutants; seed printed on failure)", () => {
    fc.assert(
      fc.property(arbGrammar, fc.integer(), (g, s) => {
        const f: Grammar = { ...g, rules: new Map([...g.rules].map(([n, b]) => [n, factorDeep(b)])) };
        for (const t of [...textsOf(g, s, 8), ...textsOf(f, s + 1, 8)]) expect(accepts(f, t)).toBe(accepts(g, t));
      }),
      { seed: SEED, numRuns: 150 },
    );
  });
});
