import type { CallIdForm } from "../formats/FormatDescription.js";
import type { ModelChat, PromptMessage } from "../prompt/ModelChat.js";
import type { ChatMessage } from "../prompt/qwen3ChatPrompt.js";
import { callIdFormOf, fitCallId } from "./callIds.js";
import type { RequestMessage } from "./ChatRequest.js";
import type { ReplayStore } from "./ReplayStore.js";

/** How the messages go to the model's prompt: its renderer and the shape of its format's call ids. */
export interface MessageTarget {
  readonly promptSource: ModelChat["promptSource"];
  /** The format's call ids (Mistral's 9 alphanumerics), which client ids are fitted to; undefined: any id. */
  readonly idForm: CallIdForm | undefined;
}

/** The target of `chat`'s prompts. */
export function messageTarget(chat: Pick<ModelChat, "promptSource" | "format">): MessageTarget {
  return { promptSource: chat.promptSource, idForm: callIdFormOf(chat.format) };
}

/**
 * The request's messages as the renderer takes them. An assistant turn this server produced comes back with its
 * calls' minted ids and `function.arguments` as the exact text sampled, so the template re-renders it byte for byte;
 * a turn that would not re-render exactly is spliced in from the replay store.
 *
 * A chat template gets the messages as llama.cpp's common_chat gives them (`common_chat_msg::to_json_oaicompat`): an
 * assistant turn without content has `content: ""` (not null), and a tool result keeps its `tool_call_id` (and
 * `name`, when the client sent one). Call ids of another shape than the format's (an OpenAI `call_…` id sent to a
 * Mistral template, which requires 9 alphanumerics) are fitted to it, the same id to the same fitted id in a call and
 * in its result (fitCallId).
 */
export function promptMessages(
  messages: readonly RequestMessage[],
  store: ReplayStore,
  target: MessageTarget,
): PromptMessage[] {
  return messages.map((m): PromptMessage => {
    if (m.role === "assistant" && m.tool_calls !== undefined) {
      const message = assistantMessage(
        { role: "assistant", content: m.content, tool_calls: m.tool_calls, ...reasoningOf(m) },
        target,
      );
      const verbatim = store.recall(m.content, m.tool_calls);
      return verbatim === undefined ? message : { role: "assistant", verbatim, message };
    }
    if (m.role === "tool")
      return {
        role: "tool",
        content: m.content,
        ...(m.tool_call_id === undefined ? {} : { tool_call_id: fitCallId(m.tool_call_id, target.idForm) }),
        ...(m.name === undefined ? {} : { name: m.name }),
      };
    if (m.role === "assistant")
      return assistantMessage({ role: "assistant", content: m.content, ...reasoningOf(m) }, target);
    const plain: ChatMessage = { role: m.role, content: m.content, ...reasoningOf(m) };
    return plain;
  });
}

/**
 * An assistant message as the prompt's renderer takes it: for a chat template, empty content as "" and call ids
 * fitted to the format's (see promptMessages); toolgram's Qwen3 renderer takes it as it is. The server checks
 * whether a generated turn re-renders exactly with the same message, so the check and the replay agree.
 */
export function assistantMessage(m: ChatMessage, target: MessageTarget): ChatMessage {
  if (target.promptSource !== "chat-template") return m;
  const calls = m.tool_calls?.map((c) => (c.id === undefined ? c : { ...c, id: fitCallId(c.id, target.idForm) }));
  return { ...m, content: m.content ?? "", ...(calls === undefined ? {} : { tool_calls: calls }) };
}

function reasoningOf(m: RequestMessage): { reasoning_content?: string } {
  return m.reasoning_content === undefined ? {} : { reasoning_content: m.reasoning_content };
}
