/**
 * `npm run conformance -- DIR [--subset NAME] [--json OUT]`: runs every JSONSchemaBench `*.jsonl` or `*.jsonl.br`
 * file in DIR (e.g. the whole corpus in test/fixtures/jsonschemabench) through compileSchema + accepts() by the
 * MaskBench method and prints, per subset and in total: passing / refused / valid rejected / invalid accepted / timeouts / crashes, and compile time p50/p99/max (a
 * refusal's time included); then the schemas that accepted an invalid instance, crashed or timed out, the refusals by
 * error code, and how many corpus labels ajv (the referee) overruled. `--json OUT` writes every schema's result.
 * Exits 1 on any invalid instance accepted or crash.
 */
import { readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { compileSchema } from "../src/compile.js";
import { judgeRow, readCorpus, summarize, type CorpusResult } from "../src/conformance/judgeCorpus.js";

const args = process.argv.slice(2);
const dir = args.find((a) => !a.startsWith("--"));
const subset = args.includes("--subset") ? args[args.indexOf("--subset") + 1] : undefined;
const jsonOut = args.includes("--json") ? args[args.indexOf("--json") + 1] : undefined;
if (!dir) {
  console.error("usage: npm run conformance -- DIR [--subset NAME] [--json OUT]");
  process.exit(2);
}
const isCorpusFile = (f: string): boolean => f.endsWith(".jsonl") || f.endsWith(".jsonl.br");
const files = isCorpusFile(dir)
  ? [dir]
  : readdirSync(dir)
      .filter(isCorpusFile)
      .sort()
      .map((f) => join(dir, f));
const all: CorpusResult[] = [];
const pct = (a: number, b: number): string => (b ? `${((100 * a) / b).toFixed(1)} %` : "-");
const quantile = (xs: number[], q: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor(q * s.length))] : 0;
};
const max = (xs: number[]): number => xs.reduce((a, b) => Math.max(a, b), 0);
console.log(
  "| subset | schemas | passing | refused | valid rejected | invalid accepted | timeouts | crashes | compile p50 ms | p99 ms | max ms |",
);
console.log("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |");
for (const f of files) {
  const rows = readCorpus(f).filter((r) => !subset || r.subset === subset);
  if (!rows.length) continue;
  const res = rows.map((r) => judgeRow(compileSchema, r));
  all.push(...res);
  const s = summarize(res);
  const ms = res.map((r) => r.compileMs);
  console.log(
    `| ${rows[0].subset} | ${s.total} | ${s.passing} (${pct(s.passing, s.total)}) | ${s.refused} | ${s["valid-rejected"]} | ${s["invalid-accepted"]} | ${s.timeout} | ${s.crash} | ${quantile(ms, 0.5).toFixed(1)} | ${quantile(ms, 0.99).toFixed(1)} | ${max(ms).toFixed(0)} |`,
  );
}
const s = summarize(all);
const ms = all.map((r) => r.compileMs);
console.log(
  `| **total** | ${s.total} | ${s.passing} (${pct(s.passing, s.total)}) | ${s.refused} | ${s["valid-rejected"]} | ${s["invalid-accepted"]} | ${s.timeout} | ${s.crash} | ${quantile(ms, 0.5).toFixed(1)} | ${quantile(ms, 0.99).toFixed(1)} | ${max(ms).toFixed(0)} |`,
);
const slowest = all.reduce<CorpusResult | undefined>((a, r) => (!a || r.compileMs > a.compileMs ? r : a), undefined);
console.log(
  `\n${s.total} schemas: passing ${s.passing} (${pct(s.passing, s.total)}), refused ${s.refused}, valid rejected ${s["valid-rejected"]}, ` +
    `invalid accepted ${s["invalid-accepted"]}, timeouts ${s.timeout}, crashes ${s.crash}; ` +
    `max compile-or-refuse time ${slowest ? `${slowest.compileMs.toFixed(0)} ms (${slowest.id})` : "-"}, ` +
    `${all.filter((r) => r.compileMs > 5_000).length} over 5 s; ` +
    `max work steps of a compiled schema ${max(all.map((r) => r.compileSteps ?? 0))} (the budget, limits.maxCompileSteps, decides; the clock is off)`,
);
for (const outcome of ["invalid-accepted", "crash", "timeout"] as const) {
  const bad = all.filter((r) => r.outcome === outcome);
  if (bad.length)
    console.log(
      `${outcome}: ${bad.map((r) => `${r.id} (${r.compileMs.toFixed(0)} ms${r.errorCode ? `, ${r.errorCode}` : ""})`).join(", ")}`,
    );
}
const relabeled = all.reduce((n, r) => n + (r.relabeled ?? 0), 0);
console.log(
  `corpus labels overruled by ajv (the referee): ${relabeled} tests in ${all.filter((r) => r.relabeled).length} schemas`,
);
const codes: Record<string, number> = {};
for (const r of all) if (r.outcome === "refused") codes[r.errorCode ?? "?"] = (codes[r.errorCode ?? "?"] ?? 0) + 1;
console.log(`refusals by code: ${JSON.stringify(codes)}`);
if (jsonOut) writeFileSync(jsonOut, JSON.stringify(all, null, 1));
process.exitCode = s["invalid-accepted"] || s.crash ? 1 : 0;
