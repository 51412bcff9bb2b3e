/**
 * Decoding speed of the tiny random-weight Qwen3 model in llama.cpp (node-llama-cpp, one thread): unconstrained,
 * under llama.cpp's grammar sampler with toolgram's GBNF, and under toolgram's token matcher (masks applied through
 * node-llama-cpp's token bias, jump-forward off so that every token is sampled). The grammar's cost per token is the
 * difference from the unconstrained step. The tiny model's own step is ≈ 3 ms, far below a real model's, so the
 * overhead percentages are upper bounds of what a real model sees.
 *
 * Rounds: each round runs every row on every seed, the rows taking turns seed by seed in an order that rotates (a
 * shared machine's load drifts; no row always runs first or last). Each row's figure is the median over the rounds of
 * its ms per token, and each overhead the median over the rounds of the row's difference from the unconstrained row
 * in the same round, so that a round the machine slowed down as a whole moves both terms of its difference. Before
 * the rounds, every row generates once in full (seed 0): the matcher's masks and token biases and llama.cpp's grammar
 * are built on first use, and a first use is the cost of a new tool set, not of a step (the first round still meets
 * states of its own seeds for the first time; the median leaves that round out once there are three or more).
 * Three figures per row: wall time, the process's CPU time (llama.cpp's worker threads included: a busy machine
 * stretches wall time but hardly the CPU time of a step), and on Linux the CPU time of the JavaScript thread alone
 * (`/proc/self/task/<pid>/schedstat`), where all of toolgram's work and node-llama-cpp's handling of the token bias
 * run, while the forward pass and the sampling run on worker threads: its overhead is the cost of the mask path
 * without the model's own noise. Overlapping the mask with the forward pass saves wall time, not CPU time.
 *
 * Alone: `npx tsx bench/llama.ts [--quick] [--repeat N] [--rows=gbnf,controlled,public,serial,matcher]` (`--repeat`: rounds,
 * 3 by default, 1 with --quick; `--rows`: which rows besides the unconstrained one).
 */
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { buildTinyModel, tinyModelPath } from "../src/gguf/buildTinyModel.js";
import { compiledFor, vocabularyOf, type GenerationEngine } from "../src/llama-cpp/generateToolCalls.js";
import { generateWithGbnf } from "../src/llama-cpp/generateWithGbnf.js";
import { generateWithMask } from "../src/llama-cpp/generateWithMask.js";
import type { GenerateResult } from "../src/llama-cpp/generationTypes.js";
import { loadLlamaModel } from "../src/llama-cpp/loadNodeLlamaCpp.js";

const here = dirname(fileURLToPath(import.meta.url));

const micros = (u: NodeJS.CpuUsage): number => u.user + u.system;

/** CPU ms of the JavaScript thread (Linux: the main thread's schedstat); NaN where it cannot be read. */
function jsThreadMs(): number {
  try {
    return Number(readFileSync(`/proc/self/task/${process.pid}/schedstat`, "utf8").split(" ")[0]) / 1e6;
  } catch {
    return Number.NaN;
  }
}

