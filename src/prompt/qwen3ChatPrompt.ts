import { isJsonObject, type JsonObject, type JsonValue } from "../json.js";
import type { NormalizedTool } from "../tools/NormalizedTool.js";

/** A call inside an assistant message: OpenAI's `{function: {name, arguments}}` or a bare `{name, arguments}`. */
export type ChatToolCall =
  | {
      readonly id?: string;
      readonly type?: "function";
      readonly function: { readonly name: string; readonly arguments: string | JsonObject };
    }
  | { readonly id?: string; readonly name: string; readonly arguments: string | JsonObject };

/** One chat message, as OpenAI's chat API and Qwen3's chat template take it. */
export interface ChatMessage {
  /** Who speaks; `tool` messages carry tool results. */
  readonly role: "system" | "user" | "assistant" | "tool";
  /** The message's text; null for an assistant turn that only calls tools. */
  readonly content: string | null;
  /** Assistant only: the calls it made, rendered as `<tool_call>` blocks after its content. */
  readonly tool_calls?: readonly ChatToolCall[];
  /** Assistant only: the thinking text, rendered in `<think>` when the template shows it. */
  readonly reasoning_content?: string;
  /** Tool only: the id of the call this result answers (templates that show it; paired in order when absent). */
  readonly tool_call_id?: string;
  /** Tool only: the name of the tool that answered. */
  readonly name?: string;
}

/** Options of {@link renderQwen3Prompt}: the tools to declare, whether to open the assistant's turn, and thinking. */
export interface Qwen3PromptOptions {
  /** Tools as the template's `tools` variable: each is written as one JSON line inside `<tools>`. */
  readonly tools?: readonly JsonValue[];
  /** Open an assistant turn at the end. @defaultValue true */
  readonly addGenerationPrompt?: boolean;
  /** `false` appends an empty `<think>` block to the assistant turn, as the template does. @defaultValue undefined */
  readonly enableThinking?: boolean;
}

/**
 * JSON text as the chat template's `tojson` writes it (Python's `json.dumps(ensure_ascii=False)`): `", "` and
 * `": "` separators, keys in their given order, non-ASCII characters as they are.
 */
export function templateJson(value: JsonValue | undefined): string {
  if (value === null || value === undefined) return "null";
  if (typeof value === "string") return JSON.stringify(value);
  if (typeof value === "number") {
    // Python writes integral floats as "1.0"; toolgram only holds numbers, so integral values print as integers.
    return JSON.stringify(value);
  }
  if (typeof value === "boolean") return value ? "true" : "false";
  if (Array.isArray(value)) return `[${value.map((v) => templateJson(v)).join(", ")}]`;
  const entries = Object.entries(value).filter(([, v]) => v !== undefined);
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}: ${templateJson(v)}`).join(", ")}}`;
}

/**
 * The tools as the template receives them: OpenAI-shaped entries are kept as declared (so the prompt is byte for
 * byte what `apply_chat_template(tools=...)` writes); other shapes (MCP, Anthropic, bare) are rewritten as OpenAI
 * functions from their normalized form.
 */
export function templateTools(declared: unknown, normalized: readonly NormalizedTool[]): JsonValue[] {
  const list = Array.isArray(declared) ? declared : undefined;
  const openAi =
    list !== undefined &&
    list.length === normalized.length &&
    list.every((t) => isJsonObject(t) && t.type === "function" && isJsonObject(t.function));
  if (openAi) return list as JsonValue[];
  return normalized.map((t) => {
    const fn: JsonObject = { name: t.name };
    if (t.description !== undefined) fn.description = t.description;
    fn.parameters = t.parameters;
    return { type: "function", function: fn };
  });
}

function isToolResponse(m: ChatMessage): boolean {
  const c = m.content ?? "";
  return c.startsWith("<tool_response>") && c.endsWith("</tool_response>");
}

function callParts(call: ChatToolCall): { name: string; arguments: string | JsonObject } {
  return "function" in call ? call.function : call;
}

/**
 * Renders messages as Qwen3's chat template (the `chat_template` of Qwen3's tokenizer_config.json) does, including
 * its tool section, `<tool_call>` blocks for assistant calls, consecutive `tool` messages merged into one user turn
 * of `<tool_response>` blocks, and `<think>` blocks for assistant turns after the last user query.
 */
export function renderQwen3Prompt(messages: readonly ChatMessage[], options: Qwen3PromptOptions = {}): string {
  let out = "";
  const tools = options.tools ?? [];
  const first = messages[0];
  if (tools.length > 0) {
    out += "<|im_start|>system\n";
    if (first?.role === "system") out += `${first.content ?? ""}\n\n`;
    out +=
      "# Tools\n\nYou may call one or more functions to assist with the user query.\n\nYou are provided with function signatures within <tools></tools> XML tags:\n<tools>";
    for (const tool of tools) out += `\n${templateJson(tool)}`;
    out +=
      '\n</tools>\n\nFor each function call, return a json object with function name and arguments within <tool_call></tool_call> XML tags:\n<tool_call>\n{"name": <function-name>, "arguments": <args-json-object>}\n</tool_call><|im_end|>\n';
  } else if (first?.role === "system") {
    out += `<|im_start|>system\n${first.content ?? ""}<|im_end|>\n`;
  }

  // The last user message that is a real query (not a tool response) decides which assistant turns show thinking.
  let lastQuery = messages.length - 1;
  for (let i = messages.length - 1; i >= 0; i--) {
    if (messages[i].role === "user" && !isToolResponse(messages[i])) {
      lastQuery = i;
      break;
    }
  }

  messages.forEach((m, i) => {
    const content = m.content ?? "";
    if (m.role === "user" || (m.role === "system" && i !== 0)) {
      out += `<|im_start|>${m.role}\n${content}<|im_end|>\n`;
    } else if (m.role === "assistant") {
      let text = content;
      let reasoning = "";
      if (m.reasoning_content !== undefined && m.reasoning_content !== null) {
        reasoning = m.reasoning_content;
      } else if (content.includes("</think>")) {
        const parts = content.split("</think>");
        text = parts[parts.length - 1].replace(/^\n+/, "");
        const before = parts[0].replace(/\n+$/, "").split("<think>");
        reasoning = before[before.length - 1].replace(/^\n+/, "");
      }
      const last = i === messages.length - 1;
      if (i > lastQuery && (last || reasoning !== "")) {
        out += `<|im_start|>assistant\n<think>\n${reasoning.replace(/^\n+|\n+$/g, "")}\n</think>\n\n${text.replace(/^\n+/, "")}`;
      } else {
        out += `<|im_start|>assistant\n${text}`;
      }
      (m.tool_calls ?? []).forEach((call, k) => {
        if ((k === 0 && text !== "") || k > 0) out += "\n";
        const { name, arguments: args } = callParts(call);
        out += `<tool_call>\n{"name": "${name}", "arguments": ${typeof args === "string" ? args : templateJson(args)}}\n</tool_call>`;
      });
      out += "<|im_end|>\n";
    } else if (m.role === "tool") {
      if (i === 0 || messages[i - 1].role !== "tool") out += "<|im_start|>user";
      out += `\n<tool_response>\n${content}\n</tool_response>`;
      if (i === messages.length - 1 || messages[i + 1].role !== "tool") out += "<|im_end|>\n";
    }
  });
  if (options.addGenerationPrompt ?? true) {
    out += "<|im_start|>assistant\n";
    if (options.enableThinking === false) out += "<think>\n\n</think>\n\n";
  }
  return out;
}
