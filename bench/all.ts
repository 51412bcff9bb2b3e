/**
 * `npm run bench [-- --quick]`: every benchmark, in order — token masks against XGrammar (bench/run.ts, in its own
 * process), output parsing against the one-regex approach, the tiny llama.cpp model under each constraint engine,
 * llama.cpp's grammar sampler on three grammars for the same tools, and dataset validation throughput. Prints the
 * tables; a full run writes bench/results.md and the charts in bench/plots/. With --quick (CI) sizes are small, the
 * charts go to a temporary folder, and only a correctness mismatch fails the run, never a time.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { PlotData } from "./plots.js";

const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const quick = args.includes("--quick");
const sections: string[] = [];
const scratch = mkdtempSync(join(tmpdir(), "toolgram-bench-"));
const dataFile = join(scratch, "masks.json");

const masks = spawnSync(process.execPath, ["--import", "tsx", join(here, "run.ts"), ...args], {
  stdio: ["ignore", "pipe", "inherit"],
  encoding: "utf8",
  env: { ...process.env, TOOLGRAM_BENCH_DATA: dataFile },
  maxBuffer: 64 << 20,
});
// XGrammar's WASM build prints a warning per negated character class with non-ASCII bytes on stdout: count, don't echo
const maskLines = masks.stdout.split("\n");
const xgWarnings = maskLines.filter((l) => l.startsWith("[WARNING]")).length;
const maskOut =
  maskLines
    .filter((l) => !l.startsWith("[WARNING]"))
    .join("\n")
    .trim() +
  (xgWarnings
    ? `\n\n(XGrammar printed ${xgWarnings} warnings: it clamps negated character classes above byte 127.)`
    : "");
console.log(maskOut);
sections.push(`## Token masks (toolgram vs XGrammar, Qwen3 vocabulary)\n\n${maskOut}`);
let failed = masks.status !== 0;
const plotData: PlotData = existsSync(dataFile)
  ? (JSON.parse(readFileSync(dataFile, "utf8")) as PlotData)
  : { groups: {}, scaling: [] };

async function section(title: string, run: () => Promise<string>): Promise<void> {
  try {
    const table = await run();
    console.log(`\n${title}\n\n${table}`);
    sections.push(`${title}\n\n${table}`);
  } catch (e) {
    failed = true;
    console.error(`${title}: ${(e as Error).stack ?? e}`);
  }
}

await section("## Output parsing", async () => (await import("./parse.js")).runParseBench({ quick }));
await section("## Generation with the tiny Qwen3 model (llama.cpp)", async () => {
  const r = await (await import("./llama.js")).runLlamaBench({ quick });
  plotData.decoding = r.rows;
  return r.table;
});
await section(
  "## llama.cpp's grammar sampler: toolgram's GBNF against llama.cpp's and node-llama-cpp's JSON-schema grammars",
  async () => {
    const r = await (await import("./llamaSampler.js")).runLlamaSamplerBench({ quick });
    plotData.sampler = r.rows;
    return r.table;
  },
);
await section("## Dataset validation", async () => (await import("./dataset.js")).runDatasetBench({ quick }));
await section("## Playground in Chromium (bundle size, time to interactive)", async () =>
  (await import("./playground.js")).runPlaygroundBench({ quick }),
);

try {
  const { renderPlots } = await import("./plots.js");
  const dir = quick ? join(scratch, "plots") : join(here, "plots");
  const files = await renderPlots(plotData, dir);
  console.log(`\nCharts: ${files.join(", ")}${quick ? " (rendered to a temporary folder)" : " in bench/plots/"}`);
} catch (e) {
  failed = true;
  console.error(`charts: ${(e as Error).stack ?? e}`);
}
// results.md is the comparison with XGrammar given its own grammar: a run with --xgrammar-gbnf only prints
if (!quick && !args.includes("--xgrammar-gbnf")) writeFileSync(join(here, "results.md"), `${sections.join("\n\n")}\n`);
rmSync(scratch, { recursive: true, force: true });
process.exitCode = failed ? 1 : 0;
