import type { PromptMessage } from "../prompt/ModelChat.js";
import type { ChatMessage } from "../prompt/qwen3ChatPrompt.js";
import type { RequestMessage } from "./ChatRequest.js";
import type { ReplayStore } from "./ReplayStore.js";

/**
 * The request's messages as the renderer takes them. An assistant turn this server produced comes back with its
 * calls' minted ids and `function.arguments` as the exact text sampled, so the template re-renders it byte for byte;
 * a turn that would not re-render exactly is spliced in from the replay store.
 */
export function promptMessages(messages: readonly RequestMessage[], store: ReplayStore): PromptMessage[] {
  return messages.map((m): PromptMessage => {
    if (m.role === "assistant" && m.tool_calls !== undefined) {
      const message: ChatMessage = {
        role: "assistant",
        content: m.content,
        tool_calls: m.tool_calls,
        ...reasoningOf(m),
      };
      const verbatim = store.recall(m.content, m.tool_calls);
      return verbatim === undefined ? message : { role: "assistant", verbatim, message };
    }
    const plain: ChatMessage = { role: m.role, content: m.content, ...reasoningOf(m) };
    return plain;
  });
}

function reasoningOf(m: RequestMessage): { reasoning_content?: string } {
  return m.reasoning_content === undefined ? {} : { reasoning_content: m.reasoning_content };
}
