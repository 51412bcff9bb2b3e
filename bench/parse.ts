/**
 * Output-parser benchmark: throughput of `parseToolCalls` and `ToolCallStream` (64-character chunks) on a generated
 * corpus of replies (clean calls, drifted calls, plain text, truncations), next to the common one-regex approach; and,
 * per fixture category of test/fixtures/outputs/qwen3, how often each approach reads the expected calls.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { JsonObject, JsonValue } from "../src/json.js";
import { canonicalJson } from "../src/json.js";
import { parseToolCalls } from "../src/parser/parseToolCalls.js";
import { renderToolCalls } from "../src/parser/renderToolCalls.js";
import { ToolCallStream } from "../src/parser/ToolCallStream.js";
import type { ParseMode } from "../src/parser/types.js";
import { seededRandom, type Random } from "../src/util/seededRandom.js";

const here = dirname(fileURLToPath(import.meta.url));
const FIXTURES = join(here, "..", "test", "fixtures", "outputs");
const CHUNK = 64;

interface Call {
  name: string;
  arguments: JsonValue;
}

/** The approach many integrations use: one regex over the reply, JSON.parse of each match, unreadable ones skipped. */
const REGEX = /<tool_call>\s*(\{[\s\S]*?\})\s*<\/tool_call>/g;
export function regexCalls(text: string): Call[] {
  const calls: Call[] = [];
  for (const m of text.matchAll(REGEX)) {
    try {
      const v = JSON.parse(m[1]) as { name?: unknown; arguments?: unknown };
      if (typeof v.name === "string") calls.push({ name: v.name, arguments: (v.arguments ?? {}) as JsonValue });
    } catch {
      // the regex approach loses the call
    }
  }
  return calls;
}

const WORDS = [
  "the",
  "weather",
  "in",
  "Paris",
  "is",
  "mild",
  "let",
  "me",
  "check",
  "<b>",
  "a < b",
  "tool",
  "results",
  "call",
  "{",
  "}",
  '"quoted"',
  "done.",
];

function sentence(r: Random, n: number): string {
  const w: string[] = [];
  for (let i = 0; i < n; i++) w.push(WORDS[Math.floor(r() * WORDS.length)]);
  return w.join(" ");
}

function randomCall(r: Random): { name: string; arguments: JsonObject } {
  const k = Math.floor(r() * 3);
  if (k === 0)
    return {
      name: "get_weather",
      arguments: { city: sentence(r, 1 + Math.floor(r() * 3)), unit: r() < 0.5 ? "celsius" : "fahrenheit" },
    };
  if (k === 1)
    return {
      name: "search",
      arguments: { query: sentence(r, 2 + Math.floor(r() * 8)), limit: 1 + Math.floor(r() * 20) },
    };
  return {
    name: "f",
    arguments: {
      items: Array.from({ length: 1 + Math.floor(r() * 5) }, (_, i) => ({
        id: i,
        ok: r() < 0.5,
        note: sentence(r, 3),
      })),
    },
  };
}

/** Drifts real models make, applied to a canonical block. */
const DRIFTS: ((block: string, r: Random) => string)[] = [
  (b) => b.replace("<tool_call>\n", "<tool_call>").replace("\n</tool_call>", "</tool_call>"),
  (b) => b.replace("<tool_call>\n", "<tool_call>\n```json\n").replace("\n</tool_call>", "\n```\n</tool_call>"),
  (b) => b.replace(/"/g, "'"),
  (b) => b.replace(/\}\}\n<\/tool_call>/, "},}\n</tool_call>"),
  (b) => b.replace(/true/g, "True").replace(/false/g, "False"),
  (b) => b.replace("\n</tool_call>", "}\n</tool_call>"),
  (b) => b.replace('"arguments"', '"parameters"'),
];

/** One reply: text and/or calls, some drifted or cut short. */
function reply(r: Random): string {
  const kind = r();
  const text = r() < 0.6 ? `${sentence(r, 5 + Math.floor(r() * 40))}\n` : "";
  if (kind < 0.15) return sentence(r, 20 + Math.floor(r() * 200));
  const calls = Array.from({ length: 1 + Math.floor(r() * 3) }, () => randomCall(r));
  let blocks = calls.map((c) => renderToolCalls([c]));
  if (kind < 0.45) blocks = blocks.map((b) => DRIFTS[Math.floor(r() * DRIFTS.length)](b, r));
  let out = text + blocks.join("\n");
  if (kind > 0.9) out = out.slice(0, Math.floor(out.length * (0.3 + 0.6 * r()))); // truncated
  return out;
}

