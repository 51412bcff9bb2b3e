/**
 * Load through the balancer: the layout of `npm run serve:cluster` (nginx round robin over `toolgram serve --upstream`
 * instances, each in front of its own llama-server on the tiny model) with 1 and then 2 instances, the same requests
 * from the same concurrent clients. Each answer is checked (status 200, every call parses and validates, a stream ends
 * with [DONE]; an answer cut at max_tokens is counted apart); the figures are requests/s, generated tokens/s and
 * latency percentiles. Writes bench/cluster/cluster.json and prints a markdown table.
 *
 *   npm run bench:cluster                                   24 requests, 4 clients, 1 then 2 instances
 *   npm run bench:cluster -- --requests 60 --clients 8 --instances 1,2,3 --threads 1 --max-tokens 64
 *
 * Each llama-server gets --threads threads: on a machine with fewer free cores than instances × threads, the
 * instances share cores and the second one adds little.
 */
import { writeFileSync } from "node:fs";
import { availableParallelism, loadavg } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import Ajv2020 from "ajv/dist/2020.js";
import { startCluster } from "../../scripts/cluster/startCluster.js";
import { buildTinyModel, tinyModelPath } from "../../src/llama-cpp/index.js";
import { weatherTools } from "../toolSets.js";

const { values } = parseArgs({
  options: {
    requests: { type: "string", default: "24" },
    clients: { type: "string", default: "4" },
    instances: { type: "string", default: "1,2" },
    threads: { type: "string", default: "1" },
    "max-tokens": { type: "string", default: "64" },
  },
});
const REQUESTS = Number(values.requests);
const CLIENTS = Number(values.clients);
const THREADS = Number(values.threads);
const MAX_TOKENS = Number(values["max-tokens"]);
const SIZES = values.instances.split(",").map(Number);

const TOOLS = weatherTools();
const ajv = new Ajv2020.default({ strict: false });
const validate = new Map(TOOLS.map((t) => [t.function.name, ajv.compile(t.function.parameters)]));
const CHOICES: unknown[] = ["required", { type: "function", function: { name: "get_time" } }];

type Call = { function: { name: string; arguments: string } };
interface Result {
  readonly status: number;
  readonly ms: number;
  readonly tokens: number;
  /** finish_reason "length": the budget ended the turn (upstream, a call can be cut there) */
  readonly cut?: boolean;
  readonly problem?: string;
}

/** Undefined when every call names a declared tool and its arguments validate; else what is wrong. */
function check(calls: readonly Call[], finish: string | undefined): string | undefined {
  // upstream has no token budget steering: a call cut at max_tokens is reported as such, not judged
  if (finish === "length") return undefined;
  for (const c of calls) {
    const v = validate.get(c.function.name);
    if (v === undefined) return `undeclared tool ${c.function.name}`;
    try {
      if (!v(JSON.parse(c.function.arguments))) return `arguments fail the schema: ${ajv.errorsText(v.errors)}`;
    } catch {
      return `arguments are not JSON: ${c.function.arguments}`;
    }
  }
  return calls.length === 0 ? "no call" : undefined;
}

/** The calls and finish reason of a streamed answer's text, or a problem. */
function readStream(text: string): { calls: Call[]; finish?: string; tokens: number } | string {
  const events = text
    .split("\n\n")
    .filter((e) => e.startsWith("data: "))
    .map((e) => e.slice(6));
  if (events.at(-1) !== "[DONE]") return "stream did not end with [DONE]";
  const calls: Call[] = [];
  let finish: string | undefined;
  let tokens = 0;
  for (const e of events.slice(0, -1)) {
    const chunk = JSON.parse(e) as {
      error?: unknown;
      usage?: { completion_tokens: number } | null;
      choices: Array<{
        finish_reason?: string | null;
        delta: { tool_calls?: Array<{ index: number; id?: string; function: { name?: string; arguments: string } }> };
      }>;
    };
    if (chunk.error !== undefined) return JSON.stringify(chunk.error);
    if (chunk.usage) tokens = chunk.usage.completion_tokens;
    finish = chunk.choices[0]?.finish_reason ?? finish;
    for (const d of chunk.choices[0]?.delta.tool_calls ?? []) {
      if (d.id !== undefined)
        calls[d.index] = { function: { name: d.function.name ?? "", arguments: d.function.arguments } };
      else calls[d.index].function.arguments += d.function.arguments;
    }
  }
  return { calls, tokens, ...(finish === undefined ? {} : { finish }) };
}

