/**
 * `npm run bench [-- --quick]`: every benchmark, in order — token masks against XGrammar (bench/run.ts, in its own
 * process), output parsing against the one-regex approach, the tiny llama.cpp model under each constraint engine, and
 * dataset validation throughput. Prints the tables; with --quick (CI) sizes are small and only a correctness mismatch
 * fails the run, never a time.
 */
import { spawnSync } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const quick = args.includes("--quick");
const sections: string[] = [];

const masks = spawnSync(process.execPath, ["--import", "tsx", join(here, "run.ts"), ...args], { stdio: ["ignore", "pipe", "inherit"], encoding: "utf8" });
// XGrammar's WASM build prints a warning per negated character class with non-ASCII bytes on stdout: count, don't echo
const maskLines = masks.stdout.split("\n");
const xgWarnings = maskLines.filter((l) => l.startsWith("[WARNING]")).length;
const maskOut = maskLines.filter((l) => !l.startsWith("[WARNING]")).join("\n").trim() + (xgWarnings ? `\n\n(XGrammar printed ${xgWarnings} warnings: it clamps negated character classes above byte 127.)` : "");
console.log(maskOut);
sections.push("## Token masks (toolgram vs XGrammar, Qwen3 vocabulary)\n\n" + maskOut);
let failed = masks.status !== 0;

const optional: [string, string, string][] = [
  ["parse.ts", "runParseBench", "## Output parsing"],
  ["llama.ts", "runLlamaBench", "## Generation with the tiny Qwen3 model (llama.cpp)"],
  ["dataset.ts", "runDatasetBench", "## Dataset validation"],
  ["playground.ts", "runPlaygroundBench", "## Playground in Chromium (bundle size, time to interactive)"],
];
for (const [file, fn, title] of optional) {
  if (!existsSync(join(here, file))) continue;
  try {
    const mod = (await import(join(here, file))) as Record<string, (o: { quick: boolean }) => Promise<string>>;
    const table = await mod[fn]({ quick });
    console.log(`\n${title}\n\n${table}`);
    sections.push(`${title}\n\n${table}`);
  } catch (e) {
    failed = true;
    console.error(`${title}: ${(e as Error).stack ?? e}`);
  }
}
if (!quick) writeFileSync(join(here, "results.md"), sections.join("\n\n") + "\n");
process.exitCode = failed ? 1 : 0;
