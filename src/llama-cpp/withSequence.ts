import type { LlamaContextSequence, LlamaModel, Token } from "node-llama-cpp";
import type { GenerateOptions } from "./generationTypes.js";

/** The part of the prompt a sequence must still evaluate, and how many of its tokens were already evaluated. */
export interface PromptPlan {
  readonly rest: Token[];
  readonly cachedTokens: number;
}

/**
 * Runs `body` on the caller's sequence or on a fresh context that is disposed afterwards. The caller's sequence is
 * cleared, or with `keepPrefix` cut back to the longest prefix it shares with `input` (at least the last prompt token
 * is evaluated again, since its logits choose the first output token); `body` evaluates `plan.rest`.
 */
export async function withSequence<T>(
  options: GenerateOptions,
  body: (sequence: LlamaContextSequence, plan: PromptPlan) => Promise<T>,
  input?: Token[],
): Promise<T> {
  const all = input ?? [];
  if (options.sequence !== undefined) {
    const sequence = options.sequence;
    if (options.keepPrefix === true && all.length > 0) {
      const shared = Math.min(sequence.compareContextTokens(all).firstDifferentIndex, all.length - 1);
      if (shared < sequence.nextTokenIndex)
        await sequence.eraseContextTokenRanges([{ start: shared, end: sequence.nextTokenIndex }]);
      return body(sequence, { rest: all.slice(shared), cachedTokens: shared });
    }
    await sequence.clearHistory();
    return body(sequence, { rest: all, cachedTokens: 0 });
  }
  const model: LlamaModel = options.model;
  const contextSize = options.contextSize ?? Math.min(4096, model.trainContextSize);
  const context = await model.createContext({ contextSize, threads: options.threads ?? 1, sequences: 1 });
  try {
    return await body(context.getSequence(), { rest: all, cachedTokens: 0 });
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
export function samplingOptions(
  options: Pick<GenerateOptions, "topK" | "topP" | "repeatPenalty">,
  generated: readonly Token[],
): {
  topK?: number;
  topP?: number;
  repeatPenalty?: { penalty: number; punishTokens: () => Token[] };
} {
  const rp = options.repeatPenalty;
  return {
    ...(options.topK === undefined ? {} : { topK: options.topK }),
    ...(options.topP === undefined ? {} : { topP: options.topP }),
    ...(rp === undefined
      ? {}
      : { repeatPenalty: { penalty: rp.penalty, punishTokens: () => generated.slice(-(rp.lastTokens ?? 64)) } }),
  };
}
