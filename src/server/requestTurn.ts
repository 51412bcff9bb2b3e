import { describeFormat } from "../formats/describeFormat.js";
import type { ModelChat, ModelTurnOptions } from "../prompt/ModelChat.js";
import { badRequest } from "./ApiError.js";
import type { ChatRequest } from "./ChatRequest.js";

/** The turn a request asks for: the grammar's format and reasoning, and the template's `enable_thinking`. */
export interface RequestTurn {
  readonly turn: ModelTurnOptions;
  readonly enableThinking: boolean | undefined;
}

/**
 * The model's turn options under the request's `reasoning_mode`. Absent: the template's own (a generation prompt
 * that opens the block makes it required). `none`: the prompt is rendered with `enable_thinking: false`, which
 * Qwen3's template answers with an empty block; a template whose generation prompt opens the block whatever it is
 * told cannot skip it (400). `optional` / `required`: the block in the template's markers, or the format's own.
 */
export function requestTurn(
  chat: ModelChat,
  request: Pick<ChatRequest, "reasoningMode">,
  render: RenderProbe,
): RequestTurn {
  const mode = request.reasoningMode;
  const base: ModelTurnOptions = {
    format: chat.format,
    reasoning: chat.reasoning,
    ...(chat.reasoningMarkers === undefined ? {} : { reasoningMarkers: chat.reasoningMarkers }),
  };
  if (mode === undefined) return { turn: base, enableThinking: undefined };
  // the generation prompt itself opens the block (the turn starts inside it)
  const opened = chat.reasoning === "required" && chat.reasoningMarkers?.open === "";
  if (mode === "none") {
    if (opened && render(false) === render(undefined))
      throw badRequest(
        "reasoning_mode none is not possible with this model: its chat template opens the reasoning block whatever enable_thinking says.",
        "reasoning_mode",
        "unsupported_value",
      );
    return { turn: { format: chat.format, reasoning: "none" }, enableThinking: false };
  }
  if (chat.reasoningMarkers === undefined && describeFormat(chat.format).reasoning === null)
    throw badRequest(
      `reasoning_mode ${mode} is not possible with this model: its ${chat.format} format has no reasoning block.`,
      "reasoning_mode",
      "unsupported_value",
    );
  return { turn: { ...base, reasoning: opened ? "required" : mode }, enableThinking: true };
}

/** The request's prompt rendered with `enable_thinking` set as given (undefined: the template's default). */
export type RenderProbe = (enableThinking: boolean | undefined) => string;
