/**
 * Per-step work of the tool-call masks, as `bench/run.ts --tools-only` meets them (its warm-up, then the 20-tool
 * workloads: `compileTools` with the Qwen3 format, and the hand-built IR; the same 24 seeded calls, a fresh compile,
 * a matcher and its first mask, then each call's masks with a fresh matcher): for every mask, its wall and CPU time,
 * trie nodes walked, configurations and R-states made, NFA states built. Prints the slowest steps with their counts.
 *
 * `--dump FILE` writes every step; `--merge FILE...` takes each step's minimum over several runs' dumps (the tail of
 * one run on a shared machine is mostly preemption).
 *
 * `--step compileTools/N#K --reps R` times step K of call N alone (the grammar compiled afresh and decoded up to it
 * each time); under `node --cpu-prof --import tsx`, its samples are those under `timedStep`. `--mark` prints a line
 * before each step, to read next to node's `--trace-deopt`.
 *
 *   for i in 1 2 3; do npx tsx bench/toolSteps.ts --dump /tmp/tools$i.json; done
 *   npx tsx bench/toolSteps.ts --merge /tmp/tools*.json
 */
import { readFileSync, writeFileSync, writeSync } from "node:fs";
import { createMatcher } from "../src/automaton/createMatcher.js";
import type { MaskTable } from "../src/automaton/MaskTable.js";
import type { TokenMatcher } from "../src/automaton/TokenMatcher.js";
import { compileTools } from "../src/compile.js";
import { toolFragments } from "../src/ToolFragmentCache.js";
import { canonicalJson, type JsonValue } from "../src/json.js";
import { qwen3 } from "../test/support/qwen3.js";
import { twentyToolGrammar, twentyTools } from "./handGrammars.js";
import { prng, sampleArguments, twentyOpenAiTools } from "./toolSets.js";

interface Step {
  id: string;
  k: number;
  /** The text before this step (its last 30 characters). */
  before: string;
  us: number;
  cpuUs: number;
  nodes: number;
  configs: number;
  rStates: number;
  nfaStates: number;
  /** Epsilon closures walked, closure keys made by a mask, subtree masks computed, bitset scans. */
  closures: number;
  lateKeys: number;
  subtrees: number;
  scans: number;
  /** Entries the byte tables grew by (R-states' and configurations'). */
  grew: number;
}

const args = process.argv.slice(2);
const opt = (name: string): string | undefined => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const TOP = Number(opt("--top") ?? 30);

function report(steps: Step[], runs: number): void {
  const q = (key: "us" | "cpuUs", p: number): string => {
    const sorted = steps.map((s) => s[key]).sort((a, b) => a - b);
    return sorted[Math.min(sorted.length - 1, Math.floor(p * (sorted.length - 1)))].toFixed(1);
  };
  console.log(
    `${steps.length} steps (${runs === 1 ? "one run" : `minimum of ${runs} runs`}): mask µs p50 ${q("us", 0.5)}, p90 ${q("us", 0.9)}, p99 ${q("us", 0.99)}, max ${q("us", 1)}; CPU µs p99 ${q("cpuUs", 0.99)}, max ${q("cpuUs", 1)}`,
  );
  const sum = (f: (s: Step) => number): number => steps.reduce((a, s) => a + f(s), 0);
  console.log(
    `all steps: ${sum((s) => s.nodes)} trie nodes, ${sum((s) => s.configs)} configurations, ${sum((s) => s.rStates)} R-states, ${sum((s) => s.nfaStates)} NFA states`,
  );
  console.log("µs\tCPU µs\tnodes\tconfigs\tR-states\tNFA\tclosures\tkeys\tsubtrees\tscans\tgrew\tstep\tbefore");
  for (const s of [...steps].sort((a, b) => b.us - a.us).slice(0, TOP))
    console.log(
      `${s.us.toFixed(1)}\t${s.cpuUs.toFixed(0)}\t${s.nodes}\t${s.configs}\t${s.rStates}\t${s.nfaStates}\t${s.closures}\t${s.lateKeys}\t${s.subtrees}\t${s.scans}\t${s.grew}\t${s.id}#${s.k}\t${JSON.stringify(s.before)}`,
    );
}

/** `--mark`: prints each step's name before its mask (to read with node's --trace-deopt). */
const MARK = args.includes("--mark");
/** The step timed by `--step` (a function of its own, to find it in a CPU profile). */
function timedStep(m: TokenMatcher, bits: Uint32Array): void {
  m.fillNextTokenBitmask(bits);
}

