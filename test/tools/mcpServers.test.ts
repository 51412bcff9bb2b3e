import { describe, expect, it } from "vitest";
import { compileTools } from "../../src/compile.js";
import { type McpServer, mcpServers, policy, walkCalls } from "../support/tools/mcpServers.js";

/**
 * The tools that public MCP servers publish (test/fixtures/mcp-servers, gathered from npm by
 * scripts/gather-mcp-tools.ts): every tool compiles under the defaults or is refused with a reason. The refusals are
 * listed here one by one, so that a change in them is a visible change of this file (and of docs/schema-coverage.md).
 * mcpServers.long.test.ts walks the union of all servers and checks the one refusal that costs a minute to reach.
 */
const servers = mcpServers();
let ended = 0;

/**
 * Tool → the refusal's code and where it points; a tool absent here must compile. None is refused now: the last one,
 * firecrawl_feedback's `format: uri` under `maxLength: 2048`, compiles to a counted node (see below).
 */
const REFUSED: Record<string, { code: string; path: string }> = {};
/** Compiled in the long tier only: its compile is the longest of the set (mcpServers.long.test.ts). */
const OVER_STEP_BUDGET = new Set(["firecrawl/firecrawl_search"]);

const servable = (s: McpServer) =>
  s.tools.filter((t) => !(`${s.name}/${t.name}` in REFUSED) && !OVER_STEP_BUDGET.has(`${s.name}/${t.name}`));

describe("tools published by public MCP servers", () => {
  it("the gathered fixtures: ≥ 20 servers, ≥ 300 tools, each with package, version and license", () => {
    expect(servers.length).toBeGreaterThanOrEqual(20);
    expect(servers.reduce((n, s) => n + s.tools.length, 0)).toBeGreaterThanOrEqual(300);
    for (const s of servers) expect([s.package, s.version, s.license].every((x) => x.length > 0)).toBe(true);
  });

  it("every tool of every server is refused by name or compiles (the refusals listed above, none now)", () => {
    const listed = Object.keys(REFUSED);
    for (const key of listed) {
      const [server, tool] = key.split("/");
      const t = servers.find((x) => x.name === server)?.tools.find((x) => x.name === tool);
      let err: { code?: string; schemaPath?: string } | undefined;
      try {
        compileTools([t], policy);
      } catch (e) {
        err = e as { code?: string; schemaPath?: string };
      }
      expect({ code: err?.code, path: err?.schemaPath }).toEqual(REFUSED[key]);
    }
    expect(listed).toEqual([]);
  });

  it("firecrawl_feedback (`format: uri` under `maxLength: 2048`) compiles; GBNF refuses the bound by name; calls validate", () => {
    const t = servers.find((s) => s.name === "firecrawl")?.tools.find((x) => x.name === "firecrawl_feedback");
    if (t === undefined) throw new Error("the firecrawl fixture has no firecrawl_feedback");
    const c = compileTools([t], policy);
    expect(c.warnings).toEqual([]);
    let err: { code?: string; schemaPath?: string } | undefined;
    try {
      c.toGbnf();
    } catch (e) {
      err = e as { code?: string; schemaPath?: string };
    }
    expect({ code: err?.code, path: err?.schemaPath }).toEqual({
      code: "LIMIT_GRAMMAR_SIZE",
      path: "/properties/requestedWebsite/properties/url",
    });
    expect(walkCalls(c, [t], 3, 200)).toBe(3);
  });

  it.each(servers.map((s) => [s.name, s] as const))(
    "%s: the set compiles (refused tools dropped and named) and walks end in valid calls",
    (_, s) => {
      const tools = s.tools.filter((t) => !OVER_STEP_BUDGET.has(`${s.name}/${t.name}`));
      const refused = tools.filter((t) => `${s.name}/${t.name}` in REFUSED).map((t) => t.name);
      if (refused.length > 0) expect(() => compileTools(tools, policy)).toThrow();
      const c = compileTools(tools, { ...policy, onRefusedTool: "drop" });
      const dropped = c.warnings.filter((w) => w.code === "TOOL_DROPPED").map((w) => w.message.split('"')[1]);
      expect(dropped).toEqual(refused);
      expect(c.tools.length).toBe(servable(s).length);
      // a few walks per set: the union is walked in the long tier
      ended += walkCalls(c, servable(s), 3, 120);
    },
  );

  it("notion's API-post-page (an overlapping oneOf of page parents, `format: uuid` keys) compiles; walks are valid", () => {
    // the complement of `format: uuid` is ajv-formats' own language (src/schema/formatComplements.ts)
    const t = servers.find((s) => s.name === "notion")?.tools.find((x) => x.name === "API-post-page");
    if (t === undefined) throw new Error("the notion fixture has no API-post-page");
    expect(walkCalls(compileTools([t], policy), [t], 10, 200)).toBe(10);
  });

  it("the walks ended in calls (seeded: the count is fixed for a seed)", () => {
    expect(ended).toBe(3 * servers.length);
  });
});
