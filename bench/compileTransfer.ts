/**
 * What the server's compile worker keeps off the event loop, on the GitHub MCP server's 117 tools: the compile and
 * the artifacts the worker prints (GBNF, hash), against what the event loop still pays, deserializing the
 * structured-clone copy the worker posts and rebuilding the grammar. `tsx bench/compileTransfer.ts` (3 rounds).
 */
import { deserialize, serialize } from "node:v8";
import { compileTools } from "../src/compile.js";
import { grammarFromData, runCompileJob, type CompileJob } from "../src/server/compileJob.js";
import { DEFAULT_LIMITS } from "../src/options.js";
import { githubMcpTools } from "./toolSets.js";

const tools = githubMcpTools().map((t) => ({
  type: "function",
  function: { name: t.name, parameters: t.inputSchema },
}));
const job: CompileJob = {
  kind: "tools",
  tools,
  options: { format: "qwen3", reasoning: "none", parallel: true, toolChoice: "auto", limits: { maxCompileMs: 2000 } },
};
for (let round = 1; round <= 3; round++) {
  const outcome = runCompileJob(job);
  if (!outcome.ok) throw new Error(outcome.error.message);
  const bytes = serialize(outcome.data);
  const t = performance.now();
  const data = deserialize(bytes) as typeof outcome.data;
  const g = grammarFromData(job, data, { ...DEFAULT_LIMITS, maxCompileMs: 2000 });
  const loopMs = performance.now() - t;
  const same = g.toGbnf() === compileTools(tools, job.options).toGbnf();
  console.log(
    `round ${round}: in the worker ${outcome.ms.toFixed(0)} ms (compile, GBNF and hash); ` +
      `on the event loop ${loopMs.toFixed(1)} ms for ${(bytes.length / 1024).toFixed(0)} kB; same GBNF: ${same}`,
  );
}
