import { describe, expect, it } from "vitest";
import { composedMcpTools, githubMcpTools } from "../../bench/toolSets.js";
import { compileTools } from "../../src/compile.js";
import { toGbnf } from "../../src/emit/toGbnf.js";
import { schemaHash } from "../../src/tools/schemaHash.js";
import { parametersKey, toolFragments } from "../../src/ToolFragmentCache.js";

/** Per-tool fragments cached by schema hash: counted in fragments lowered, never in time. */
describe("tool fragments", () => {
  const tools = composedMcpTools(140); // the GitHub tools, then Cloudflare Radar's
  const distinct = (ts: typeof tools): number => new Set(ts.map((t) => schemaHash(t.inputSchema))).size;

  it("a request that adds one tool lowers one tool, and compiles to the grammar a cold compile gives", () => {
    toolFragments.clear();
    compileTools(tools.slice(0, -1), { format: "qwen3" });
    const before = toolFragments.size;
    expect(before).toBeLessThanOrEqual(distinct(tools.slice(0, -1)));
    const warm = compileTools(tools, { format: "qwen3" });
    expect(toolFragments.size).toBe(before + (distinct(tools) - distinct(tools.slice(0, -1))));
    toolFragments.clear();
    const cold = compileTools(tools, { format: "qwen3" });
    expect(toGbnf(warm.grammar)).toBe(toGbnf(cold.grammar));
  });

  it("a compile's grammar does not depend on what the process compiled before (fragments named after this compile's tools)", () => {
    // the 140 tools name the GitHub tools `github__…`; the GitHub server's own list names them without the prefix
    toolFragments.clear();
    const cold = compileTools(tools, { format: "qwen3" });
    toolFragments.clear();
    compileTools(githubMcpTools(), { format: "qwen3" });
    const hits = toolFragments.size;
    const warm = compileTools(tools, { format: "qwen3" });
    // the GitHub schemas were reused, not lowered again
    expect(toolFragments.size - hits).toBe(
      distinct(tools) - distinct(tools.filter((t) => t.name.startsWith("github__"))),
    );
    expect(toGbnf(warm.grammar)).toBe(toGbnf(cold.grammar));
  });

  it("tools declaring the same schema under other names lower it once; warnings point at each tool", () => {
    toolFragments.clear();
    const schema = { type: "object", properties: { q: { type: "string", format: "no-such-format" } }, required: ["q"] };
    const c = compileTools(
      ["a", "b", "c"].map((name) => ({ type: "function", function: { name, parameters: schema } })),
      { format: "qwen3", strict: false },
    );
    expect(toolFragments.size).toBe(1);
    expect(c.accepts('<tool_call>\n{"name": "c", "arguments": {"q": "x"}}\n</tool_call>')).toBe(true);
    const paths = c.warnings.map((w) => w.schemaPath);
    for (const i of [0, 1, 2]) expect(paths.some((p) => p.startsWith(`/${i}/`))).toBe(true);
  });

  it("keys the parameters by their exact JSON text: -0 and 0 are two fragments (a const spells them apart)", () => {
    toolFragments.clear();
    const tool = (v: number) => [
      {
        type: "function",
        function: { name: "f", parameters: { type: "object", properties: { x: { enum: [v, 1] } }, required: ["x"] } },
      },
    ];
    const call = (x: string): string => `<tool_call>\n{"name": "f", "arguments": {"x": ${x}}}\n</tool_call>`;
    const zero = compileTools(tool(0), { toolChoice: "required" });
    const minusZero = compileTools(tool(-0), { toolChoice: "required" });
    expect(toolFragments.size).toBe(2);
    expect([zero.accepts(call("0")), zero.accepts(call("-0"))]).toEqual([true, false]);
    expect([minusZero.accepts(call("0")), minusZero.accepts(call("-0"))]).toEqual([false, true]);
    expect(parametersKey({ type: "object", properties: { a: { const: "x" } } })).toBe(
      '{"type":"object","properties":{"a":{"const":"x"}}}',
    );
  });
});