export async function runLlamaBench(opts: {
  quick: boolean;
  repeat?: number;
  rows?: readonly string[];
}): Promise<{ table: string; rows: { label: string; tokensPerSecond: number }[] }> {
  const tiny = await buildTinyModel({ seed: 0, outPath: tinyModelPath(0) });
  const model = await loadLlamaModel(tiny.path);
  try {
    const vocab = await vocabularyOf(model);
    const tools: unknown = JSON.parse(readFileSync(join(here, "..", "examples", "weather.tools.json"), "utf8"));
    const seeds = opts.quick ? 2 : 8;
    const maxTokens = opts.quick ? 64 : 128;
    const sampling = { repeatPenalty: { penalty: 1.5, lastTokens: 64 } };
    const compiled = compiledFor(tools, "required", false);
    // A short prompt: the per-token figures should measure decoding, not the evaluation of a long system prompt.
    const prompt = "<|im_start|>user\nWhat is the weather in Paris?<|im_end|>\n<|im_start|>assistant\n";
    // A "mask" that allows every ordinary token: the mask path's own driving of node-llama-cpp, without toolgram's work
    // (no end is allowed, so a sampled end token is undone and resampled, as on the matcher path).
    const words = Math.ceil(vocab.size / 32);
    const allowAll = {
      fillNextTokenBitmask(bits: Uint32Array): void {
        bits.fill(0xffffffff, 0, words);
        for (const e of vocab.eosTokenIds) bits[e >>> 5] &= ~(1 << (e & 31));
      },
      acceptToken: (): boolean => true,
      isCompleted: (): boolean => false,
    };
    type Engine = GenerationEngine | "controlled" | "serial" | "public";
    const run = (engine: Engine, seed: number, n: number): Promise<GenerateResult> => {
      const common = { model, prompt, maxTokens: n, seed, temperature: 1, ...sampling };
      if (engine === "matcher" || engine === "serial" || engine === "public") {
        const biasConversion = engine === "public" ? "node-llama-cpp" : "cached";
        return generateWithMask({
          ...common,
          matcher: compiled.createMatcher(vocab),
          jumpForward: false,
          overlapMasks: engine !== "serial",
          biasConversion,
        });
      }
      if (engine === "controlled") return generateWithMask({ ...common, matcher: allowAll });
      return generateWithGbnf({ ...common, gbnf: engine === "gbnf" ? compiled.toGbnf() : undefined });
    };
    const allEngines = [
      ["none", "unconstrained"],
      ["gbnf", "llama.cpp grammar (toolgram GBNF)"],
      ["controlled", "mask path, every ordinary token allowed (no toolgram work; a sampled end is resampled)"],
      ["public", "toolgram matcher, bias converted by node-llama-cpp at every step (its public API alone)"],
      ["serial", "toolgram matcher, mask computed after the forward pass"],
      ["matcher", "toolgram matcher (masks + token budget, computed during the forward pass)"],
    ] as const;
    const engines = allEngines.filter(
      ([engine]) => engine === "none" || opts.rows === undefined || opts.rows.includes(engine),
    );
    // warm-up: the matcher's mask table, its token biases and llama.cpp's grammar are built on first use
    for (const [engine] of engines) await run(engine, 0, maxTokens);
    const rounds = Math.max(1, opts.repeat ?? (opts.quick ? 1 : 3));
    type Figures = { ms: number; cpu: number; js: number };
    // per round, per row: ms per token
    const perRound: Figures[][] = [];
    let tokensOf = engines.map(() => 0);
    for (let round = 0; round < rounds; round++) {
      const total = engines.map(() => ({ tokens: 0, ms: 0, cpu: 0, js: 0 }));
      for (let seed = 1; seed <= seeds; seed++) {
        const shift = (seed - 1 + round) % engines.length;
        for (let k = 0; k < engines.length; k++) {
          const e = (k + shift) % engines.length;
          // the one-token run measures the prompt and setup, which are subtracted
          const c0 = process.cpuUsage();
          const j0 = jsThreadMs();
          const setup = await run(engines[e][0], seed, 1);
          const c1 = process.cpuUsage();
          const j1 = jsThreadMs();
          const r = await run(engines[e][0], seed, maxTokens);
          const c2 = process.cpuUsage();
          const j2 = jsThreadMs();
          total[e].tokens += r.tokens.length - 1;
          total[e].ms += r.elapsedMs - setup.elapsedMs;
          total[e].cpu += (micros(c2) - micros(c1) - (micros(c1) - micros(c0))) / 1000;
          total[e].js += j2 - j1 - (j1 - j0);
        }
      }
      tokensOf = total.map((t) => t.tokens);
      perRound.push(total.map((t) => ({ ms: t.ms / t.tokens, cpu: t.cpu / t.tokens, js: t.js / t.tokens })));
    }
    const median = (xs: number[]): number => {
      const s = [...xs].sort((a, b) => a - b);
      return s.length % 2 === 1 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    };
    const figure = (e: number, f: keyof Figures): number => median(perRound.map((r) => r[e][f]));
    const overhead = (e: number, f: keyof Figures): number => median(perRound.map((r) => r[e][f] - r[0][f]));
    const pct = (e: number, f: keyof Figures): number =>
      median(perRound.map((r) => (r[e][f] - r[0][f]) / r[0][f])) * 100;
    const spread = (e: number, f: keyof Figures): string => {
      if (rounds < 2) return "";
      const xs = perRound.map((r) => ((r[e][f] - r[0][f]) / r[0][f]) * 100);
      return ` (${Math.min(...xs).toFixed(0)}…${Math.max(...xs).toFixed(0)})`;
    };
    const signed = (x: number): string => `${x >= 0 ? "+" : "−"}${Math.abs(x).toFixed(2)}`;
    const hasJs = Number.isFinite(jsThreadMs());
    const rows = engines.map(([engine, label], e) => ({ engine, label, tokens: tokensOf[e], per: figure(e, "ms") }));
    const lines = [
      `tiny Qwen3 (random weights), weather tools, toolChoice "required", temperature 1, top-k 40, repeat penalty 1.5, ${seeds} seeds × ≤ ${maxTokens} tokens, 1 thread, ${rounds} round${rounds > 1 ? "s: medians over the rounds, overheads the median of each round's difference from the unconstrained row (min…max over the rounds in brackets)" : ""}`,
      "",
      `| decoding | tokens | tok/s | ms/token | grammar overhead ms/token | overhead % | CPU ms/token | CPU overhead % |${hasJs ? " JS thread CPU ms/token | JS thread overhead ms/token |" : ""}`,
      `|---|---:|---:|---:|---:|---:|---:|---:|${hasJs ? "---:|---:|" : ""}`,
    ];
    rows.forEach((r, e) => {
      const none = e === 0;
      const over = none ? "—" : signed(overhead(e, "ms"));
      const wallPct = none ? "—" : `${pct(e, "ms").toFixed(0)} %${spread(e, "ms")}`;
      const cpuPct = none ? "—" : `${pct(e, "cpu").toFixed(0)} %${spread(e, "cpu")}`;
      const js = hasJs ? ` ${figure(e, "js").toFixed(2)} | ${none ? "—" : signed(overhead(e, "js"))} |` : "";
      lines.push(
        `| ${r.label} | ${r.tokens} | ${(1000 / r.per).toFixed(0)} | ${r.per.toFixed(2)} | ${over} | ${wallPct} | ${figure(e, "cpu").toFixed(2)} | ${cpuPct} |${js}`,
      );
    });
    return { table: lines.join("\n"), rows: rows.map((r) => ({ label: r.label, tokensPerSecond: 1000 / r.per })) };
  } finally {
    await model.dispose();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const at = args.indexOf("--repeat");
  const rows = args
    .find((a) => a.startsWith("--rows="))
    ?.slice("--rows=".length)
    .split(",");
  const r = await runLlamaBench({
    quick: args.includes("--quick"),
    ...(at >= 0 ? { repeat: Number(args[at + 1]) } : {}),
    ...(rows === undefined ? {} : { rows }),
  });
  console.log(r.table);
}
