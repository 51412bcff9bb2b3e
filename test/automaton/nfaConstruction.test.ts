import { describe, expect, it } from "vitest";
import { composedMcpTools, githubMcpTools } from "../../bench/toolSets.js";
import { buildNfa } from "../../src/automaton/buildNfa.js";
import { compileTools } from "../../src/compile.js";
import { Deadline } from "../../src/Deadline.js";
import { forEachNode } from "../../src/grammar/analysis/foldExpr.js";
import type { Grammar } from "../../src/grammar/Grammar.js";

/**
 * What building a tool set's NFA costs before its first state, counted in the compile budget's steps (one per node a
 * grammar walk visits, one per rule the productive-rules fixpoint evaluates, one per state): the reference graph,
 * reference counts, inlined copies, looping bodies and size estimates come from one walk of every rule body, where
 * they were four walks of the whole grammar, and each rule's productiveness is evaluated once.
 */
const policy = { format: "qwen3", toolChoice: "required", parallel: false, limits: { maxCompileMs: 600_000 } } as const;

function treeNodes(g: Grammar): number {
  let n = 0;
  for (const body of g.rules.values()) forEachNode(body, () => n++);
  return n;
}

describe("NFA construction work", () => {
  for (const [name, tools] of [
    ["117 GitHub MCP tools", githubMcpTools],
    ["500 MCP tools", () => composedMcpTools(500)],
  ] as const) {
    it(`${name}: one walk of the grammar before the first state`, () => {
      const g = compileTools(tools(), policy).grammar;
      const deadline = new Deadline({
        maxCompileSteps: Number.MAX_SAFE_INTEGER,
        maxCompileMs: Number.POSITIVE_INFINITY,
      });
      const nfa = buildNfa(g, { specialTokens: "token-or-text", maxStates: 1_000_000, deadline });
      // nodes walked once + one evaluation per rule + the states built (three walks and more before)
      expect(deadline.stepsTaken).toBe(treeNodes(g) + g.rules.size + nfa.stateCount);
    });
  }
});
