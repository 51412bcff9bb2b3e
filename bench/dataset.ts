/**
 * Dataset validator throughput: N generated Qwen3-format rows (100,000 by default, 5,000 with --quick), written to a
 * temporary JSONL file and validated by streaming, as `toolgram validate-dataset` does. Reports rows/s and the heap
 * and RSS growth (flat memory is the claim: the file is never held whole).
 */
import { mkdtempSync, rmSync, createWriteStream } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { validateDatasetFile } from "../src/node.js";
import { renderToolCalls, type CallToRender } from "../src/parser/renderToolCalls.js";

const TOOLS = [
  {
    type: "function",
    function: {
      name: "get_weather",
      parameters: {
        type: "object",
        properties: { city: { type: "string" }, days: { type: "integer", minimum: 1, maximum: 14 } },
        required: ["city"],
      },
    },
  },
  {
    type: "function",
    function: {
      name: "search",
      parameters: {
        type: "object",
        properties: { q: { type: "string" }, limit: { type: "integer", minimum: 1, maximum: 50 } },
        required: ["q"],
      },
    },
  },
];
const CITIES = ["Paris", "Rome", "Tokyo", "Lima", "Oslo", "Cairo", "Quito"];

function row(i: number): string {
  const calls: CallToRender[] =
    i % 7 === 0
      ? [
          { name: "get_weather", arguments: { city: CITIES[i % 7], days: 1 + (i % 14) } },
          { name: "search", arguments: { q: `news ${i}` } },
        ]
      : [
          {
            name: i % 2 ? "get_weather" : "search",
            arguments: i % 2 ? { city: CITIES[i % 7] } : { q: `item ${i}`, limit: 1 + (i % 50) },
          },
        ];
  const responses = calls.map((_, k) => `<tool_response>\n{"ok": ${k}}\n</tool_response>`).join("\n");
  const messages = [
    { role: "user", content: `question ${i}` },
    { role: "assistant", content: renderToolCalls(calls, "qwen3") },
    { role: "user", content: responses },
    { role: "assistant", content: `answer ${i}` },
  ];
  return JSON.stringify({ messages, tools: TOOLS });
}

export async function runDatasetBench(opts: { quick: boolean }): Promise<string> {
  const n = opts.quick ? 5_000 : 100_000;
  const dir = mkdtempSync(join(tmpdir(), "toolgram-bench-"));
  const file = join(dir, "rows.jsonl");
  try {
    const out = createWriteStream(file);
    for (let i = 0; i < n; i++)
      if (!out.write(`${row(i)}\n`)) await new Promise<void>((r) => out.once("drain", () => r()));
    await new Promise<void>((r) => out.end(r));
    global.gc?.();
    const heap0 = process.memoryUsage().heapUsed;
    const rss0 = process.memoryUsage().rss;
    let peakHeap = heap0;
    const t0 = performance.now();
    const report = await validateDatasetFile(file, {
      onProgress: () => (peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed)),
    });
    const s = (performance.now() - t0) / 1000;
    const rss1 = process.memoryUsage().rss;
    if (report.errors !== 0) throw new Error(`the generated rows should be clean, got ${report.errors} errors`);
    const mb = (b: number): string => (b / 2 ** 20).toFixed(0);
    return [
      "| dataset rows | time | rows/s | peak heap growth | RSS growth |",
      "| --- | --- | --- | --- | --- |",
      `| ${n.toLocaleString("en-US")} | ${s.toFixed(1)} s | ${Math.round(n / s).toLocaleString("en-US")} | ${mb(peakHeap - heap0)} MB | ${mb(rss1 - rss0)} MB |`,
    ].join("\n");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  runDatasetBench({ quick: process.argv.includes("--quick") }).then((t) => console.log(t));
}
