/**
 * Decoding speed of the tiny random-weight Qwen3 model in llama.cpp (node-llama-cpp, one thread): unconstrained,
 * under llama.cpp's grammar sampler with toolgram's GBNF, and under toolgram's token matcher (masks applied through
 * node-llama-cpp's token bias, jump-forward off so that every token is sampled). The grammar's cost per token is the
 * difference from the unconstrained step. The tiny model's own step is ≈ 2 ms, far below a real model's, so the
 * overhead percentages are upper bounds of what a real model sees.
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

export async function runLlamaBench(opts: { quick: boolean }): Promise<{ table: string; rows: { label: string; tokensPerSecond: number }[] }> {
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
    // A "mask" that allows every ordinary token: the cost of driving node-llama-cpp step by step, without toolgram.
    const words = Math.ceil(vocab.size / 32);
    const allowAll = {
      fillNextTokenBitmask(bits: Uint32Array): void {
        bits.fill(0xffffffff, 0, words);
        for (const e of vocab.eosTokenIds) bits[e >>> 5] &= ~(1 << (e & 31));
      },
      acceptToken: (): boolean => true,
      isCompleted: (): boolean => false,
    };
    type Engine = GenerationEngine | "controlled";
    const run = (engine: Engine, seed: number, n: number): Promise<GenerateResult> => {
      const common = { model, prompt, maxTokens: n, seed, temperature: 1, ...sampling };
      if (engine === "matcher") return generateWithMask({ ...common, matcher: compiled.createMatcher(vocab), jumpForward: false });
      if (engine === "controlled") return generateWithMask({ ...common, matcher: allowAll });
      return generateWithGbnf({ ...common, gbnf: engine === "gbnf" ? compiled.toGbnf() : undefined });
    };
    const rows: Array<{ engine: Engine; label: string; tokens: number; ms: number }> = [];
    for (const [engine, label] of [
      ["none", "unconstrained"],
      ["gbnf", "llama.cpp grammar (toolgram GBNF)"],
      ["controlled", "node-llama-cpp step by step, no mask (binding cost)"],
      ["matcher", "toolgram matcher (masks + token budget)"],
    ] as const) {
      // warm-up: the matcher's mask table and llama.cpp's grammar are built on first use
      await run(engine, 0, 4);
      let tokens = 0;
      let ms = 0;
      for (let seed = 1; seed <= seeds; seed++) {
        // the one-token run measures the prompt and setup, which are subtracted
        const setup = await run(engine, seed, 1);
        const r = await run(engine, seed, maxTokens);
        tokens += r.tokens.length - 1;
        ms += r.elapsedMs - setup.elapsedMs;
      }
      rows.push({ engine, label, tokens, ms });
    }
    const base = rows[0].ms / rows[0].tokens;
    const lines = [
      `tiny Qwen3 (random weights), weather tools, toolChoice "required", temperature 1, top-k 40, repeat penalty 1.5, ${seeds} seeds × ≤ ${maxTokens} tokens, 1 thread`,
      "",
      "| decoding | tokens | tok/s | ms/token | grammar overhead ms/token | overhead % |",
      "|---|---:|---:|---:|---:|---:|",
    ];
    for (const r of rows) {
      const per = r.ms / r.tokens;
      const over = r.engine === "none" ? "—" : (per - base).toFixed(2);
      const pct = r.engine === "none" ? "—" : `${(((per - base) / base) * 100).toFixed(0)} %`;
      lines.push(`| ${r.label} | ${r.tokens} | ${(r.tokens / (r.ms / 1000)).toFixed(0)} | ${per.toFixed(2)} | ${over} | ${pct} |`);
    }
    return { table: lines.join("\n"), rows: rows.map((r) => ({ label: r.label, tokensPerSecond: r.tokens / (r.ms / 1000) })) };
  } finally {
    await model.dispose();
  }
}
