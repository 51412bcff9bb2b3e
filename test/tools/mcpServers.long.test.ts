import { describe, expect, it } from "vitest";
import { compileTools } from "../../src/compile.js";
import { checkRandomWalks } from "../support/automaton/walkCheck.js";
import { tinyVocab } from "../support/tinyVocab.js";
import { mcpServers, mcpUnion, policy, SEED, walkCalls } from "../support/tools/mcpServers.js";

/**
 * The union of every gathered MCP server's tools as one set (≥ 235 tools; mcpServers.test.ts has each server alone):
 * it compiles with the refused tools dropped and named, and decodes to the end under long seeded random walks with no
 * throw (no limit found in the middle of a generation).
 */
const servers = mcpServers();
// left out of the union: the one tool whose compile is long (mcpServers.test.ts leaves it to this tier)
const OVER_STEP_BUDGET = "firecrawl__firecrawl_search";

describe("the union of the MCP servers' tools (long)", () => {
  const tools = mcpUnion(servers).filter((t) => t.name !== OVER_STEP_BUDGET);
  const c = compileTools(tools, { ...policy, onRefusedTool: "drop" });
  const served = tools.filter((t) => c.tools.some((x) => x.name === t.name));

  it("≥ 235 tools compile as one set, none dropped (no tool is refused since counted strings)", () => {
    expect(served.length).toBeGreaterThanOrEqual(235);
    const dropped = c.warnings.filter((w) => w.code === "TOOL_DROPPED").map((w) => w.message.split('"')[1]);
    expect(dropped).toEqual([]);
  });

  it("seeded random walks of thousands of tokens under the masks, and sampled calls valid for ajv", () => {
    checkRandomWalks(c.grammar, tinyVocab(), { seed: SEED, numRuns: 10, maxLength: 3000 });
    expect(walkCalls(c, served, 20, 200)).toBe(20);
  });

  it("firecrawl_search, once over the step budget, compiles alone and its sampled calls validate", () => {
    const t = servers.find((s) => s.name === "firecrawl")?.tools.find((x) => x.name === "firecrawl_search");
    // small rules that reference rules are no longer inlined into their users (src/grammar/passes/inlineRules.ts)
    if (t === undefined) throw new Error("the firecrawl fixture has no firecrawl_search");
    const one = compileTools([t], policy);
    expect(walkCalls(one, [t], 5, 200)).toBe(5);
  }, 600_000);
});
