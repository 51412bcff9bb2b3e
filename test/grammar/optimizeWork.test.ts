import { describe, expect, it } from "vitest";
import { githubMcpTools } from "../../bench/toolSets.js";
import { compileTools } from "../../src/compile.js";
import { Deadline } from "../../src/Deadline.js";
import { grammarKey } from "../../src/grammar/analysis/exprKey.js";
import { forEachNode } from "../../src/grammar/analysis/foldExpr.js";
import { refsWalked } from "../../src/grammar/analysis/refs.js";
import { alt, ref } from "../../src/grammar/build.js";
import type { GExpr, Grammar } from "../../src/grammar/Grammar.js";
import { optimize } from "../../src/grammar/passes/optimize.js";
import { toolFragments } from "../../src/ToolFragmentCache.js";

/** Nodes of a grammar's bodies as the passes walk them (a shared subtree once per occurrence). */
function nodeCount(g: Grammar): number {
  let n = 0;
  for (const e of g.rules.values()) forEachNode(e, () => n++);
  return n;
}

/**
 * The GitHub MCP server's 117 tools as the optimizer gets them: every tool's lowered arguments (its fragment, before
 * any pass) and a root choosing one of them.
 */
function githubToolsUnoptimized(): Grammar {
  toolFragments.clear();
  compileTools(githubMcpTools(), { format: "qwen3", toolChoice: "required", parallel: false });
  const rules = new Map<string, GExpr>();
  const args: GExpr[] = [];
  for (const f of toolFragments.values()) {
    for (const [n, e] of f.rules) rules.set(n, e);
    args.push(ref(f.argsRule));
  }
  return { root: "root", rules: new Map([["root", alt(...args)], ...rules]) };
}

/**
 * The optimizer's passes ask for every body's references several times per round (dead rules, deduplication,
 * inlining and its dead rules again), and its last round only confirms that nothing changes. References are found
 * once per body per compile (`refsOf`, kept per deadline), and a later round does not look for dead rules again
 * (inlining's result has none). Counted, never timed.
 */
describe("optimizer work", () => {
  it("walks each body once to find its references, and optimizes the 117 GitHub tools in under 4 steps a node", () => {
    const g = githubToolsUnoptimized();
    const nodes = nodeCount(g);
    const d = Deadline.none();
    refsWalked.nodes = 0;
    const o = optimize(g, d);
    // the bodies inlining and deduplication rebuild are walked too, once each: before, every body 4–5 times a round
    expect(refsWalked.nodes).toBeLessThan(1.5 * nodes);
    // 172,617 steps before (8.1 a node), 74,649 after; 41,073 → 39,009 when bodies no inlining touches are not
    // simplified again
    expect(d.stepsTaken).toBeLessThan(4 * nodes);
    expect(o.rules.size).toBeLessThan(g.rules.size / 5);
  });

  it("an optimized grammar is walked exactly once and comes back unchanged", () => {
    const o = optimize(githubToolsUnoptimized(), Deadline.none());
    refsWalked.nodes = 0;
    const d = Deadline.none();
    const again = optimize(o, d);
    expect(refsWalked.nodes).toBe(nodeCount(o));
    expect(grammarKey(again)).toBe(grammarKey(o));
    // bodies no inlining touches are not simplified again: 19,101 steps when every body was (14,249 without)
    expect(d.stepsTaken).toBeLessThan(15_000);
  });

  it("references are not shared between compiles: each deadline counts its own steps", () => {
    const g = githubToolsUnoptimized();
    const a = Deadline.none();
    const b = Deadline.none();
    const oa = optimize(g, a);
    const ob = optimize(g, b);
    expect(b.stepsTaken).toBe(a.stepsTaken);
    expect(grammarKey(ob)).toBe(grammarKey(oa));
  });
});
