import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Deadline } from "../../src/Deadline.js";
import { alt, lit, NOTHING, ref, rep, seq } from "../../src/grammar/build.js";
import type { GExpr, Grammar } from "../../src/grammar/Grammar.js";
import { refsOf, refsWalked } from "../../src/grammar/analysis/refs.js";
import { dedupeRules } from "../../src/grammar/passes/dedupeRules.js";
import { inlineRules } from "../../src/grammar/passes/inlineRules.js";

const SEED = 20261129;

/** Grammars of small rules referring to each other (some once, some often, some NOTHING), so that inlining composes. */
const arbGrammar: fc.Arbitrary<Grammar> = fc.integer({ min: 2, max: 30 }).chain((n) =>
  fc
    .array(
      fc.tuple(fc.integer({ min: 0, max: 6 }), fc.integer({ min: 0, max: n - 1 }), fc.integer({ min: 0, max: n - 1 })),
      { minLength: n, maxLength: n },
    )
    .map((specs): Grammar => {
      const body = ([shape, j, k]: [number, number, number]): GExpr => {
        switch (shape) {
          case 0:
            return lit("a");
          case 1:
            return seq(lit("b"), ref(`r${j}`), ref(`r${k}`));
          case 2:
            return alt(ref(`r${j}`), seq(ref(`r${k}`), ref(`r${j}`)));
          case 3:
            return rep(seq(lit("("), ref(`r${j}`), lit(")")), 0, null);
          case 4:
            return NOTHING;
          case 5:
            return seq(ref(`r${j}`), lit("c"), ref(`r${k}`), ref(`r${k}`));
          default:
            return alt(lit("d"), seq(lit("e"), ref(`r${k}`)));
        }
      };
      return { root: "r0", rules: new Map(specs.map((s, i) => [`r${i}`, body(s)])) };
    }),
);

describe("references of bodies the passes rebuild, known without walking them", () => {
  it("after inlining, composed from the inlined rules' are those a walk finds, in the same order", () => {
    fc.assert(
      fc.property(arbGrammar, (g) => {
        const d = Deadline.none();
        const out = inlineRules(g, d);
        for (const body of out.rules.values()) {
          // a fresh deadline has no references recorded: this walks the body
          expect([...refsOf(body, d)]).toEqual([...refsOf(body, Deadline.none())]);
        }
      }),
      { seed: SEED, numRuns: 200 },
    );
  });

  it("after deduplication, a renamed body's references are those a walk finds, in the same order", () => {
    fc.assert(
      fc.property(arbGrammar, (g) => {
        const d = Deadline.none();
        const out = dedupeRules(g, d);
        for (const body of out.rules.values()) expect([...refsOf(body, d)]).toEqual([...refsOf(body, Deadline.none())]);
      }),
      { seed: SEED, numRuns: 200 },
    );
  });

  it("a body rebuilt by inlining single-use rules is not walked again", () => {
    // r0 uses r1 and r2 once each; their expansions' references compose into r0's rebuilt body
    const g: Grammar = {
      root: "r0",
      rules: new Map<string, GExpr>([
        ["r0", seq(lit("["), ref("r1"), ref("r2"), lit("]"))],
        ["r1", seq(lit("x"), ref("r3"), ref("r3"))],
        ["r2", alt(lit("y"), ref("r3"))],
        ["r3", rep(seq(lit("z"), ref("r3")), 0, 1)],
      ]),
    };
    const d = Deadline.none();
    refsWalked.nodes = 0;
    const out = inlineRules(g, d);
    const walkedByInlining = refsWalked.nodes;
    const source = [...g.rules.values()].reduce((n, e) => n + size(e), 0);
    expect(out.rules.size).toBe(2);
    // the source bodies are walked once each; the rebuilt root is not
    expect(walkedByInlining).toBe(source);
    expect([...refsOf(out.rules.get("r0") as GExpr, d)]).toEqual([["r3", 3]]);
  });
});

function size(e: GExpr): number {
  if (e.type === "seq" || e.type === "alt") return 1 + e.items.reduce((n, x) => n + size(x), 0);
  if (e.type === "repeat") return 1 + size(e.item);
  return 1;
}
