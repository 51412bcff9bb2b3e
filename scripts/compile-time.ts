/**
 * `node --import tsx scripts/compile-time.ts [N] [set]`: compile the 117 GitHub MCP tools and the 500 composed MCP
 * tools (bench/toolSets.ts, as the big bench loads them) N times each, the fragment cache cleared before each compile
 * as the bench does, and print per set the first compile of the process and the medians of wall and CPU time, the
 * compile steps and a hash of the GBNF (to check that a change to the compiler left its output as it was). `set`:
 * `117`, `500` or both (default). Wall-clock figures of a shared machine: run before and after alternately. Run it
 * with `node --cpu-prof --import tsx` for a profile.
 */
import { createHash } from "node:crypto";
import { composedMcpTools, githubMcpTools, type McpTool } from "../bench/toolSets.js";
import { compileTools } from "../src/compile.js";
import { toolFragments } from "../src/ToolFragmentCache.js";

const N = Number(process.argv[2] ?? 10);
const which = process.argv[3] ?? "both";
const asOpenAi = (ts: McpTool[]) =>
  ts.map((t) => ({ type: "function", function: { name: t.name, parameters: t.inputSchema } }));
const sets: [string, unknown[]][] = [];
if (which !== "500") sets.push(["117 GitHub MCP tools", asOpenAi(githubMcpTools())]);
if (which !== "117") sets.push(["500 composed MCP tools", asOpenAi(composedMcpTools(500))]);
const policy = { format: "qwen3", toolChoice: "required", parallel: false } as const;
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

for (const [name, tools] of sets) {
  const wall: number[] = [];
  const cpu: number[] = [];
  let steps = 0;
  let gbnf = "";
  for (let i = 0; i < N; i++) {
    toolFragments.clear();
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    const c = compileTools(tools, policy);
    wall.push(performance.now() - t0);
    const used = process.cpuUsage(c0);
    cpu.push((used.user + used.system) / 1000);
    steps = c.compileSteps;
    if (i === 0) gbnf = createHash("sha256").update(c.toGbnf()).digest("hex").slice(0, 12);
  }
  console.log(
    `${name}: first ${wall[0].toFixed(1)} ms (CPU ${cpu[0].toFixed(1)}), then median ${median(wall.slice(1)).toFixed(1)} ms (CPU ${median(cpu.slice(1)).toFixed(1)}), ${steps} steps, GBNF ${gbnf}`,
  );
}
