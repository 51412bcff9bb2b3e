/**
 * toolgram serve beside llama-server's own tool calling, on the tiny random-weight models with their real chat
 * templates: llama-server `--jinja` `/v1/chat/completions` with `tools` (A), `toolgram serve --upstream` over the same
 * llama-server (B) and `toolgram serve --model` in process (C), each driven by the official `openai` client, streamed,
 * for every tool set × request kind × seed × max_tokens. Every response is judged with ajv against its tool's schema
 * and against what the request asked (tool_choice, parallel_tool_calls).
 *
 *   npm run bench:serve                                      every family, 2 seeds, max_tokens 64 and 256; writes
 *                                                            bench/serve/results.md, baseline.json, plots/
 *   npm run bench:serve -- --quick                           Qwen3, two tool sets, 1 seed, max_tokens 64; writes nothing
 *   npm run bench:serve -- --families qwen3,gptoss --seeds 2 --max-tokens 64,128
 *
 * Exits non-zero when toolgram breaks its own promise: an error answer from B or C, or a call from them that does not
 * parse, validate or obey tool_choice, except (B only) a call cut at the budget with finish_reason "length", which
 * llama-server's /completion cannot steer. llama-server's own answers are measured, never judged into the exit code.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import OpenAI from "openai";
import { findLlamaServer } from "../../src/llama-cpp/index.js";
import { buildTinyFamilyModel } from "../../src/testing/buildTinyFamilyModel.js";
import type { TinyModelFamilyName } from "../../src/gguf/tinyModelFamilies.js";
import { conformingChart } from "./chart.js";
import { type EndpointId, startEndpoints } from "./endpoints.js";
import { judge } from "./judge.js";
import { type Refusals, resultsPage } from "./report.js";
import { kindFields, REQUEST_KINDS } from "./requestKinds.js";
import { streamOne } from "./streamOne.js";
import { conforms, groupBy, type RequestRecord, summarize } from "./summarize.js";
import { serveToolSets } from "./toolSets.js";
import { widerContextModel } from "./widerContext.js";

const here = dirname(fileURLToPath(import.meta.url));
const argv = process.argv.slice(2);
const option = (name: string): string | undefined => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : undefined;
};
const QUICK = argv.includes("--quick");
const FAMILIES = (option("families") ?? (QUICK ? "qwen3" : "qwen3,llama3_1,gptoss,deepseek_v3")).split(
  ",",
) as TinyModelFamilyName[];
const SEEDS = Number(option("seeds") ?? (QUICK ? 1 : 2));
const MAX_TOKENS = (option("max-tokens") ?? (QUICK ? "64" : "64,256")).split(",").map(Number);
const TOOL_SETS = serveToolSets().slice(0, QUICK ? 2 : undefined);
/** The GitHub set's prompt is ≈ 14,800 tokens in Qwen3's template and ≈ 21,700 in Llama 3.1's; room for it and the answer, per sequence. */
const CONTEXT = 32_768;
const ORDER: EndpointId[] = ["A", "B", "C"];

/**
 * llama.cpp's tool template for a family whose tokenizer's own template writes no tool call (DeepSeek V3's), so its
 * row measures calls: the R1 template the tests serve DeepSeek with (`deepseek-v3` format, DeepSeek V3's vocabulary).
 */
const TOOL_TEMPLATES: Partial<Record<TinyModelFamilyName, string>> = { deepseek_v3: "llama-cpp-deepseek-r1.jinja" };

/** A call toolgram itself returned that breaks what toolgram promises (see the header). */
function brokenPromise(r: RequestRecord): boolean {
  if (r.endpoint === "A") return false;
  // A 4xx is toolgram refusing a request with a named reason (say, LIMIT_COMPILE_TIME): counted, not a broken promise.
  if (r.outcome.error !== undefined) return !/^HTTP 4\d\d/.test(r.outcome.error);
  if (conforms(r)) return false;
  return !(r.endpoint === "B" && r.outcome.finishReason === "length");
}

