import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { buildNfa } from "../../src/automaton/buildNfa.js";
import { createMatcher } from "../../src/automaton/createMatcher.js";
import { exprKey } from "../../src/grammar/analysis/exprKey.js";
import { exprSize } from "../../src/grammar/analysis/exprSize.js";
import { leftRecursiveRules } from "../../src/grammar/analysis/leftRecursiveRules.js";
import { isNullable, nullableRules } from "../../src/grammar/analysis/nullable.js";
import { isProductive, productiveRules } from "../../src/grammar/analysis/productive.js";
import { reachableRules, recursiveRules } from "../../src/grammar/analysis/ruleGraph.js";
import { alt, lit, ref, rep, seq } from "../../src/grammar/build.js";
import type { GExpr, Grammar } from "../../src/grammar/Grammar.js";
import { optimize } from "../../src/grammar/passes/optimize.js";
import { mapRefs } from "../../src/grammar/passes/rewrite.js";
import { arbGrammar } from "../support/grammar/arbGrammar.js";
import { SEED } from "../support/grammar/corpus.js";
import { tinyVocab } from "../support/tinyVocab.js";

const DEPTH = 5_000;

/** r0 → r1 → … → r{DEPTH}, each rule "x" then the next (optional), listed deepest first (the worst order). */
function ruleChain(refsPerRule: 1 | 2): Grammar {
  const rules = new Map<string, GExpr>();
  rules.set(`r${DEPTH}`, lit("y"));
  for (let i = DEPTH - 1; i >= 0; i--) {
    const next = ref(`r${i + 1}`);
    rules.set(
      `r${i}`,
      refsPerRule === 1 ? seq(lit("x"), rep(next, 0, 1)) : alt(seq(lit("x"), next), seq(lit("z"), next)),
    );
  }
  return { root: "r0", rules };
}

/** One expression nested DEPTH deep (alternatives do not flatten). */
function deepExpr(): GExpr {
  let e: GExpr = lit("y");
  for (let i = 0; i < DEPTH; i++) e = alt(seq(lit("x"), e), ref("other"));
  return e;
}

/** The textbook fixpoints, recursive and by rounds: the analyses must agree with them on small grammars. */
function naiveFixpoint(g: Grammar, holds: (e: GExpr, set: Set<string>) => boolean): Set<string> {
  const out = new Set<string>();
  for (let changed = true; changed; ) {
    changed = false;
    for (const [name, body] of g.rules) if (!out.has(name) && holds(body, out)) out.add(name), (changed = true);
  }
  return out;
}
function naiveNullable(e: GExpr, s: Set<string>): boolean {
  switch (e.type) {
    case "literal":
    case "token":
      return e.text.length === 0;
    case "charClass":
      return false;
    case "ref":
      return s.has(e.rule);
    case "seq":
      return e.items.every((x) => naiveNullable(x, s));
    case "alt":
      return e.items.some((x) => naiveNullable(x, s));
    case "repeat":
      return (e.max === null || e.max >= e.min) && (e.min === 0 || naiveNullable(e.item, s));
    case "counted":
      throw new Error("the random grammars have no counted node");
  }
}
function naiveProductive(e: GExpr, s: Set<string>): boolean {
  switch (e.type) {
    case "literal":
    case "charClass":
    case "token":
      return true;
    case "ref":
      return s.has(e.rule);
    case "seq":
      return e.items.every((x) => naiveProductive(x, s));
    case "alt":
      return e.items.some((x) => naiveProductive(x, s));
    case "repeat":
      return e.min === 0 || naiveProductive(e.item, s);
    case "counted":
      throw new Error("the random grammars have no counted node");
  }
}

describe("grammar analyses", () => {
  it("agree with the textbook fixpoints on random grammars", () => {
    fc.assert(
      fc.property(arbGrammar, (g) => {
        expect([...nullableRules(g)].sort()).toEqual([...naiveFixpoint(g, naiveNullable)].sort());
        expect([...productiveRules(g)].sort()).toEqual([...naiveFixpoint(g, naiveProductive)].sort());
      }),
      { seed: SEED, numRuns: 300 },
    );
  });

  it("walk rule chains 5,000 deep without exhausting the stack", () => {
    for (const k of [1, 2] as const) {
      const g = ruleChain(k);
      expect(nullableRules(g).size).toBe(0);
      expect(productiveRules(g).size).toBe(DEPTH + 1);
      expect(recursiveRules(g)).toEqual([]);
      expect(reachableRules(g)).toHaveLength(DEPTH + 1);
      expect(leftRecursiveRules(g)).toEqual([]);
    }
    // a cycle through the whole chain
    const g = ruleChain(1);
    g.rules.set(`r${DEPTH}`, rep(ref("r0"), 0, 1));
    expect(recursiveRules(g)).toHaveLength(DEPTH + 1);
  });

  it("walk expressions 5,000 deep without exhausting the stack", () => {
    const e = deepExpr();
    expect(exprSize(e)).toBe(4 * DEPTH - 1); // the innermost "x" "y" is one literal
    expect(exprKey(e).length).toBeGreaterThan(DEPTH);
    expect(isNullable(e, new Set(["other"]))).toBe(true);
    expect(isProductive(e, new Set())).toBe(true);
    const renamed = mapRefs(e, () => ref("renamed"));
    expect(exprKey(renamed)).toBe(exprKey(e).replaceAll('r"other"', 'r"renamed"'));
    expect(mapRefs(e, (r) => r)).toBe(e);
  });

  it("the token automaton is built from a rule chain 5,000 deep", () => {
    for (const k of [1, 2] as const) {
      const g = ruleChain(k);
      const nfa = buildNfa(g, { specialTokens: "token-or-text", maxStates: 1_000_000 });
      expect(nfa.stateCount).toBeGreaterThan(DEPTH);
      // the matcher reads the deepest text: x^DEPTH y
      const m = createMatcher(g, tinyVocab());
      expect(m.acceptString(`${"x".repeat(DEPTH)}y`)).toBe(true);
      expect(m.isCompleted()).toBe(true);
    }
    const opt = optimize(ruleChain(1));
    expect(buildNfa(opt, { specialTokens: "token-or-text", maxStates: 1_000_000 }).stateCount).toBeGreaterThan(DEPTH);
  });
});
