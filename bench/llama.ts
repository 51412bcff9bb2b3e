/**
 * Decoding speed of the tiny random-weight Qwen3 model in llama.cpp (node-llama-cpp, one thread): unconstrained,
 * under llama.cpp's grammar sampler with toolgram's GBNF, and under toolgram's token matcher (masks applied through
 * node-llama-cpp's token bias, jump-forward off so that every token is sampled). The grammar's cost per token is the
 * difference from the unconstrained step. The tiny model's own step is ≈ 2 ms, far below a real model's, so the
 * overhead percentages are upper bounds of what a real model sees.
 *
 * The engines take turns seed by seed (a shared machine's load drifts; interleaving spreads it over all rows). With
 * `repeat`, each row is the median over the repeats of its ms per token. CPU time (process-wide, so llama.cpp's worker
 * thread included) is reported beside wall time: a busy machine stretches wall time but hardly the CPU time of a
 * step; overlapping the mask with the forward pass saves wall time, not CPU time.
 *
 * Alone: `npx tsx bench/llama.ts [--quick] [--repeat N]`.
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

export async function runLlamaBench(opts: { quick: boolean; repeat?: number }): Promise<{ table: string; rows: { label: string; tokensPerSecond: number }[] }> {
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
    type Engine = GenerationEngine | "controlled" | "serial";
    const run = (engine: Engine, seed: number, n: number): Promise<GenerateResult> => {
      const common = { model, prompt, maxTokens: n, seed, temperature: 1, ...sampling };
      if (engine === "matcher" || engine === "serial") {
        return generateWithMask({ ...common, matcher: compiled.createMatcher(vocab), jumpForward: false, overlapMasks: engine === "matcher" });
      }
      if (engine === "controlled") return generateWithMask({ ...common, matcher: allowAll });
      return generateWithGbnf({ ...common, gbnf: engine === "gbnf" ? compiled.toGbnf() : undefined });
    };
    const engines = [
      ["none", "unconstrained"],
      ["gbnf", "llama.cpp grammar (toolgram GBNF)"],
      ["controlled", "mask path, every ordinary token allowed (no toolgram work; a sampled end is resampled)"],
      ["serial", "toolgram matcher, mask computed after the forward pass"],
      ["matcher", "toolgram matcher (masks + token budget, computed during the forward pass)"],
    ] as const;
    // warm-up: the matcher's mask table, its token biases and llama.cpp's grammar are built on first use
    for (const [engine] of engines) await run(engine, 0, 4);
    const repeat = Math.max(1, opts.repeat ?? 1);
    const runs = engines.map(() => ({ tokens: 0, ms: [] as number[], cpu: [] as number[] }));
    for (let rep = 0; rep < repeat; rep++) {
      const total = engines.map(() => ({ tokens: 0, ms: 0, cpu: 0 }));
      for (let seed = 1; seed <= seeds; seed++) {
        for (let e = 0; e < engines.length; e++) {
          // the one-token run measures the prompt and setup, which are subtracted
          const micros = (u: NodeJS.CpuUsage): number => u.user + u.system;
          const cpuSetup = process.cpuUsage();
          const setup = await run(engines[e][0], seed, 1);
          const setupCpu = micros(process.cpuUsage(cpuSetup));
          const cpuRun = process.cpuUsage();
          const r = await run(engines[e][0], seed, maxTokens);
          const runCpu = micros(process.cpuUsage(cpuRun));
          total[e].tokens += r.tokens.length - 1;
          total[e].ms += r.elapsedMs - setup.elapsedMs;
          total[e].cpu += (runCpu - setupCpu) / 1000;
        }
      }
      total.forEach((t, e) => {
        runs[e].tokens = t.tokens;
        runs[e].ms.push(t.ms / t.tokens);
        runs[e].cpu.push(t.cpu / t.tokens);
      });
    }
    const median = (xs: number[]): number => {
      const s = [...xs].sort((a, b) => a - b);
      return s.length % 2 === 1 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    };
    const rows = engines.map(([engine, label], e) => ({ engine, label, tokens: runs[e].tokens, per: median(runs[e].ms), cpu: median(runs[e].cpu) }));
    const base = rows[0];
    const lines = [
      `tiny Qwen3 (random weights), weather tools, toolChoice "required", temperature 1, top-k 40, repeat penalty 1.5, ${seeds} seeds × ≤ ${maxTokens} tokens, 1 thread${repeat > 1 ? `, median of ${repeat} interleaved repeats` : ""}`,
      "",
      "| decoding | tokens | tok/s | ms/token | grammar overhead ms/token | overhead % | CPU ms/token | CPU overhead % |",
      "|---|---:|---:|---:|---:|---:|---:|---:|",
    ];
    for (const r of rows) {
      const none = r.engine === "none";
      const over = none ? "—" : (r.per - base.per).toFixed(2);
      const pct = none ? "—" : `${(((r.per - base.per) / base.per) * 100).toFixed(0)} %`;
      const cpuPct = none ? "—" : `${(((r.cpu - base.cpu) / base.cpu) * 100).toFixed(0)} %`;
      lines.push(`| ${r.label} | ${r.tokens} | ${(1000 / r.per).toFixed(0)} | ${r.per.toFixed(2)} | ${over} | ${pct} | ${r.cpu.toFixed(2)} | ${cpuPct} |`);
    }
    return { table: lines.join("\n"), rows: rows.map((r) => ({ label: r.label, tokensPerSecond: 1000 / r.per })) };
  } finally {
    await model.dispose();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const at = args.indexOf("--repeat");
  const r = await runLlamaBench({ quick: args.includes("--quick"), repeat: at >= 0 ? Number(args[at + 1]) : 1 });
  console.log(r.table);
}
