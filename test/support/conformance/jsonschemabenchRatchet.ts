/**
 * The JSONSchemaBench sample ratchet (1,174 real-world schemas, see test/fixtures/jsonschemabench/README.md), in two
 * shards so that two test workers share it. Zero invalid instances accepted, zero crashes, zero timeouts; a schema that
 * passed in the baseline must still pass (a passing schema that starts being refused, by the step budget or any other
 * limit, fails). `UPDATE_BASELINE=1 TOOLGRAM_TIER=long npx vitest run test/conformance` rewrites the baseline (the quick
 * tier judges every 16th schema against it and never rewrites it). The compile budget is counted in work steps with
 * the clock off (CONFORMANCE_OPTIONS), so the baseline holds on an idle and on a loaded machine alike.
 */
import { expect, it } from "vitest";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { dirname, join } from "node:path";
import { compileSchema } from "../../../src/compile.js";
import { judgeRow, readCorpus, summarize, type SchemaOutcome } from "../../../src/conformance/judgeCorpus.js";
import { LONG_TIER, tierSample } from "../tier.js";

const here = dirname(fileURLToPath(import.meta.url));

export function jsonSchemaBenchShard(shard: number, shards: number): void {
  it(`JSONSchemaBench sample, shard ${shard + 1}/${shards}: no invalid accepted, no crash, no regression`, () => {
    // the quick tier judges every 16th schema of the shard against the same baseline; the long tier all of them
    const rows = tierSample(
      readCorpus(join(here, "../../fixtures/jsonschemabench/sample.jsonl")).filter((_, i) => i % shards === shard),
      16,
    );
    const results = rows.map((r) => judgeRow(compileSchema, r));
    const baselinePath = join(here, "../../conformance", `baseline-jsonschemabench-${shard + 1}-of-${shards}.json`);
    const baseline: Record<string, SchemaOutcome> = existsSync(baselinePath)
      ? JSON.parse(readFileSync(baselinePath, "utf8"))
      : {};
    const current: Record<string, SchemaOutcome> = {};
    for (const r of results) current[r.id] = r.outcome;
    const s = summarize(results);
    console.log(
      `JSONSchemaBench sample shard ${shard + 1}/${shards}: ${JSON.stringify(s)} (${((100 * s.passing) / s.total).toFixed(1)} % passing)`,
    );
    const codes: Record<string, number> = {};
    for (const r of results)
      if (r.outcome === "refused") codes[r.errorCode ?? "?"] = (codes[r.errorCode ?? "?"] ?? 0) + 1;
    console.log(`refusals by code: ${JSON.stringify(codes)}`);
    if (process.env.UPDATE_BASELINE && LONG_TIER)
      writeFileSync(baselinePath, `${JSON.stringify(current, Object.keys(current).sort(), 1)}\n`);
    const bad = results.filter(
      (r) => r.outcome === "invalid-accepted" || r.outcome === "crash" || r.outcome === "timeout",
    );
    expect(bad.map((r) => `${r.id}: ${r.outcome} ${r.errorMessage ?? ""}`.slice(0, 300))).toEqual([]);
    // only the schemas judged in this tier (the quick tier's subsample is compared with the same whole baseline); a
    // passing schema that starts being refused, by the step budget or any other limit, fails
    const regressions = Object.keys(current).filter((k) => baseline[k] === "passing" && current[k] !== "passing");
    expect(regressions.map((k) => `${k}: ${current[k]} ${results.find((r) => r.id === k)?.errorCode ?? ""}`)).toEqual(
      [],
    );
  }, 900_000);
}
