import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { alt, lit, ref, rep, seq } from "../../src/grammar/build.js";
import type { GExpr, Grammar } from "../../src/grammar/Grammar.js";
import { dedupeRules } from "../../src/grammar/passes/dedupeRules.js";
import { exprKey, grammarKey } from "../../src/grammar/analysis/exprKey.js";
import { mapRefs } from "../../src/grammar/passes/rewrite.js";
import { Deadline } from "../../src/Deadline.js";

const SEED = 20261122;

/** A body's key with references to its own rule read as one placeholder (`a ::= "b" a` and `c ::= "b" c` are equal). */
const keyModuloSelf = (name: string, body: GExpr): string =>
  exprKey(body, undefined, (r) => (r === name ? "SELF" : JSON.stringify(r)));

/**
 * The round-based definition: re-key every rule (modulo self-reference), merge equal bodies into the first, until
 * nothing merges.
 */
function dedupeByRounds(g: Grammar): Grammar {
  let rules = g.rules;
  for (;;) {
    const firstByKey = new Map<string, string>([[keyModuloSelf(g.root, rules.get(g.root) as GExpr), g.root]]);
    const alias = new Map<string, string>();
    for (const [name, body] of rules) {
      const k = keyModuloSelf(name, body);
      const first = firstByKey.get(k);
      if (first === undefined) firstByKey.set(k, name);
      else if (first !== name) alias.set(name, first);
    }
    if (alias.size === 0) return { root: g.root, rules };
    const next = new Map<string, GExpr>();
    for (const [name, body] of rules)
      if (!alias.has(name))
        next.set(
          name,
          mapRefs(body, (r) => (alias.has(r.rule) ? ref(alias.get(r.rule) as string) : r)),
        );
    rules = next;
  }
}

/** Grammars of many small rules over few shapes, so that equal bodies (and chains of them) are common. */
const arbDupGrammar: fc.Arbitrary<Grammar> = fc.integer({ min: 2, max: 40 }).chain((n) =>
  fc
    .array(
      fc.tuple(fc.integer({ min: 0, max: 5 }), fc.integer({ min: 0, max: n - 1 }), fc.integer({ min: 0, max: n - 1 })),
      { minLength: n, maxLength: n },
    )
    .map((specs): Grammar => {
      const body = ([shape, j, k]: [number, number, number]): GExpr => {
        switch (shape) {
          case 0:
            return lit("a");
          case 1:
            return seq(lit("b"), ref(`r${j}`));
          case 2:
            return alt(ref(`r${j}`), ref(`r${k}`));
          case 3:
            return rep(seq(lit("("), ref(`r${j}`), lit(")")), 0, null);
          case 4:
            return seq(ref(`r${j}`), ref(`r${k}`));
          default:
            return alt(lit("c"), seq(lit("b"), ref(`r${k}`)));
        }
      };
      return { root: `r${n - 1}`, rules: new Map(specs.map((s, i) => [`r${i}`, body(s)])) };
    }),
);

describe("dedupeRules (incremental)", () => {
  it("gives exactly the round-based result", () => {
    fc.assert(
      fc.property(arbDupGrammar, (g) => {
        expect(grammarKey(dedupeRules(g))).toBe(grammarKey(dedupeByRounds(g)));
      }),
      { seed: SEED, numRuns: 400 },
    );
  });

  it("merges a long chain of equal rules without re-keying the grammar per link", () => {
    // a_i = "x" a_{i+1}, b_i = "x" b_{i+1}, a_n = b_n = "y": the chains become equal from the end, one link per round
    const n = 3_000;
    const rules = new Map<string, GExpr>([["root", seq(ref("a0"), ref("b0"))]]);
    for (let i = 0; i < n; i++) rules.set(`a${i}`, seq(lit("x"), ref(`a${i + 1}`)));
    for (let i = 0; i < n; i++) rules.set(`b${i}`, seq(lit("x"), ref(`b${i + 1}`)));
    rules.set(`a${n}`, lit("y"));
    rules.set(`b${n}`, lit("y"));
    // the round-based version took n rounds over 2n rules (minutes at this n, past the test's timeout)
    const out = dedupeRules({ root: "root", rules });
    expect(out.rules.size).toBe(n + 2);
    expect(exprKey(out.rules.get("root") as GExpr)).toBe('s(r"a0" r"a0")');
  });

  it("leaves the bodies that refer to no merged rule alone (counted in steps)", () => {
    // two equal small rules first, then many large bodies that do not refer to them: after the merge, rewriting
    // every later body's references (a walk of each) would cost as much again as keying them
    const rules = new Map<string, GExpr>([
      ["root", seq(ref("d1"), ref("d2"), ...Array.from({ length: 200 }, (_, i) => ref(`big${i}`)))],
    ]);
    rules.set("d1", lit("dup"));
    rules.set("d2", lit("dup"));
    for (let i = 0; i < 200; i++)
      rules.set(`big${i}`, seq(...Array.from({ length: 60 }, (_, k) => alt(lit(`w${i}-${k}`), rep(lit("z"), 0, k)))));
    const keyOnly = Deadline.fromLimits({ maxCompileSteps: 1e9, maxCompileMs: Number.POSITIVE_INFINITY });
    for (const e of rules.values()) exprKey(e, keyOnly);
    const d = Deadline.fromLimits({ maxCompileSteps: 1e9, maxCompileMs: Number.POSITIVE_INFINITY });
    const out = dedupeRules({ root: "root", rules }, d);
    expect(out.rules.has("d2")).toBe(false);
    for (let i = 0; i < 200; i++) expect(out.rules.get(`big${i}`)).toBe(rules.get(`big${i}`));
    // keying every body and collecting its references (a walk each), then rewriting the root alone; rewriting every
    // body after the merge, and again at the end, took twice as many steps
    expect(d.stepsTaken).toBeLessThan(keyOnly.stepsTaken * 2.5);
  });
});
