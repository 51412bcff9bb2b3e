import type { LlamaContextSequence, LlamaModel, Token } from "node-llama-cpp";
import type { GenerateOptions } from "./generationTypes.js";

/** Runs `body` on the caller's sequence (history cleared) or on a fresh context that is disposed afterwards. */
export async function withSequence<T>(options: GenerateOptions, body: (sequence: LlamaContextSequence) => Promise<T>): Promise<T> {
  if (options.sequence !== undefined) {
    await options.sequence.clearHistory();
    return body(options.sequence);
  }
  const model: LlamaModel = options.model;
  const contextSize = options.contextSize ?? Math.min(4096, model.trainContextSize);
  const context = await model.createContext({ contextSize, threads: options.threads ?? 1, sequences: 1 });
  try {
    return await body(context.getSequence());
  } finally {
    await context.dispose();
  }
}

/** node-llama-cpp brands token ids; toolgram passes plain numbers. */
export function asTokens(ids: readonly number[]): Token[] {
  return ids as Token[];
}

export function promptTokens(model: LlamaModel, prompt: string | readonly number[]): Token[] {
  return typeof prompt === "string" ? model.tokenize(prompt, true) : asTokens([...prompt]);
}

/**
 * The optional sampler settings of `options`, in node-llama-cpp's shape (absent ones keep its defaults); the repeat
 * penalty punishes the last tokens of `generated`, read at each step.
 */
export function samplingOptions(options: Pick<GenerateOptions, "topK" | "topP" | "repeatPenalty">, generated: readonly Token[]): {
  topK?: number;
  topP?: number;
  repeatPenalty?: { penalty: number; punishTokens: () => Token[] };
} {
  const rp = options.repeatPenalty;
  return {
    ...(options.topK === undefined ? {} : { topK: options.topK }),
    ...(options.topP === undefined ? {} : { topP: options.topP }),
    ...(rp === undefined ? {} : { repeatPenalty: { penalty: rp.penalty, punishTokens: () => generated.slice(-(rp.lastTokens ?? 64)) } }),
  };
}