/** A deterministic corpus of about `bytes` UTF-8 bytes. */
export function parseCorpus(bytes: number, seed = 7): string[] {
  const r = seededRandom(seed);
  const out: string[] = [];
  let total = 0;
  while (total < bytes) {
    const t = reply(r);
    out.push(t);
    total += Buffer.byteLength(t);
  }
  return out;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

function timeMBps(corpus: string[], mb: number, runs: number, f: (t: string) => unknown): number {
  const ms: number[] = [];
  for (let k = 0; k < runs + 1; k++) {
    const t0 = performance.now();
    for (const t of corpus) f(t);
    const dt = performance.now() - t0;
    if (k > 0) ms.push(dt); // the first run warms up the JIT
  }
  return mb / (median(ms) / 1000);
}

interface Fixture {
  input: string;
  mode?: ParseMode;
  expected: { calls: Call[] };
}

function sameCalls(a: readonly Call[], b: readonly Call[]): boolean {
  return (
    a.length === b.length &&
    a.every((c, i) => c.name === b[i].name && canonicalJson(c.arguments) === canonicalJson(b[i].arguments))
  );
}

/** Runs both tables; `quick`: a 0.5 MB corpus and 3 timed runs (5 MB and 7 otherwise). */
export async function runParseBench(opts: { quick: boolean }): Promise<string> {
  const tools = JSON.parse(readFileSync(join(FIXTURES, "tools.json"), "utf8")) as unknown[];
  const corpus = parseCorpus(opts.quick ? 500_000 : 5_000_000);
  const bytes = corpus.reduce((n, t) => n + Buffer.byteLength(t), 0);
  const mb = bytes / 1e6;
  const runs = opts.quick ? 3 : 7;

  let regexFound = 0;
  let toolgramFound = 0;
  for (const t of corpus) {
    regexFound += regexCalls(t).length;
    toolgramFound += parseToolCalls(t, { tools }).calls.length;
  }
  const rows: [string, number][] = [
    ["regex + JSON.parse", timeMBps(corpus, mb, runs, regexCalls)],
    ["parseToolCalls (no tools)", timeMBps(corpus, mb, runs, (t) => parseToolCalls(t))],
    ["parseToolCalls (tools: ajv validation)", timeMBps(corpus, mb, runs, (t) => parseToolCalls(t, { tools }))],
    [
      `ToolCallStream (${CHUNK}-char chunks, tools)`,
      timeMBps(corpus, mb, runs, (t) => {
        const s = new ToolCallStream({ tools });
        for (let i = 0; i < t.length; i += CHUNK) s.push(t.slice(i, i + CHUNK));
        return s.end();
      }),
    ],
  ];
  const lines = [
    `### Parse throughput (${corpus.length} replies, ${mb.toFixed(2)} MB; median of ${runs} runs)`,
    "",
    "| approach | MB/s |",
    "|---|---:|",
    ...rows.map(([n, v]) => `| ${n} | ${v.toFixed(1)} |`),
    "",
    `Calls read from the corpus: regex ${regexFound}, toolgram (tolerant) ${toolgramFound}.`,
    "",
  ];

  // fixtures: does each approach read exactly the expected calls?
  const dir = join(FIXTURES, "qwen3");
  const byCategory = new Map<string, { n: number; regex: number; toolgram: number }>();
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .sort()) {
    const fx = JSON.parse(readFileSync(join(dir, file), "utf8")) as Fixture;
    const category = file.split("-")[0];
    const row = byCategory.get(category) ?? { n: 0, regex: 0, toolgram: 0 };
    byCategory.set(category, row);
    row.n++;
    const expected = fx.expected.calls;
    if (sameCalls(regexCalls(fx.input), expected)) row.regex++;
    if (sameCalls(parseToolCalls(fx.input, { tools, mode: fx.mode ?? "tolerant" }).calls, expected)) row.toolgram++;
  }
  const tot = { n: 0, regex: 0, toolgram: 0 };
  lines.push(
    "### Calls read as expected, Qwen3 output fixtures",
    "",
    "| category | fixtures | regex | toolgram |",
    "|---|---:|---:|---:|",
  );
  for (const [c, r] of byCategory) {
    lines.push(`| ${c} | ${r.n} | ${r.regex} | ${r.toolgram} |`);
    tot.n += r.n;
    tot.regex += r.regex;
    tot.toolgram += r.toolgram;
  }
  lines.push(`| **all** | ${tot.n} | ${tot.regex} | ${tot.toolgram} |`, "");
  return lines.join("\n");
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  console.log(await runParseBench({ quick: process.argv.includes("--quick") }));
}