function run(): void {
  const { vocab, encode } = qwen3();
  const bits = new Uint32Array(Math.ceil(vocab.size / 32));
  const decoder = new TextDecoder();
  const textOf = (id: number): string => decoder.decode(vocab.bytes.subarray(vocab.offsets[id], vocab.offsets[id + 1]));
  const rnd = prng(7);
  const openAi = twentyOpenAiTools();
  const texts: string[] = [];
  for (let i = 0; i < 24; i++) {
    const tool = openAi[Math.floor(rnd() * openAi.length)];
    texts.push(
      `<tool_call>\n${canonicalJson({ name: tool.function.name, arguments: sampleArguments(tool, rnd) as JsonValue })}\n</tool_call>`,
    );
  }
  // the bench's warm-up: a small grammar decoded a little
  {
    const w = compileTools(openAi.slice(0, 3), { format: "qwen3" });
    const m = w.createMatcher(vocab);
    for (const id of encode(texts[0]).slice(0, 8)) {
      m.fillNextTokenBitmask(bits);
      m.acceptToken(id);
    }
  }
  const steps: Step[] = [];
  const hand = twentyTools().map((t) => t.name);
  const workloads: [string, () => { matcher: () => TokenMatcher; accepts: (t: string) => boolean }, string[]][] = [
    [
      "compileTools",
      () => {
        toolFragments.clear();
        const c = compileTools(openAi, { format: "qwen3" });
        return { matcher: () => c.createMatcher(vocab), accepts: (t) => c.accepts(t) };
      },
      texts,
    ],
    [
      "hand",
      () => {
        const g = twentyToolGrammar();
        return { matcher: () => createMatcher(g, vocab), accepts: () => true };
      },
      texts.filter((t) => hand.some((n) => t.includes(`"${n}"`))),
    ],
  ];
  const only = opt("--step");
  if (only !== undefined) {
    // one step timed alone: the workload's grammar compiled afresh each time and decoded as the run does up to it
    const [wname, rest] = only.split("/");
    const [inst, step] = rest.split("#").map(Number);
    const [, make, instances] = workloads.find((w) => w[0] === wname)!;
    const times: number[] = [];
    for (let r = 0; r < Number(opt("--reps") ?? 20); r++) {
      const o = make();
      o.matcher().fillNextTokenBitmask(bits);
      for (let n = 0; n <= inst; n++) {
        const ids = [...encode(instances[n]), vocab.eosTokenIds[0]];
        const m = o.matcher();
        for (let k = 0; k < ids.length; k++) {
          if (n === inst && k === step) {
            if (MARK) writeSync(1, "STEP BEGIN\n");
            const t1 = performance.now();
            timedStep(m, bits);
            times.push((performance.now() - t1) * 1000);
            if (MARK) writeSync(1, "STEP END\n");
            break;
          }
          m.fillNextTokenBitmask(bits);
          m.acceptToken(ids[k]);
        }
      }
    }
    const firstRep = times[0];
    times.sort((a, b) => a - b);
    console.log(
      `${only}: first rep ${firstRep.toFixed(1)} µs, min ${times[0].toFixed(1)} µs, median ${times[times.length >> 1].toFixed(1)} µs, first ${times.length} reps`,
    );
    return;
  }
  for (const [name, make, instances] of workloads) {
    const o = make();
    const m0 = o.matcher();
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    m0.fillNextTokenBitmask(bits);
    const firstUs = (performance.now() - t0) * 1000;
    const firstCpu = process.cpuUsage(c0);
    console.log(`${name}: matcher's first mask ${firstUs.toFixed(0)} µs (CPU ${firstCpu.user + firstCpu.system} µs)`);
    const table = (m0 as unknown as { table: MaskTable }).table;
    const A = table.automaton;
    instances.forEach((text, n) => {
      if (!o.accepts(text)) return;
      const ids = [...encode(text), vocab.eosTokenIds[0]];
      const m = o.matcher();
      let before = "";
      for (let k = 0; k < ids.length; k++) {
        const n0 = table.nodesWalked;
        const cf0 = A.configCount;
        const r0 = A.rStateCount;
        const s0 = A.nfa.stateCount;
        const w0 = A.closureWalks;
        const k0 = A.nfa.closureKeysLate;
        const sub0 = table.subtreesComputed;
        const sc0 = table.bitsetScans;
        const g0 = A.cTrans.length + A.rsTable.length;
        if (MARK) process.stdout.write(`STEP ${name}/${n}#${k}\n`);
        const u0 = process.cpuUsage();
        const t1 = performance.now();
        m.fillNextTokenBitmask(bits);
        const us = (performance.now() - t1) * 1000;
        const u = process.cpuUsage(u0);
        steps.push({
          id: `${name}/${n}`,
          k,
          before: before.slice(-30),
          us,
          cpuUs: u.user + u.system,
          nodes: table.nodesWalked - n0,
          configs: A.configCount - cf0,
          rStates: A.rStateCount - r0,
          nfaStates: A.nfa.stateCount - s0,
          closures: A.closureWalks - w0,
          lateKeys: A.nfa.closureKeysLate - k0,
          subtrees: table.subtreesComputed - sub0,
          scans: table.bitsetScans - sc0,
          grew: A.cTrans.length + A.rsTable.length - g0,
        });
        m.acceptToken(ids[k]);
        before += textOf(ids[k]);
      }
    });
  }
  const dump = opt("--dump");
  if (dump !== undefined) writeFileSync(dump, JSON.stringify(steps));
  report(steps, 1);
}

const merge = args.indexOf("--merge");
if (merge >= 0) {
  const runs = args.slice(merge + 1).map((f) => JSON.parse(readFileSync(f, "utf8")) as Step[]);
  report(
    runs[0].map((s, i) => ({
      ...s,
      us: Math.min(...runs.map((r) => r[i].us)),
      cpuUs: Math.min(...runs.map((r) => r[i].cpuUs)),
    })),
    runs.length,
  );
} else {
  run();
}
