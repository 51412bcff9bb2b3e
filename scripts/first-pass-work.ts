/**
 * `npx tsx scripts/first-pass-work.ts [PER_SUBSET]`: the counted work (trie nodes walked, plus 16 per closure walked
 * and configuration made: the prefetch's measure) of the first mask and of every later step along a first pass through
 * JSONSchemaBench schemas (`TOOLGRAM_JSONSCHEMABENCH_DIR`; the first PER_SUBSET that compile of each subset, default 8):
 * one valid instance and one seeded random walk of up to 48 tokens each. Counted, the same on any machine: run it at two
 * commits to compare how a change moves work between the first mask and the steps (p50, p99, maximum, the steps that
 * computed a mask, the work in all).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { prng } from "../bench/toolSets.js";
import type { MaskTable } from "../src/automaton/MaskTable.js";
import { type CompiledGrammar, compileSchema } from "../src/index.js";
import { canonicalJson, type JsonValue } from "../src/json.js";
import { qwen3 } from "../test/support/qwen3.js";

const PER = Number(process.argv[2] ?? 8);
const STEPS = 48;
const dir = process.env.TOOLGRAM_JSONSCHEMABENCH_DIR;
if (!dir) throw new Error("set TOOLGRAM_JSONSCHEMABENCH_DIR (see bench/big/README.md)");
const { vocab, encode } = qwen3();
const bits = new Uint32Array(Math.ceil(vocab.size / 32));
const rnd = prng(7);
const first: number[] = [];
const steps: number[] = [];
let computed = 0;
let schemas = 0;

/** Masks along `ids` (or a seeded walk when null), the first one counted apart when `isFirst`. */
function pass(c: CompiledGrammar, ids: number[] | null, isFirst: boolean): void {
  const m = c.createMatcher(vocab);
  const table = (m as unknown as { table: MaskTable }).table;
  const A = table.automaton;
  const work = (): number => table.nodesWalked + 16 * (A.closureWalks + A.configCount);
  for (let i = 0; i < STEPS; i++) {
    const w0 = work();
    const cached = table.cachedMasks;
    m.fillNextTokenBitmask(bits);
    if (isFirst && i === 0) first.push(work() - w0);
    else {
      steps.push(work() - w0);
      if (table.cachedMasks > cached) computed++;
    }
    let id: number;
    if (ids !== null) {
      if (i >= ids.length) break;
      id = ids[i];
    } else {
      const allowed: number[] = [];
      for (let w = 0; w < bits.length; w++)
        for (let x = bits[w]; x !== 0; x &= x - 1) allowed.push(w * 32 + (31 - Math.clz32(x & -x)));
      const ordinary = allowed.filter((t) => !vocab.eosTokenIds.includes(t));
      if (ordinary.length === 0) break;
      id = ordinary[Math.floor(rnd() * ordinary.length)];
    }
    if (!m.acceptToken(id)) break;
  }
}

for (const f of readdirSync(dir)
  .filter((x) => x.endsWith(".jsonl"))
  .sort()) {
  const rows = readFileSync(join(dir, f), "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as { schema: JsonValue; tests: { valid: boolean; data: JsonValue }[] });
  let k = 0;
  for (const row of rows) {
    if (k >= PER) break;
    let c: CompiledGrammar;
    try {
      c = compileSchema(row.schema);
    } catch {
      continue;
    }
    const instance = row.tests.find((t) => t.valid);
    try {
      pass(c, instance === undefined ? [] : encode(canonicalJson(instance.data)), true);
      pass(c, null, false);
    } catch {
      continue;
    }
    k++;
    schemas++;
  }
}
const q = (xs: number[], p: number): number => {
  const a = [...xs].sort((x, y) => x - y);
  return a[Math.min(a.length - 1, Math.floor(p * a.length))];
};
const sum = (xs: number[]): number => xs.reduce((a, b) => a + b, 0);
console.log(`${schemas} schemas; first mask work p50 ${q(first, 0.5)}, p90 ${q(first, 0.9)}, in all ${sum(first)}`);
console.log(
  `${steps.length} later steps, ${computed} computed a mask; work p50 ${q(steps, 0.5)}, p90 ${q(steps, 0.9)}, p99 ${q(steps, 0.99)}, p99.9 ${q(steps, 0.999)}, max ${q(steps, 1)}, in all ${sum(steps)}; over 1,024: ${steps.filter((x) => x > 1024).length}, over 4,096: ${steps.filter((x) => x > 4096).length}`,
);
console.log(`work in all ${sum(first) + sum(steps)}`);
