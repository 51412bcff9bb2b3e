/**
 * One cold mask, timed alone: schema `id` of the JSONSchemaBench sample compiled afresh `--reps` times (a new grammar
 * and automaton each time, the process-wide caches warm after the first), each time the masks of its first instance
 * up to step `k`, then step `k` timed. Prints the min and median (µs) and the counted work of the step.
 * `npx tsx bench/coldStep.ts BFCL_java_34 9 [--reps 40]`
 */
import { compileSchema } from "../src/compile.js";
import { canonicalJson } from "../src/json.js";
import type { MaskTable } from "../src/automaton/MaskTable.js";
import { qwen3 } from "../test/support/qwen3.js";
import { sampleRow } from "./jsonSchemaBenchSample.js";

const [id, kArg] = process.argv.slice(2);
const repsArg = process.argv.indexOf("--reps");
const REPS = repsArg >= 0 ? Number(process.argv[repsArg + 1]) : 40;
const K = Number(kArg);
const { vocab, encode } = qwen3();
const bits = new Uint32Array(Math.ceil(vocab.size / 32));
const rec = sampleRow(id);
const text = canonicalJson(rec.tests.find((t) => t.valid)!.data);
const ids = [...encode(text), vocab.eosTokenIds[0]];
const times: number[] = [];
let work = "";
for (let r = 0; r < REPS; r++) {
  const c = compileSchema(rec.schema);
  const m = c.createMatcher(vocab);
  for (let k = 0; k < K; k++) {
    m.fillNextTokenBitmask(bits);
    m.acceptToken(ids[k]);
  }
  const T = (m as unknown as { table: MaskTable }).table;
  const n0 = T.nodesWalked;
  const c0 = T.automaton.configCount;
  const t0 = process.hrtime.bigint();
  m.fillNextTokenBitmask(bits);
  times.push(Number(process.hrtime.bigint() - t0) / 1000);
  work = `${T.nodesWalked - n0} trie nodes, ${T.automaton.configCount - c0} configurations`;
}
times.sort((a, b) => a - b);
const before = new TextDecoder().decode(
  new Uint8Array(ids.slice(0, K).flatMap((t) => [...vocab.bytes.subarray(vocab.offsets[t], vocab.offsets[t + 1])])),
);
console.log(
  `${id} step ${K} (after ${JSON.stringify(before.slice(-30))}): min ${times[0].toFixed(1)} µs, median ${times[times.length >> 1].toFixed(1)} µs; ${work}`,
);