async function runFamily(
  family: TinyModelFamilyName,
  llamaServer: string | undefined,
  records: RequestRecord[],
  refusals: Refusals,
): Promise<void> {
  // A family whose vocabulary package is not installed is reported, not fatal to the other families' figures.
  const template = TOOL_TEMPLATES[family];
  const model = await buildTinyFamilyModel({
    family,
    ...(template === undefined ? {} : { llamaCppTemplate: template }),
  }).catch((error: unknown) => {
    const why = error instanceof Error ? error.message.slice(0, 200) : String(error);
    refusals[family] = { A: why, B: why, C: why };
    return null;
  });
  if (model === null) return;
  if (model === undefined) {
    refusals[family] = { A: "no model (llama.cpp source not available)", B: "no model", C: "no model" };
    return;
  }
  const set = await startEndpoints({
    model: widerContextModel(model.path, 2 * CONTEXT),
    llamaServer,
    contextSize: CONTEXT,
  });
  refusals[family] = {};
  // Interrupted, the bench still stops the servers it started.
  const onSignal = (signal: NodeJS.Signals): void => {
    void set.stop().finally(() => process.kill(process.pid, signal));
  };
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
  try {
    const clients = new Map<EndpointId, OpenAI>();
    for (const e of set.endpoints) {
      if (e.refused !== undefined) refusals[family][e.id] = e.refused;
      else clients.set(e.id, new OpenAI({ baseURL: e.baseURL, apiKey: "unused", maxRetries: 0, timeout: 300_000 }));
    }
    let turn = 0;
    for (const toolSet of TOOL_SETS) {
      for (const kind of REQUEST_KINDS) {
        for (let seed = 1; seed <= SEEDS; seed++) {
          for (const maxTokens of MAX_TOKENS) {
            const body = {
              model: "tiny",
              messages: [{ role: "user", content: toolSet.prompt }],
              tools: toolSet.tools,
              ...kindFields(kind, toolSet),
              max_tokens: maxTokens,
              seed,
              temperature: 1,
            };
            // The endpoints take turns first, so that a slower moment of a shared machine falls on each alike.
            const order = ORDER.map((_, i) => ORDER[(i + turn) % ORDER.length]);
            turn++;
            for (const endpoint of order) {
              const client = clients.get(endpoint);
              if (client === undefined) continue;
              const outcome = await streamOne(client, body);
              const record = {
                family,
                toolSet: toolSet.name,
                kind,
                seed,
                maxTokens,
                endpoint,
                outcome,
                verdict: judge(outcome, kind, toolSet),
              };
              records.push(record);
              if (brokenPromise(record))
                console.error(
                  `${family} ${endpoint} ${toolSet.name} ${kind} seed ${seed} max_tokens ${maxTokens}: ${record.verdict.problem}`,
                );
            }
          }
        }
      }
      process.stderr.write(`${family}: ${toolSet.name} done (${records.length} requests so far)\n`);
    }
  } finally {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
    await set.stop();
  }
}

function commit(): string {
  try {
    return execFileSync("git", ["rev-parse", "--short", "HEAD"], { cwd: here, encoding: "utf8" }).trim();
  } catch {
    return "unknown";
  }
}

/** Writes results.md, the chart and baseline.json (not in a quick run); returns the page. */
async function writeResults(
  records: RequestRecord[],
  refusals: Refusals,
  seconds: number,
  unfinished: readonly TinyModelFamilyName[],
): Promise<string> {
  const header = [
    `# toolgram serve beside llama-server's own tool calling${QUICK ? " (quick run)" : ""}`,
    "",
    `Written by \`npm run bench:serve${QUICK ? " -- --quick" : ""}\` (bench/serve/compare.ts) at commit \`${commit()}\`: ${records.length} streamed requests in ${seconds.toFixed(0)} s; families ${FAMILIES.filter((f) => !unfinished.includes(f)).join(", ")}${unfinished.length > 0 ? ` (not yet run: ${unfinished.join(", ")})` : ""}; tool sets ${TOOL_SETS.map((s) => s.name).join(", ")}; ${SEEDS} seed(s); max_tokens ${MAX_TOKENS.join(", ")}; temperature 1.`,
    '"as asked": no error, every call parses (JSON.parse) and validates (ajv) against its tool\'s schema, and the calls are what the request asked (≥ 1 for required and named, only the named tool, ≤ 1 with parallel_tool_calls false; any count for auto). Times are wall clock on a shared machine: compare within a run.',
  ].join("\n");
  const page = resultsPage(records, refusals, header);
  const out = QUICK ? undefined : here;
  if (out === undefined) {
    await conformingChart(records); // drawn, so that the quick run checks the chart too
    return page;
  }
  writeFileSync(join(out, "results.md"), page);
  mkdirSync(join(out, "plots"), { recursive: true });
  writeFileSync(join(out, "plots", "conforming.svg"), await conformingChart(records));
  const summaries = [...groupBy(records, (r) => `${r.family}|${r.endpoint}|${r.kind}`)].map(([key, g]) => {
    const [family, endpoint, kind] = key.split("|");
    return { family, endpoint, kind, ...summarize(g) };
  });
  const baseline = {
    commit: commit(),
    seconds: Math.round(seconds),
    seeds: SEEDS,
    maxTokens: MAX_TOKENS,
    toolSets: TOOL_SETS.map((s) => s.name),
    ...(unfinished.length > 0 ? { notYetRun: unfinished } : {}),
    refusals,
    summaries,
  };
  writeFileSync(join(out, "baseline.json"), `${JSON.stringify(baseline, null, 2)}\n`);
  return page;
}

async function main(): Promise<number> {
  const llamaServer = await findLlamaServer();
  if (llamaServer === undefined) console.warn("llama-server is not built (npm run llama-server): A and B are skipped");
  const records: RequestRecord[] = [];
  const refusals: Refusals = {};
  const started = performance.now();
  let page = "";
  // the files are written after each family, so that a run cut short keeps the families it finished
  for (const [i, family] of FAMILIES.entries()) {
    await runFamily(family, llamaServer, records, refusals);
    const unfinished = FAMILIES.slice(i + 1);
    if (unfinished.length > 0 && QUICK) continue;
    page = await writeResults(records, refusals, (performance.now() - started) / 1000, unfinished);
  }
  const broken = records.filter(brokenPromise);
  console.log(page);
  console.log(
    `toolgram's own promise broken in ${broken.length} of ${records.filter((r) => r.endpoint !== "A").length} responses from B and C`,
  );
  return broken.length === 0 ? 0 : 1;
}

process.exitCode = await main();
