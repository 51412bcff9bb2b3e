import { describe, expect, it } from "vitest";
import { composedMcpTools, githubMcpTools, twentyOpenAiTools } from "../../bench/toolSets.js";
import { compileTools } from "../../src/compile.js";
import { toolFragments } from "../../src/ToolFragmentCache.js";
import { totalExprSize } from "../../src/grammar/analysis/exprSize.js";

const required = { format: "qwen3", toolChoice: "required", parallel: false } as const;

/**
 * A cold compile's work on the bench's tool sets, in steps (deterministic: the same input spends the same steps on
 * any machine, whatever the process compiled before). Before the optimizer found each body's references once, keyed
 * rebuilt bodies by the new nodes only and stopped comparing whole grammars, and before the size checks stopped
 * sizing every node twice: 12,504 / 189,914 / 384,033 steps; after: 4,491 / 65,813 / 151,051. Deduplication modulo
 * self-reference keys the any-value rules again after each optimizer round unless their key is kept per body (79
 * steps more on each set without). Bodies that deduplication renames or inlining rebuilds then had their references
 * walked again: 4,361 / 54,723 / 132,321 steps; with their references known from their parts, 3,956 / 42,793 /
 * 113,883.
 */
describe("cold compile work on the bench's tool sets", () => {
  const sets: [string, () => unknown[], object, number][] = [
    ["20 OpenAI-style tools", () => twentyOpenAiTools(), { format: "qwen3" }, 4_100],
    ["117 GitHub MCP tools", () => githubMcpTools(), required, 44_500],
    ["500 MCP tools", () => composedMcpTools(500), required, 118_000],
  ];
  for (const [name, make, policy, bound] of sets) {
    it(`${name}: under ${bound.toLocaleString("en")} steps, the same in a second cold compile`, () => {
      toolFragments.clear();
      const a = compileTools(make(), policy).compileSteps;
      toolFragments.clear();
      const b = compileTools(make(), policy).compileSteps;
      expect(a).toBeLessThan(bound);
      expect(b).toBe(a);
    });
  }
});

describe("one any-value rule per tool-set grammar", () => {
  // each tool lowers `{type: "object"}` members to its own any-value rule, which refers to itself: deduplication
  // keys bodies modulo self-reference, so they are one rule (before: 2, 2 and 3 rules; 808, 10,747 and 19,316 nodes)
  const sets: [string, () => unknown[], object, number][] = [
    ["20 OpenAI-style tools", () => twentyOpenAiTools(), { format: "qwen3" }, 652],
    ["117 GitHub MCP tools", () => githubMcpTools(), required, 10_626],
    ["500 MCP tools", () => composedMcpTools(500), required, 19_036],
  ];
  for (const [name, make, policy, nodes] of sets) {
    it(`${name}: one json-value rule, ${nodes.toLocaleString("en")} nodes at most`, () => {
      const g = compileTools(make(), policy).grammar;
      expect([...g.rules.keys()].filter((n) => n.endsWith("-json-value"))).toHaveLength(1);
      expect(totalExprSize(g.rules.values())).toBeLessThanOrEqual(nodes);
    });
  }
});
