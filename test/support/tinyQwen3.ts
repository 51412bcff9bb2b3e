import type { LlamaModel } from "node-llama-cpp";
import { buildTinyModel, tinyModelPath, type TinyModel } from "../../src/gguf/buildTinyModel.js";
import { loadLlamaModel } from "../../src/llama-cpp/loadNodeLlamaCpp.js";

let built: Promise<TinyModel> | undefined;
let loaded: Promise<LlamaModel> | undefined;

/**
 * The tiny Qwen3 model (seed 0, at its default path) that tests run llama.cpp on, built once per test process: the
 * quick tier's files share their worker processes (vitest.config.ts), and each build writes 25 MB of random weights.
 * The builder itself is tested by test/gguf/buildTinyModel.test.ts, and the llama.cpp docs' example (test/llama-cpp/readmeExamples.long.test.ts) builds its own.
 */
export function tinyQwen3(): Promise<TinyModel> {
  built ??= buildTinyModel({ seed: 0, outPath: tinyModelPath(0) }).catch((error: unknown) => {
    built = undefined;
    throw error;
  });
  return built;
}

/**
 * The tiny Qwen3 model loaded in node-llama-cpp, once per test process for the same reason: a load costs seconds and
 * the model is only read (each test makes its own contexts). Never disposed by a test file: the process's exit frees it.
 */
export function tinyQwen3Model(): Promise<LlamaModel> {
  loaded ??= tinyQwen3()
    .then((tiny) => loadLlamaModel(tiny.path))
    .catch((error: unknown) => {
      loaded = undefined;
      throw error;
    });
  return loaded;
}
