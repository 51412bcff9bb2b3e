/**
 * Per-step work of cold masks on the JSONSchemaBench sample, as `bench/run.ts --only=jsonschemabench` meets them (its
 * 40 schemas, up to 4 valid instances each, in its order): for every mask, its wall time, trie nodes walked,
 * configurations and R-states made and NFA states built. Prints the slowest steps with their counts, so that the tail
 * can be read in counted work.
 *
 * One process's timings on a shared machine are noise at the tail; `--dump FILE` writes every step, and `--merge
 * FILE...` reads several dumps (separate processes) and takes each step's minimum wall time, which mostly leaves a
 * step's own cost. `--tools-first` decodes the 20-tool workload first, as a full bench run does (it warms the JIT).
 *
 *   for i in 1 2 3 4 5; do npx tsx bench/coldSteps.ts --tools-first --dump /tmp/steps$i.json; done
 *   npx tsx bench/coldSteps.ts --merge /tmp/steps*.json
 */
import { readFileSync, writeFileSync } from "node:fs";
import type { MaskTable } from "../src/automaton/MaskTable.js";
import type { CompiledGrammar } from "../src/CompiledGrammar.js";
import { compileSchema, compileTools } from "../src/compile.js";
import { canonicalJson, type JsonValue } from "../src/json.js";
import { qwen3 } from "../test/support/qwen3.js";
import { benchSchemas } from "./jsonSchemaBenchSample.js";
import { prng, sampleArguments, twentyOpenAiTools } from "./toolSets.js";

interface Step {
  id: string;
  k: number;
  /** The text before this step (its last 30 characters). */
  before: string;
  us: number;
  nodes: number;
  configs: number;
  rStates: number;
  nfaStates: number;
}

const args = process.argv.slice(2);
const opt = (name: string): string | undefined => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const TOP = Number(opt("--top") ?? 30);

function report(steps: Step[], runs: number): void {
  const sorted = [...steps].sort((a, b) => a.us - b.us);
  const q = (p: number): string => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))].us.toFixed(1);
  console.log(
    `${steps.length} steps (${runs === 1 ? "one run" : `minimum of ${runs} runs`}): mask µs p50 ${q(0.5)}, p90 ${q(0.9)}, p99 ${q(0.99)}, max ${q(1)}`,
  );
  const sum = (f: (s: Step) => number): number => steps.reduce((a, s) => a + f(s), 0);
  console.log(
    `all steps: ${sum((s) => s.nodes)} trie nodes, ${sum((s) => s.configs)} configurations, ${sum((s) => s.rStates)} R-states, ${sum((s) => s.nfaStates)} NFA states`,
  );
  console.log("µs\tnodes\tconfigs\tR-states\tNFA\tstep\tbefore");
  for (const s of sorted.slice(-TOP).reverse())
    console.log(
      `${s.us.toFixed(1)}\t${s.nodes}\t${s.configs}\t${s.rStates}\t${s.nfaStates}\t${s.id}#${s.k}\t${JSON.stringify(s.before)}`,
    );
}

const merge = args.indexOf("--merge");
if (merge >= 0) {
  const runs = args.slice(merge + 1).map((f) => JSON.parse(readFileSync(f, "utf8")) as Step[]);
  report(
    runs[0].map((s, i) => ({ ...s, us: Math.min(...runs.map((r) => r[i].us)) })),
    runs.length,
  );
} else {
  run();
}

function run(): void {
  const { vocab, encode } = qwen3();
  const bits = new Uint32Array(Math.ceil(vocab.size / 32));
  const decoder = new TextDecoder();
  const textOf = (id: number): string => decoder.decode(vocab.bytes.subarray(vocab.offsets[id], vocab.offsets[id + 1]));
  const decode = (c: CompiledGrammar, ids: number[]): void => {
    const m = c.createMatcher(vocab);
    for (const id of ids) {
      m.fillNextTokenBitmask(bits);
      m.acceptToken(id);
    }
  };
  if (args.includes("--tools-first")) {
    // the bench's first workload: 24 calls of the 20 OpenAI tools (same seed)
    const rnd = prng(7);
    const openAi = twentyOpenAiTools();
    const c = compileTools(openAi, { format: "qwen3" });
    for (let i = 0; i < 24; i++) {
      const tool = openAi[Math.floor(rnd() * openAi.length)];
      const text = `<tool_call>\n${canonicalJson({ name: tool.function.name, arguments: sampleArguments(tool, rnd) as JsonValue })}\n</tool_call>`;
      decode(c, [...encode(text), vocab.eosTokenIds[0]]);
    }
  }
  // the bench's warm-up: a small grammar decoded a little
  const w = compileTools(twentyOpenAiTools().slice(0, 3), { format: "qwen3" });
  decode(w, encode('<tool_call>\n{"name": "get_weather", "arguments": {}}').slice(0, 8));

  const steps: Step[] = [];
  const firstMasks: number[] = [];
  for (const rec of benchSchemas(40, 4)) {
    // as the bench: a fresh compile, a matcher and its first mask, then each instance's masks
    const f0 = performance.now();
    const c = compileSchema(rec.schema);
    const m0 = c.createMatcher(vocab);
    m0.fillNextTokenBitmask(bits);
    firstMasks.push((performance.now() - f0) * 1000);
    const table = (m0 as unknown as { table: MaskTable }).table;
    const A = table.automaton;
    const texts = rec.valid.map((t) => canonicalJson(t.data)).filter((t) => c.accepts(t));
    for (const ids of texts.map((t) => [...encode(t), vocab.eosTokenIds[0]])) {
      const m = c.createMatcher(vocab);
      let before = "";
      for (let k = 0; k < ids.length; k++) {
        const n0 = table.nodesWalked;
        const c0 = A.configCount;
        const r0 = A.rStateCount;
        const s0 = A.nfa.stateCount;
        const t0 = performance.now();
        m.fillNextTokenBitmask(bits);
        const us = (performance.now() - t0) * 1000;
        steps.push({
          id: rec.id,
          k,
          before: before.slice(-30),
          us,
          nodes: table.nodesWalked - n0,
          configs: A.configCount - c0,
          rStates: A.rStateCount - r0,
          nfaStates: A.nfa.stateCount - s0,
        });
        m.acceptToken(ids[k]);
        before += textOf(ids[k]);
      }
    }
  }
  firstMasks.sort((a, b) => a - b);
  console.log(
    `first mask (compile + matcher + first mask) p50 ${firstMasks[firstMasks.length >> 1].toFixed(0)} µs; steps with no work: ${steps.filter((s) => s.nodes + s.configs + s.rStates === 0).length}`,
  );
  const dump = opt("--dump");
  if (dump !== undefined) writeFileSync(dump, JSON.stringify(steps));
  report(steps, 1);
}