async function one(url: string, i: number): Promise<Result> {
  const stream = i % 2 === 1;
  const started = performance.now();
  const r = await fetch(`${url}/v1/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      model: "tiny",
      messages: [{ role: "user", content: `Request ${i}: the weather in Paris and the time in Tokyo?` }],
      tools: TOOLS,
      tool_choice: CHOICES[i % CHOICES.length],
      // one call per answer: the random model adds calls while it may, and upstream cuts the last at max_tokens
      parallel_tool_calls: false,
      max_tokens: MAX_TOKENS,
      seed: i,
      stream,
      ...(stream ? { stream_options: { include_usage: true } } : {}),
    }),
  });
  const text = await r.text();
  const ms = performance.now() - started;
  if (r.status !== 200) return { status: r.status, ms, tokens: 0, problem: text.slice(0, 200) };
  if (stream) {
    const read = readStream(text);
    if (typeof read === "string") return { status: 200, ms, tokens: 0, problem: read };
    const problem = check(read.calls, read.finish);
    return {
      status: 200,
      ms,
      tokens: read.tokens,
      cut: read.finish === "length",
      ...(problem === undefined ? {} : { problem }),
    };
  }
  const json = JSON.parse(text) as {
    choices: Array<{ finish_reason: string; message: { tool_calls?: Call[] } }>;
    usage: { completion_tokens: number };
  };
  const finish = json.choices[0].finish_reason;
  const problem = check(json.choices[0].message.tool_calls ?? [], finish);
  return {
    status: 200,
    ms,
    tokens: json.usage.completion_tokens,
    cut: finish === "length",
    ...(problem === undefined ? {} : { problem }),
  };
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function measure(model: string, instances: number): Promise<Record<string, number>> {
  const cluster = await startCluster({ model, instances, threads: THREADS });
  try {
    // one request per instance first, so that no figure includes a cold start
    await Promise.all(cluster.instances.map((_, i) => one(cluster.url, REQUESTS + i)));
    const results: Result[] = [];
    let next = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: CLIENTS }, async () => {
        while (next < REQUESTS) results.push(await one(cluster.url, next++));
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    for (const r of results.filter((r) => r.problem !== undefined).slice(0, 5)) console.error(`problem: ${r.problem}`);
    const latencies = results.map((r) => r.ms).sort((a, b) => a - b);
    return {
      instances,
      requests: REQUESTS,
      clients: CLIENTS,
      threads: THREADS,
      maxTokens: MAX_TOKENS,
      non200: results.filter((r) => r.status !== 200).length,
      invalid: results.filter((r) => r.problem !== undefined).length,
      cutAtBudget: results.filter((r) => r.cut === true).length,
      requestsPerSecond: Number((REQUESTS / seconds).toFixed(2)),
      tokensPerSecond: Math.round(results.reduce((a, r) => a + r.tokens, 0) / seconds),
      p50ms: Math.round(percentile(latencies, 50)),
      p90ms: Math.round(percentile(latencies, 90)),
      p99ms: Math.round(percentile(latencies, 99)),
      seconds: Number(seconds.toFixed(1)),
      // what else the machine ran: the instances can only add throughput on free cores
      cores: availableParallelism(),
      loadAverage: Number(loadavg()[0].toFixed(1)),
    };
  } finally {
    await cluster.stop();
  }
}

async function main(): Promise<number> {
  const { path } = await buildTinyModel({ seed: 0, outPath: tinyModelPath(0) });
  const rows: Array<Record<string, number>> = [];
  for (const n of SIZES) rows.push(await measure(path, n));
  writeFileSync(join(import.meta.dirname, "cluster.json"), `${JSON.stringify(rows, null, 2)}\n`);
  console.log(
    "| instances | requests | clients | non-200 | invalid | cut at max_tokens | req/s | tok/s | p50 (ms) | p90 (ms) | p99 (ms) | cores | load average |",
  );
  console.log("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
  for (const r of rows)
    console.log(
      `| ${r.instances} | ${r.requests} | ${r.clients} | ${r.non200} | ${r.invalid} | ${r.cutAtBudget} | ${r.requestsPerSecond} | ${r.tokensPerSecond} | ${r.p50ms} | ${r.p90ms} | ${r.p99ms} | ${r.cores} | ${r.loadAverage} |`,
    );
  return rows.every((r) => r.non200 === 0 && r.invalid === 0) ? 0 : 1;
}

process.exitCode = await main();
