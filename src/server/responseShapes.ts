import type { AssembledTurn, Delta } from "./TurnAssembler.js";

export type FinishReason = "stop" | "length" | "tool_calls";

export interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  prompt_tokens_details: { cached_tokens: number };
}

export function usageOf(promptTokens: number, completionTokens: number, cachedTokens: number): Usage {
  return {
    prompt_tokens: promptTokens,
    completion_tokens: completionTokens,
    total_tokens: promptTokens + completionTokens,
    prompt_tokens_details: { cached_tokens: cachedTokens },
  };
}

/** Identity of one completion, shared by its response or all its chunks. */
export interface CompletionIdentity {
  readonly id: string;
  readonly created: number;
  readonly model: string;
}

/** A `chat.completion` object, exactly as OpenAI's API shapes it. */
export function completionBody(
  who: CompletionIdentity,
  turn: AssembledTurn,
  finishReason: FinishReason,
  usage: Usage,
): object {
  const calls = turn.calls.map((c) => ({
    id: c.id,
    type: "function",
    function: { name: c.name, arguments: c.arguments },
  }));
  return {
    id: who.id,
    object: "chat.completion",
    created: who.created,
    model: who.model,
    choices: [
      {
        index: 0,
        message: {
          role: "assistant",
          content: calls.length > 0 && turn.content === "" ? null : turn.content,
          refusal: null,
          ...(turn.reasoning === "" ? {} : { reasoning_content: turn.reasoning }),
          ...(calls.length > 0 ? { tool_calls: calls } : {}),
        },
        logprobs: null,
        finish_reason: finishReason,
      },
    ],
    usage,
    system_fingerprint: null,
  };
}

/** A `chat.completion.chunk`: one delta, or the finish, or (choices empty) the usage. */
export function chunkBody(
  who: CompletionIdentity,
  delta: Delta | { role: "assistant"; content: string } | Record<string, never>,
  finishReason: FinishReason | null,
  includeUsage: boolean,
): object {
  return {
    id: who.id,
    object: "chat.completion.chunk",
    created: who.created,
    model: who.model,
    system_fingerprint: null,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
    ...(includeUsage ? { usage: null } : {}),
  };
}

export function usageChunkBody(who: CompletionIdentity, usage: Usage): object {
  return {
    id: who.id,
    object: "chat.completion.chunk",
    created: who.created,
    model: who.model,
    system_fingerprint: null,
    choices: [],
    usage,
  };
}

export function finishReasonOf(turn: AssembledTurn, engineFinish: "stop" | "length", stopped: boolean): FinishReason {
  if (engineFinish === "length" && !stopped) return "length";
  return turn.calls.length > 0 ? "tool_calls" : "stop";
}
