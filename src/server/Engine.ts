import type { CompiledGrammar } from "../CompiledGrammar.js";

/** One generation, as the HTTP layer asks an engine for it. */
export interface EngineRequest {
  /** The rendered prompt (special tokens spelled as text). */
  readonly prompt: string;
  /** The grammar of the turn; undefined = unconstrained. */
  readonly grammar: CompiledGrammar | undefined;
  /** The tool-call format the grammar writes (its closing markers that are end tokens are kept, harmony's `<|call|>`). */
  readonly format: string;
  /** The token budget: a constrained turn is finished within it where the engine can steer (in process). */
  readonly maxTokens: number;
  /** The budget is the server's default, not the client's: shrink it to what the context has left. */
  readonly fitBudgetToContext: boolean;
  readonly temperature: number;
  readonly topP: number | undefined;
  readonly seed: number;
  /** Aborted when the client goes away, the deadline passes or a stop sequence is reached. */
  readonly signal: AbortSignal;
  /**
   * Called once the prompt is known to fit and before its evaluation starts (in process): the turn's strict parser
   * starts compiling then, overlapping the prefill, and not at all for a request refused for its length. An engine
   * that does not call it leaves that to the first generated text.
   */
  readonly onAdmitted?: () => void;
  /** Receives the generated text in order, in whole characters. */
  readonly onText: (delta: string) => void;
}

export interface EngineResult {
  /** "length": the budget ran out; "stop": the model or the constraint ended the turn (or it was aborted). */
  readonly finishReason: "stop" | "length";
  readonly promptTokens: number;
  readonly completionTokens: number;
  /** Prompt tokens whose evaluation was reused from an earlier request (KV-cache prefix). */
  readonly cachedTokens: number;
  /** Milliseconds spent computing token masks (in process), for /metrics. */
  readonly maskMs: number;
  /** Each mask's time in milliseconds, in order (in process; empty elsewhere), for /metrics and the log. */
  readonly maskTimes: readonly number[];
}

/** What serves generations: node-llama-cpp in process, or a llama-server upstream. */
export interface Engine {
  /** The model id `/v1/models` lists. */
  readonly modelId: string;
  /** Generations that can run at once (`--parallel`). */
  readonly slots: number;
  /** "in-process" or "upstream", for /health. */
  readonly kind: string;
  /** The model's own chat template, when the engine can read it (it picks the server's prompt, serverChatFor). */
  readonly chatTemplate: string | undefined;
  /** The texts of the model's BOS and EOS tokens, which some templates write. */
  readonly tokenTexts: { readonly bosToken?: string; readonly eosToken?: string };
  generate(request: EngineRequest): Promise<EngineResult>;
  /** Whether the engine can serve (upstream: llama-server answers /health). */
  healthy(): Promise<boolean>;
  close(): Promise<void>;
}

/** The upstream failed (unreachable, died mid-stream, answered an error): a 502 for the client. */
export class UpstreamError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "UpstreamError";
  }
}
