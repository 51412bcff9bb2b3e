import type { LlamaContextSequence, LlamaModel } from "node-llama-cpp";

/** Options shared by the in-process generators. */
export interface GenerateOptions {
  /** A model loaded with node-llama-cpp (see `loadLlamaModel`). */
  readonly model: LlamaModel;
  /** Prompt text (special tokens such as `<|im_start|>` are recognized) or token ids. */
  readonly prompt: string | readonly number[];
  /** Most tokens to generate; reaching it ends with finish reason `length`. @defaultValue 256 */
  readonly maxTokens?: number;
  /** Sampling temperature; 0 is greedy. @defaultValue 0 */
  readonly temperature?: number;
  /** Seed for sampling when temperature > 0. @defaultValue 0 */
  readonly seed?: number;
  /** Keep only the k most likely tokens before sampling (0 = all). @defaultValue 40 (node-llama-cpp's default) */
  readonly topK?: number;
  /** Nucleus sampling threshold (1 = off). @defaultValue 0.95 (node-llama-cpp's default) */
  readonly topP?: number;
  /**
   * Penalty on recently generated tokens (node-llama-cpp's `repeatPenalty`). A small random-weight model repeats
   * its last token forever; a penalty makes it move on, so that strings close. @defaultValue off
   */
  readonly repeatPenalty?: { readonly penalty: number; readonly lastTokens?: number };
  /** CPU threads for this generation's context. @defaultValue 1 (faster than 2 on small machines) */
  readonly threads?: number;
  /** Context size; must hold prompt + output. @defaultValue 4096, capped at the model's training context */
  readonly contextSize?: number;
  /** Generate on this sequence instead of creating a context (its history is cleared first, unless `keepPrefix`). */
  readonly sequence?: LlamaContextSequence;
  /**
   * With `sequence`: keep the evaluated tokens the prompt starts with instead of clearing them (prefix caching), so
   * a conversation that replays its earlier turns byte for byte evaluates only what is new. The result's
   * `cachedTokens` counts the prompt tokens reused. @defaultValue false
   */
  readonly keepPrefix?: boolean;
  /**
   * End-of-generation tokens that are text of the output, not its end: a format's closing marker that llama.cpp
   * also counts as an end (harmony's `<|call|>`; `formatEogTokens`). Where the constraint allows one as a token of
   * the output, it is kept (in `tokens` and `text`) and generation goes on; anywhere else it ends generation as any
   * end token does. @defaultValue none
   */
  readonly keepEog?: readonly number[];
  /** Called with each generated token id as soon as it is chosen (sampled or forced), in order. */
  readonly onToken?: (token: number) => void;
  /** Stops generating at the next step once aborted; the result holds what was generated until then. */
  readonly signal?: AbortSignal;
}

/** Why a generation stopped: `stop` (the model or the grammar ended it) or `length` (the token budget ran out). */
export type FinishReason = "stop" | "length";

/** The outcome of one constrained generation: text, finish reason and token counts. */
export interface GenerateResult {
  /** The generated text (the end-of-generation token left out, kept `keepEog` tokens in). */
  readonly text: string;
  /** Generated token ids, without the end-of-generation token. */
  readonly tokens: readonly number[];
  /** "stop": the model (or the constraint) ended the output; "length": maxTokens was reached. */
  readonly finishReason: FinishReason;
  /** Tokens of the prompt, cached ones included. */
  readonly promptTokens: number;
  /** Prompt tokens whose evaluation was reused from the sequence (`keepPrefix`); 0 otherwise. */
  readonly cachedTokens: number;
  /** Milliseconds spent generating (prompt evaluation included). */
  readonly elapsedMs: number;
  /** Generated tokens per second of `elapsedMs` (so prompt evaluation included). */
  readonly tokensPerSecond: number;
}
