import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { exprSize, exprSizeAtMost, sizeChecks, sizeWalks, totalExprSize } from "../../src/grammar/analysis/exprSize.js";
import { alt, lit, seq } from "../../src/grammar/build.js";
import type { GExpr } from "../../src/grammar/Grammar.js";
import { githubMcpTools } from "../../bench/toolSets.js";
import { compileTools } from "../../src/compile.js";
import { toolFragments } from "../../src/ToolFragmentCache.js";
import { arbGrammar } from "../support/grammar/arbGrammar.js";
import { SEED } from "../support/grammar/corpus.js";

/**
 * "Small enough to inline" is asked of every value the lowerer builds and every body the inliner sees; it walks at
 * most the bound's nodes instead of sizing (and keeping a table entry for) every node of the grammar. The lowering's
 * and the tool set's size checks size every node once, with a table of their own.
 */
describe("expression sizes", () => {
  it("exprSizeAtMost(e, k) ⇔ exprSize(e) ≤ k, and totalExprSize is the sum of exprSize", () => {
    fc.assert(
      fc.property(arbGrammar, fc.integer({ min: 0, max: 30 }), (g, k) => {
        const bodies = [...g.rules.values()];
        for (const e of bodies) expect(exprSizeAtMost(e, k)).toBe(exprSize(e) <= k);
        expect(totalExprSize(bodies)).toBe(bodies.reduce((n, e) => n + exprSize(e), 0));
      }),
      { seed: SEED, numRuns: 300 },
    );
  });

  it("a shared sub-expression counts once per use, and the bounded check stops after bound + 1 nodes", () => {
    // each level uses the one below twice: over 2^20 nodes as printed, 61 distinct objects
    let e: GExpr = lit("x");
    for (let i = 0; i < 20; i++) e = alt(seq(lit("a"), e), seq(lit("b"), e));
    const tables = sizeWalks.tables;
    expect(totalExprSize([e])).toBe(exprSize(e));
    expect(totalExprSize([e, e])).toBe(2 * exprSize(e));
    // the plain walk gave up on it, and a table sized it
    expect(sizeWalks.tables).toBe(tables + 2);
    expect(exprSize(e)).toBeGreaterThan(2 ** 20);
    sizeChecks.nodes = 0;
    expect(exprSizeAtMost(e, 24)).toBe(false);
    expect(sizeChecks.nodes).toBe(25);
  });

  it("a tool set's lowering sizes its rules without a table (a plain walk of a few thousand nodes)", () => {
    toolFragments.clear();
    const tables = sizeWalks.tables;
    compileTools(githubMcpTools(), { format: "qwen3" });
    expect(sizeWalks.tables).toBe(tables);
  });
});
