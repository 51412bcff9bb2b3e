import { describe, expect, it } from "vitest";
import { composedMcpTools, githubMcpTools, twentyOpenAiTools } from "../../bench/toolSets.js";
import { compileTools } from "../../src/compile.js";
import { toolFragments } from "../../src/ToolFragmentCache.js";

const required = { format: "qwen3", toolChoice: "required", parallel: false } as const;

/**
 * A cold compile's work on the bench's tool sets, in steps (deterministic: the same input spends the same steps on
 * any machine, whatever the process compiled before). Before the optimizer found each body's references once, keyed
 * rebuilt bodies by the new nodes only and stopped comparing whole grammars, and before the size checks stopped
 * sizing every node twice: 12,504 / 189,914 / 384,033 steps; after: 4,491 / 65,813 / 151,051.
 */
describe("cold compile work on the bench's tool sets", () => {
  const sets: [string, () => unknown[], object, number][] = [
    ["20 OpenAI-style tools", () => twentyOpenAiTools(), { format: "qwen3" }, 6_000],
    ["117 GitHub MCP tools", () => githubMcpTools(), required, 90_000],
    ["500 MCP tools", () => composedMcpTools(500), required, 200_000],
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
