/**
 * Load test of `toolgram serve` on the tiny random-weight model: N requests from C concurrent clients (a mix of
 * tool_choice required / auto / named, half of them streamed), each checked (status 200, every call parses and
 * validates with ajv, streamed deltas well formed), with latency percentiles, throughput and memory over the run.
 * Writes bench/serve.json and prints a markdown row.
 *
 *   npm run bench:serve:load                        400 requests, 16 clients, --parallel 2
 *   npm run bench:serve:load -- --requests 100 --clients 8 --parallel 1
 */
import { writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import Ajv2020 from "ajv/dist/2020.js";
import { buildTinyModel, tinyModelPath } from "../src/llama-cpp/index.js";
import { startServer } from "../src/server/index.js";
import { weatherTools } from "./toolSets.js";

const here = dirname(fileURLToPath(import.meta.url));
const arg = (name: string, fallback: number): number => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};
const REQUESTS = arg("requests", 400);
const CLIENTS = arg("clients", 16);
const PARALLEL = arg("parallel", 2);
const MAX_TOKENS = arg("max-tokens", 64);

const TOOLS = [
  ...weatherTools(),
  {
    type: "function",
    function: {
      name: "add",
      parameters: {
        type: "object",
        properties: { a: { type: "integer" }, b: { type: "integer" } },
        required: ["a", "b"],
      },
    },
  },
];
const ajv = new Ajv2020.default({ strict: false });
const validate = new Map(TOOLS.map((t) => [t.function.name, ajv.compile(t.function.parameters)]));
const CHOICES: unknown[] = ["required", "auto", { type: "function", function: { name: "add" } }];

type Call = { function: { name: string; arguments: string } };

function check(calls: Call[]): string | undefined {
  for (const c of calls) {
    const v = validate.get(c.function.name);
    if (v === undefined) return `undeclared tool ${c.function.name}`;
    let args: unknown;
    try {
      args = JSON.parse(c.function.arguments);
    } catch {
      return `arguments are not JSON: ${c.function.arguments}`;
    }
    if (!v(args)) return `arguments fail the schema: ${ajv.errorsText(v.errors)}`;
  }
  return undefined;
}

async function one(url: string, i: number): Promise<{ status: number; ms: number; tokens: number; problem?: string }> {
  const stream = i % 2 === 1;
  const body = {
    model: "tiny",
    messages: [{ role: "user", content: `Request ${i}: weather in Paris, time in Tokyo, and 2 + ${i}?` }],
    tools: TOOLS,
    tool_choice: CHOICES[i % CHOICES.length],
    max_tokens: MAX_TOKENS,
    seed: i,
    stream,
    ...(stream ? { stream_options: { include_usage: true } } : {}),
  };
  const started = performance.now();
  const r = await fetch(`${url}/v1/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const text = await r.text();
  const ms = performance.now() - started;
  if (r.status !== 200) return { status: r.status, ms, tokens: 0, problem: text.slice(0, 200) };
  let calls: Call[] = [];
  let tokens = 0;
  if (!stream) {
    const json = JSON.parse(text) as {
      choices: Array<{ message: { tool_calls?: Call[] } }>;
      usage: { completion_tokens: number };
    };
    calls = json.choices[0].message.tool_calls ?? [];
    tokens = json.usage.completion_tokens;
  } else {
    const events = text
      .split("\n\n")
      .filter((e) => e.startsWith("data: "))
      .map((e) => e.slice(6));
    if (events.at(-1) !== "[DONE]") return { status: 200, ms, tokens: 0, problem: "stream did not end with [DONE]" };
    for (const e of events.slice(0, -1)) {
      const chunk = JSON.parse(e) as {
        error?: unknown;
        usage?: { completion_tokens: number } | null;
        choices: Array<{
          delta: { tool_calls?: Array<{ index: number; id?: string; function: { name?: string; arguments: string } }> };
        }>;
      };
      if (chunk.error !== undefined) return { status: 200, ms, tokens: 0, problem: JSON.stringify(chunk.error) };
      if (chunk.usage) tokens = chunk.usage.completion_tokens;
      for (const d of chunk.choices[0]?.delta.tool_calls ?? []) {
        if (d.id !== undefined)
          calls[d.index] = { function: { name: d.function.name ?? "", arguments: d.function.arguments } };
        else calls[d.index].function.arguments += d.function.arguments;
      }
    }
  }
  const problem = check(calls);
  return { status: 200, ms, tokens, ...(problem === undefined ? {} : { problem }) };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function main(): Promise<void> {
  const { path } = await buildTinyModel({ seed: 0, outPath: tinyModelPath(0) });
  const server = await startServer({ model: path, port: 0, parallel: PARALLEL, maxQueue: 64 });
  const memory: Array<{ done: number; rssMB: number; heapMB: number }> = [];
  const sampleMemory = (done: number): void => {
    (globalThis as { gc?: () => void }).gc?.();
    const m = process.memoryUsage();
    memory.push({ done, rssMB: m.rss / 1e6, heapMB: m.heapUsed / 1e6 });
  };
  const results: Awaited<ReturnType<typeof one>>[] = [];
  let next = 0;
  const started = performance.now();
  sampleMemory(0);
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (next < REQUESTS) {
        const i = next++;
        results.push(await one(server.url, i));
        if (results.length % Math.max(1, Math.floor(REQUESTS / 8)) === 0) sampleMemory(results.length);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  sampleMemory(results.length);
  await server.close();

  const latencies = results.map((r) => r.ms).sort((a, b) => a - b);
  const fivexx = results.filter((r) => r.status >= 500).length;
  const non200 = results.filter((r) => r.status !== 200).length;
  const invalid = results.filter((r) => r.problem !== undefined);
  const tokens = results.reduce((a, r) => a + r.tokens, 0);
  const summary = {
    requests: REQUESTS,
    clients: CLIENTS,
    parallel: PARALLEL,
    maxTokens: MAX_TOKENS,
    fivexx,
    non200,
    invalid: invalid.length,
    p50ms: Math.round(percentile(latencies, 50)),
    p99ms: Math.round(percentile(latencies, 99)),
    requestsPerSecond: Number((REQUESTS / seconds).toFixed(2)),
    tokensPerSecond: Math.round(tokens / seconds),
    seconds: Number(seconds.toFixed(1)),
    memory: memory.map((m) => ({ ...m, rssMB: Math.round(m.rssMB), heapMB: Number(m.heapMB.toFixed(1)) })),
  };
  writeFileSync(join(here, "serve.json"), `${JSON.stringify(summary, null, 2)}\n`);
  for (const p of invalid.slice(0, 5)) console.error(`problem: ${p.problem}`);
  console.log(
    "| requests | clients | --parallel | 5xx | invalid | p50 (ms) | p99 (ms) | req/s | tok/s | heap MB (start → after 1/8 → end) | RSS MB (start → end) |",
  );
  console.log("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | --- |");
  const first = memory[1] ?? memory[0];
  console.log(
    `| ${REQUESTS} | ${CLIENTS} | ${PARALLEL} | ${fivexx} | ${invalid.length} | ${summary.p50ms} | ${summary.p99ms} | ${summary.requestsPerSecond} | ${summary.tokensPerSecond} | ${memory[0].heapMB.toFixed(0)} → ${first.heapMB.toFixed(0)} → ${memory.at(-1)!.heapMB.toFixed(0)} | ${memory[0].rssMB.toFixed(0)} → ${memory.at(-1)!.rssMB.toFixed(0)} |`,
  );
  process.exitCode = fivexx === 0 && non200 === 0 && invalid.length === 0 ? 0 : 1;
}

await main();
