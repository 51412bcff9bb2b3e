import { canonicalJson, isJsonObject, type JsonValue } from "../json.js";
import type {
  ChatTemplate,
  TemplateContentPart,
  TemplateMessage,
  TemplateToolCall,
} from "../templates/renderTemplate.js";
import type { ChatMessage, ChatToolCall } from "./qwen3ChatPrompt.js";

/** How call arguments go to the template: strings it writes verbatim stay strings (exact replay), else its kind. */
export interface ArgumentsPolicy {
  readonly as: "object" | "string";
  readonly verbatimStrings: boolean;
}

const VERBATIM_PROBE = '{"ZZ_ARG_ZZ":"QQ_VAL_QQ"}';

export function argumentsPolicy(chat: ChatTemplate, as: "object" | "string"): ArgumentsPolicy {
  let verbatimStrings = false;
  try {
    const text = chat.render({
      messages: [
        { role: "user", content: "U" },
        {
          role: "assistant",
          content: "",
          tool_calls: [
            { id: "call00001", type: "function", function: { name: "FFF_PROBE_F", arguments: VERBATIM_PROBE } },
          ],
        },
      ],
      tools: [
        {
          type: "function",
          function: {
            name: "FFF_PROBE_F",
            parameters: { type: "object", properties: { ZZ_ARG_ZZ: { type: "string" } } },
          },
        },
      ],
    });
    verbatimStrings = text.includes(VERBATIM_PROBE);
  } catch {
    verbatimStrings = false;
  }
  return { as, verbatimStrings };
}

function callArguments(
  args: string | Record<string, unknown>,
  policy: ArgumentsPolicy,
): string | Record<string, unknown> {
  if (typeof args === "string") {
    if (policy.verbatimStrings || policy.as === "string") return args;
    try {
      const parsed = JSON.parse(args) as unknown;
      return isJsonObject(parsed) ? parsed : args;
    } catch {
      return args;
    }
  }
  return policy.as === "string" ? canonicalJson(args as JsonValue) : args;
}

function callParts(call: ChatToolCall): { id?: string; name: string; arguments: string | Record<string, unknown> } {
  return "function" in call ? { ...(call.id === undefined ? {} : { id: call.id }), ...call.function } : call;
}

/** Call ids as the probes use them (nine characters: Mistral's templates insist). */
function callId(turn: number, k: number): string {
  return `call${String(turn * 10 + k + 1).padStart(5, "0")}`.slice(-9);
}

/**
 * The conversation as chat templates read it: reasoning in the field the template reads it from, calls with ids, and
 * each tool result with the id and name of the call it answers (in order, as OpenAI's API pairs them).
 */
export function templateMessages(
  messages: readonly ChatMessage[],
  policy: ArgumentsPolicy,
  field: string | undefined,
): TemplateMessage[] {
  const out: TemplateMessage[] = [];
  let pending: { id: string; name: string }[] = [];
  messages.forEach((m, i) => {
    if (m.role === "assistant") {
      const calls: TemplateToolCall[] = (m.tool_calls ?? []).map((c, k) => {
        const p = callParts(c);
        return {
          id: p.id ?? callId(i, k),
          type: "function",
          function: { name: p.name, arguments: callArguments(p.arguments, policy) },
        };
      });
      pending = calls.map((c) => ({ id: c.id, name: c.function.name }));
      const reasoning = m.reasoning_content;
      const base: TemplateMessage = {
        role: "assistant",
        content: m.content,
        ...(calls.length > 0 ? { tool_calls: calls } : {}),
      };
      if (reasoning === undefined || reasoning === null) out.push(base);
      else if (field === "content-parts") {
        const parts: TemplateContentPart[] = [{ type: "thinking", thinking: reasoning }];
        if ((m.content ?? "") !== "") parts.push({ type: "text", text: m.content ?? "" });
        out.push({ ...base, content: parts });
      } else out.push({ ...base, [field ?? "reasoning_content"]: reasoning });
      return;
    }
    if (m.role === "tool") {
      const answered = pending.shift();
      out.push({
        role: "tool",
        content: m.content,
        ...(answered === undefined
          ? {}
          : { tool_call_id: m.tool_call_id ?? answered.id, name: m.name ?? answered.name }),
      });
      return;
    }
    out.push({ role: m.role, content: m.content });
  });
  return out;
}
