import type { JsonObject } from "../json.js";

/** One message of the conversation, as the prompt renderers take it. */
export interface RequestMessage {
  readonly role: "system" | "user" | "assistant" | "tool";
  readonly content: string | null;
  /** Assistant turns: the calls it made, `arguments` as the JSON text the client sent back. */
  readonly tool_calls?: ReadonlyArray<{
    readonly id: string;
    readonly type: "function";
    readonly function: { readonly name: string; readonly arguments: string };
  }>;
  /** Assistant turns: the reasoning the client sends back (the template keeps or drops it). */
  readonly reasoning_content?: string;
  /** Tool results: the call they answer. */
  readonly tool_call_id?: string;
  /** Tool results: the tool's name, when the client sends it. */
  readonly name?: string;
}

/** `response_format`, read. */
export type ResponseFormat =
  | { readonly type: "text" }
  | { readonly type: "json_object" }
  | { readonly type: "json_schema"; readonly name: string; readonly schema: JsonObject; readonly strict: boolean };

/** A validated `POST /v1/chat/completions` body. */
export interface ChatRequest {
  readonly model: string;
  readonly messages: readonly RequestMessage[];
  /** The declared tools (`type: "function"` entries), in the request's order; empty when none. */
  readonly tools: readonly JsonObject[];
  /** Tool names the model may call this turn (the declared ones, or `allowed_tools`' subset). */
  readonly callable: readonly string[];
  /** `auto`, `required`, `none`, or the name of the one tool to call. */
  readonly toolChoice: "auto" | "required" | "none" | { readonly name: string };
  readonly parallelToolCalls: boolean;
  readonly responseFormat: ResponseFormat;
  /** `max_completion_tokens` ?? `max_tokens`: the token budget within which the turn is finished. */
  readonly maxTokens: number | undefined;
  readonly temperature: number | undefined;
  readonly topP: number | undefined;
  readonly seed: number | undefined;
  readonly stop: readonly string[];
  readonly stream: boolean;
  /** `reasoning_effort`, passed to the template's variable of that name (gpt-oss). */
  readonly reasoningEffort: string | undefined;
  /** `reasoning_mode`: whether the turn opens with a reasoning block; the template's default when absent. */
  readonly reasoningMode: "none" | "optional" | "required" | undefined;
  readonly includeUsage: boolean;
}
