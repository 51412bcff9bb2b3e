import { describe, expect, it } from "vitest";
import { alt, cls, lit, ref, rep, seq } from "../../src/grammar/build.js";
import type { GExpr, Grammar } from "../../src/grammar/Grammar.js";
import { Deadline } from "../../src/Deadline.js";
import { inlineRules } from "../../src/grammar/passes/inlineRules.js";
import { optimize } from "../../src/grammar/passes/optimize.js";
import { exprKey } from "../../src/grammar/analysis/exprKey.js";
import { simplify } from "../../src/grammar/passes/rewrite.js";
import fc from "fast-check";
import { arbGrammar } from "../support/grammar/arbGrammar.js";
import { SEED, corpus } from "../support/grammar/corpus.js";

// JSONSchemaBench Handwritten---string2: inlining an automaton's chain of single-use rules nests sequences thousands
// deep; simplify rebuilt every level (quadratic: the compile overran its 5 s budget to 18 s, unchecked inside).
describe("simplify", () => {
  it("flattens sequences nested deeper than the call stack, in order", () => {
    const c = cls([0x61, 0x62]);
    let e: GExpr = lit("end");
    for (let i = 0; i < 200_000; i++) e = { type: "seq", items: [c, e] };
    const out = simplify(e);
    expect(out.type).toBe("seq");
    const items = (out as { items: GExpr[] }).items;
    expect(items.length).toBe(200_001);
    expect(items[0]).toBe(c);
    expect(items[200_000]).toEqual(lit("end"));
  });

  it("merges literals across nesting levels and drops epsilons", () => {
    const e: GExpr = {
      type: "seq",
      items: [
        lit("a"),
        { type: "seq", items: [lit("b"), { type: "seq", items: [] }, { type: "seq", items: [lit("c"), ref("r")] }] },
      ],
    };
    expect(exprKey(simplify(e))).toBe(exprKey(seq(lit("abc"), ref("r"))));
  });

  it("returns an expression the constructors leave alone as itself", () => {
    const e = alt(seq(lit("a"), ref("r")), rep(cls([0x30, 0x39]), 1, null), ref("s"));
    expect(simplify(e)).toBe(e);
    const nested: GExpr = { type: "seq", items: [lit("a"), { type: "seq", items: [ref("r")] }] };
    expect(simplify(nested)).not.toBe(nested);
  });

  // simplify remembers its results and returns them as they are: that is only right if it is idempotent
  it("is idempotent (a fresh copy of its result simplifies to the same expression)", () => {
    const check = (g: Grammar): void => {
      for (const body of g.rules.values()) {
        const once = simplify(body);
        expect(simplify(once)).toBe(once);
        expect(exprKey(simplify(structuredClone(once)))).toBe(exprKey(once));
      }
    };
    for (const k of corpus) check(k.grammar);
    fc.assert(
      fc.property(arbGrammar, (g) => check(g)),
      { seed: SEED, numRuns: 300 },
    );
  });

  it("is checked against the compile's deadline", () => {
    let e: GExpr = lit("end");
    for (let i = 0; i < 1_000; i++) e = { type: "seq", items: [ref("r"), e] };
    const spent = new Deadline({ maxCompileSteps: 0, maxCompileMs: Number.POSITIVE_INFINITY });
    expect(() => simplify(e, spent)).toThrow(/while simplifying grammar rules/);
  });
});

describe("the optimizer's fixed point", () => {
  it("inlineRules returns the grammar itself when there is nothing to do", () => {
    const g: Grammar = {
      root: "root",
      rules: new Map<string, GExpr>([
        ["root", seq(ref("a"), ref("a"))],
        ["a", seq(lit("x"), rep(ref("a"), 0, 1))],
      ]),
    };
    expect(inlineRules(g)).toBe(g);
  });

  it("optimize settles a long chain of single-use rules into one flat rule", () => {
    const rules = new Map<string, GExpr>([["root", ref("r0")]]);
    for (let i = 0; i < 1_000; i++) rules.set(`r${i}`, seq(cls([0x61, 0x62]), ref(`r${i + 1}`)));
    rules.set("r1000", lit("y"));
    const out = optimize({ root: "root", rules });
    expect([...out.rules.keys()]).toEqual(["root"]);
    const body = out.rules.get("root") as { type: string; items: GExpr[] };
    expect(body.type).toBe("seq");
    expect(body.items.length).toBe(1_001);
  });
});
