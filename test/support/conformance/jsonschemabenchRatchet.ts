/**
 * The JSONSchemaBench ratchet over the whole corpus (9,222 real-world schemas in 17 subsets, see
 * test/fixtures/jsonschemabench/README.md), in JSON_SCHEMA_BENCH_SHARDS test files so that the test workers share it:
 * shard k judges the rows i with i % shards === k of the subsets in name order. Zero invalid instances accepted, zero
 * crashes, zero timeouts; a schema that passed in its subset's baseline (test/conformance/baseline-jsonschemabench/)
 * must still pass (a passing schema that starts being refused, by the step budget or any other limit, fails).
 * `UPDATE_BASELINE=1 TOOLGRAM_TIER=long npx vitest run test/conformance/jsonschemabench` rewrites the baselines (the
 * quick tier judges every 64th row of the first two shards against them and never rewrites them). Each schema's work is
 * bounded by CONFORMANCE_OPTIONS' step budget with the clock off, so the baselines hold on an idle and on a loaded
 * machine alike.
 */
import { expect, it } from "vitest";
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { dirname, join } from "node:path";
import { compileSchema } from "../../../src/compile.js";
import {
  judgeRow,
  readCorpusLines,
  summarize,
  type CorpusResult,
  type CorpusRow,
  type SchemaOutcome,
} from "../../../src/conformance/judgeCorpus.js";
import { LONG_TIER, tierSample } from "../tier.js";

const here = dirname(fileURLToPath(import.meta.url));
const FIXTURES = join(here, "../../fixtures/jsonschemabench");
const BASELINES = join(here, "../../conformance/baseline-jsonschemabench");

/** Test files the corpus is split into (test/conformance/jsonschemabench1..N.test.ts). */
export const JSON_SCHEMA_BENCH_SHARDS = 8;

let corpus: string[] | undefined;

/**
 * Every row of the corpus as its JSON text: subsets in file-name order, rows in file order. Read once per process
 * (the quick tier's files share their workers' processes) and parsed by the caller, row by row: parsing all of it
 * costs seconds, which the quick tier's subsample does not pay.
 */
function jsonSchemaBenchLines(): string[] {
  corpus ??= readdirSync(FIXTURES)
    .filter((f) => f.endsWith(".jsonl.br"))
    .sort()
    .flatMap((f) => readCorpusLines(join(FIXTURES, f)));
  return corpus;
}

type Baseline = Record<string, SchemaOutcome>;

function baselinePath(subset: string): string {
  return join(BASELINES, `${subset}.json`);
}

function readBaseline(subset: string): Baseline {
  const p = baselinePath(subset);
  return existsSync(p) ? JSON.parse(readFileSync(p, "utf8")) : {};
}

/**
 * Rewrites this shard's entries of a subset's baseline. Shards run in parallel and share each subset's file, so the
 * read-modify-write holds a lock (a file created exclusively).
 */
function updateBaseline(subset: string, current: Baseline): void {
  mkdirSync(BASELINES, { recursive: true });
  const lock = `${baselinePath(subset)}.lock`;
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (let tries = 0; ; tries++) {
    try {
      closeSync(openSync(lock, "wx"));
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST" || tries > 600) throw e;
      Atomics.wait(pause, 0, 0, 100);
    }
  }
  try {
    const merged = { ...readBaseline(subset), ...current };
    writeFileSync(baselinePath(subset), `${JSON.stringify(merged, Object.keys(merged).sort(), 1)}\n`);
  } finally {
    rmSync(lock);
  }
}

function bySubset(results: CorpusResult[]): Map<string, CorpusResult[]> {
  const m = new Map<string, CorpusResult[]>();
  for (const r of results) m.set(r.subset, [...(m.get(r.subset) ?? []), r]);
  return m;
}

/** Shards the quick tier judges (a subsample of each); reading the corpus costs a second of CPU per test file. */
const QUICK_SHARDS = 2;

export function jsonSchemaBenchShard(shard: number, shards: number): void {
  it.skipIf(!LONG_TIER && shard >= QUICK_SHARDS)(
    `JSONSchemaBench, shard ${shard + 1}/${shards}: no invalid accepted, no crash, no regression`,
    () => judgeShard(shard, shards),
    3_600_000,
  );
}

function judgeShard(shard: number, shards: number): void {
  // the quick tier judges every 64th row of its shards against the same baselines; the long tier every row
  const rows = tierSample(
    jsonSchemaBenchLines().filter((_, i) => i % shards === shard),
    64,
  ).map((l) => JSON.parse(l) as CorpusRow);
  const cpu = process.cpuUsage();
  const results = rows.map((r) => judgeRow(compileSchema, r));
  const { user, system } = process.cpuUsage(cpu);
  const groups = bySubset(results);
  for (const [subset, rs] of groups) {
    const codes: Record<string, number> = {};
    for (const r of rs) if (r.outcome === "refused") codes[r.errorCode ?? "?"] = (codes[r.errorCode ?? "?"] ?? 0) + 1;
    console.log(
      `JSONSchemaBench ${subset} (shard ${shard + 1}/${shards}): ${JSON.stringify({ ...summarize(rs), codes })}`,
    );
  }
  const s = summarize(results);
  console.log(
    `JSONSchemaBench shard ${shard + 1}/${shards}: ${JSON.stringify(s)} (${((100 * s.passing) / s.total).toFixed(1)} % passing), ` +
      `${((user + system) / 1e6).toFixed(0)} s of CPU`,
  );
  const bad = results.filter(
    (r) => r.outcome === "invalid-accepted" || r.outcome === "crash" || r.outcome === "timeout",
  );
  expect(bad.map((r) => `${r.id}: ${r.outcome} ${r.errorMessage ?? ""}`.slice(0, 300))).toEqual([]);
  const regressions: string[] = [];
  for (const [subset, rs] of groups) {
    const current: Baseline = {};
    for (const r of rs) current[r.id] = r.outcome;
    if (process.env.UPDATE_BASELINE && LONG_TIER) updateBaseline(subset, current);
    const baseline = readBaseline(subset);
    // only the schemas judged in this tier (the quick tier's subsample is compared with the same whole baselines);
    // a passing schema that starts being refused, by the step budget or any other limit, fails
    for (const r of rs)
      if (baseline[r.id] === "passing" && r.outcome !== "passing")
        regressions.push(`${r.id}: ${r.outcome} ${r.errorCode ?? ""}`);
  }
  expect(regressions).toEqual([]);
}
