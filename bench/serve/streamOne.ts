import type OpenAI from "openai";

/** What one streamed request returned, as the client saw it. */
export interface StreamOutcome {
  /** The HTTP status and message of an error answer or a failed stream; absent when the stream completed. */
  readonly error?: string;
  readonly calls: Array<{ name: string; arguments: string }>;
  readonly content: string;
  readonly finishReason?: string;
  readonly promptTokens?: number;
  readonly completionTokens?: number;
  /** Milliseconds from sending the request to the first chunk carrying text, reasoning or a call. */
  readonly ttftMs?: number;
  /** Milliseconds from that first chunk to the end of the stream. */
  readonly decodeMs?: number;
  /** Milliseconds from sending the request to the end of the stream (llama-server may stream nothing before it). */
  readonly totalMs?: number;
}

type Delta = OpenAI.Chat.Completions.ChatCompletionChunk.Choice.Delta & { reasoning_content?: string | null };

/** A delta that carries something generated (the first chunk of many servers carries the role alone). */
function carriesOutput(delta: Delta | undefined): boolean {
  if (delta === undefined) return false;
  return Boolean(delta.content) || Boolean(delta.reasoning_content) || (delta.tool_calls?.length ?? 0) > 0;
}

/**
 * Sends one streamed chat completion with `stream_options.include_usage` and folds the deltas into calls: a delta
 * with an `id` opens call `index`, later deltas of that index append argument text (OpenAI's streaming shape).
 */
export async function streamOne(client: OpenAI, body: Record<string, unknown>): Promise<StreamOutcome> {
  const calls: Array<{ name: string; arguments: string }> = [];
  let content = "";
  let finishReason: string | undefined;
  let usage: OpenAI.CompletionUsage | undefined;
  let first: number | undefined;
  const started = performance.now();
  try {
    const stream = await client.chat.completions.create({
      ...(body as unknown as OpenAI.Chat.ChatCompletionCreateParamsStreaming),
      stream: true,
      stream_options: { include_usage: true },
    });
    for await (const chunk of stream) {
      if (chunk.usage) usage = chunk.usage;
      const choice = chunk.choices[0];
      if (choice === undefined) continue;
      const delta = choice.delta as Delta;
      if (first === undefined && carriesOutput(delta)) first = performance.now();
      content += delta.content ?? "";
      for (const d of delta.tool_calls ?? []) {
        const call = (calls[d.index] ??= { name: "", arguments: "" });
        call.name += d.function?.name ?? "";
        call.arguments += d.function?.arguments ?? "";
      }
      if (choice.finish_reason) finishReason = choice.finish_reason;
    }
  } catch (error) {
    const status = (error as { status?: number }).status;
    const message = error instanceof Error ? error.message : String(error);
    return { error: `${status === undefined ? "" : `HTTP ${status}: `}${message}`.slice(0, 300), calls, content };
  }
  const ended = performance.now();
  return {
    calls: calls.filter((c) => c !== undefined),
    content,
    finishReason,
    promptTokens: usage?.prompt_tokens,
    completionTokens: usage?.completion_tokens,
    ttftMs: first === undefined ? undefined : first - started,
    decodeMs: first === undefined ? undefined : ended - first,
    totalMs: ended - started,
  };
}
