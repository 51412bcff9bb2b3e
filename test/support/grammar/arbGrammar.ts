import fc from "fast-check";
import { NOTHING, alt, cls, lit, ref, seq, token } from "../../../src/grammar/build.js";
import type { GExpr, Grammar } from "../../../src/grammar/Grammar.js";
import { mutateText, sampleGrammar } from "../../../src/testing/sampleGrammar.js";
import { seededRandom } from "../../../src/util/seededRandom.js";
import { grammar } from "./corpus.js";

// ---------- random grammars: rules r0..r3; a reference to an earlier (or the same) rule is always guarded by "("
export const ALPHABET = ["a", "b", "(", ")", "é", "-"];
function arbExpr(rule: number, nRules: number): fc.Arbitrary<GExpr> {
  const { expr } = fc.letrec<{ expr: GExpr }>((tie) => ({
    expr: fc.oneof(
      { depthSize: "small", withCrossShrink: true },
      fc.constantFrom<GExpr>(
        lit("a"),
        lit("ab"),
        lit("é-"),
        cls([0x61, 0x62]),
        cls([0xe9, 0xe9, 0x2d, 0x2d]),
        seq(),
        NOTHING,
        token("b"),
      ),
      fc
        .integer({ min: 0, max: nRules - 1 })
        .map((j): GExpr => (j > rule ? ref(`r${j}`) : seq(lit("("), ref(`r${j}`), lit(")")))),
      fc.array(tie("expr"), { minLength: 2, maxLength: 3 }).map((xs) => seq(...xs)),
      fc.array(tie("expr"), { minLength: 2, maxLength: 3 }).map((xs) => alt(...xs)),
      fc
        .record({
          item: tie("expr"),
          min: fc.constantFrom(0, 0, 1, 2, 3),
          span: fc.constantFrom<number | null>(null, 0, 1, 2, 5),
        })
        .map(({ item, min, span }): GExpr => ({ type: "repeat", item, min, max: span === null ? null : min + span })),
    ),
  }));
  return expr;
}
export const arbGrammar: fc.Arbitrary<Grammar> = fc
  .tuple(arbExpr(0, 4), arbExpr(1, 4), arbExpr(2, 4), arbExpr(3, 4))
  .map((bodies) =>
    grammar(
      "r0",
      bodies.map((b, i) => [`r${i}`, b] as [string, GExpr]),
    ),
  );

export function textsOf(g: Grammar, seed: number, n: number): string[] {
  const random = seededRandom(seed);
  const out = ["", "a", "()"];
  for (let i = 0; i < n; i++) {
    const s = sampleGrammar(g, random, { maxLength: 200 });
    if (s !== undefined) out.push(s, mutateText(s, ALPHABET, random, 1 + (i % 2)));
  }
  return out;
}
