import { buildTinyModel, tinyModelPath, type TinyModel } from "../../src/gguf/buildTinyModel.js";

let built: Promise<TinyModel> | undefined;

/**
 * The tiny Qwen3 model (seed 0, at its default path) that tests run llama.cpp on, built once per test process: the
 * quick tier's files share their worker processes (vitest.config.ts), and each build writes 25 MB of random weights.
 * The builder itself is tested by test/gguf/buildTinyModel.test.ts, and the llama.cpp docs' example (test/llama-cpp/readmeExamples.test.ts) builds its own.
 */
export function tinyQwen3(): Promise<TinyModel> {
  built ??= buildTinyModel({ seed: 0, outPath: tinyModelPath(0) }).catch((error: unknown) => {
    built = undefined;
    throw error;
  });
  return built;
}
