import { canonicalJson, isJsonObject, type JsonValue } from "../json.js";
import { ToolgramError } from "../errors.js";
import { describeFormat, type FormatOption } from "../formats/describeFormat.js";
import type { ReasoningMode } from "../formats/FormatDescription.js";
import { formatFromChatTemplate, type TemplateFormat } from "../templates/formatFromChatTemplate.js";
import {
  ChatTemplate,
  type TemplateContentPart,
  type TemplateMessage,
  type TemplateToolCall,
} from "../templates/renderTemplate.js";
import { renderQwen3Prompt, type ChatMessage, type ChatToolCall } from "./qwen3ChatPrompt.js";
import { BoundedMap } from "../util/BoundedMap.js";

/** The options `compileTools` and the parser take for a model's turn. */
export interface ModelTurnOptions {
  /** toolgram's format name. */
  readonly format: string;
  readonly reasoning: ReasoningMode;
  /** The template's own reasoning markers, when it has them. */
  readonly reasoningMarkers?: { readonly open: string; readonly close: string };
}

/** How a model's prompts are written and its tool calls read. */
export interface ModelChat extends ModelTurnOptions {
  /** Where the prompt comes from: the model's chat template, or toolgram's Qwen3 renderer (no template). */
  readonly promptSource: "chat-template" | "qwen3";
  /** The whole prompt for `messages`, ending with the opened assistant turn (`addGenerationPrompt`, default true). */
  render(
    messages: readonly ChatMessage[],
    options?: { tools?: readonly JsonValue[]; enableThinking?: boolean; addGenerationPrompt?: boolean },
  ): string;
}

/**
 * Options of {@link modelChatFor}: the format and reasoning to use instead of what the template says, and the BOS/EOS
 * token texts.
 */
export interface ModelChatOptions {
  /** A format name or alias; overrides the template's. */
  readonly format?: FormatOption;
  /** Overrides the default (see `modelChatFor`). */
  readonly reasoning?: ReasoningMode;
  /** The template's `bos_token` / `eos_token` (the model's tokens' text). */
  readonly bosToken?: string;
  readonly eosToken?: string;
}

/** Readings by template text, the oldest dropped first. */
const readings = new BoundedMap<string, TemplateFormat | ToolgramError>({ maxEntries: 16, order: "insertion" });

/** formatFromChatTemplate once per template text (probing renders a dozen conversations). */
function readTemplate(template: string): TemplateFormat | ToolgramError {
  let r = readings.get(template);
  if (r === undefined) {
    try {
      r = formatFromChatTemplate(template);
    } catch (e) {
      if (!(e instanceof ToolgramError)) throw e;
      r = e;
    }
    readings.set(template, r);
  }
  return r;
}

/**
 * The prompt renderer and turn options for a model's chat template (the GGUF's `tokenizer.chat_template`):
 *  - format: `options.format`, else the one `formatFromChatTemplate` reads from the template; a template that writes
 *    no format toolgram describes is refused (UNSUPPORTED_FORMAT / UNRECOGNIZED_TEMPLATE, naming what it writes);
 *  - reasoning: `options.reasoning`, else "required" when the template's generation prompt opens the block (every
 *    reply starts inside it), else the format's own default (a template that merely can show reasoning, as Qwen3's,
 *    does not make the grammar offer it: pass `reasoning: "optional"` to let the model think first); the block's
 *    markers are the template's;
 *  - the prompt is the template rendered with @huggingface/jinja. Without a template, Qwen3's prompt is rendered
 *    (toolgram's Qwen3 renderer) and any other format is refused.
 */
export function modelChatFor(template: string | undefined, options: ModelChatOptions = {}): ModelChat {
  // generation calls this once per turn: parse and probe a template once per options
  const key = JSON.stringify([
    template ?? null,
    options.format ?? null,
    options.reasoning ?? null,
    options.bosToken ?? "",
    options.eosToken ?? "",
  ]);
  let chat = chats.get(key);
  if (chat === undefined) {
    chat = buildModelChat(template, options);
    chats.set(key, chat);
  }
  return chat;
}

/** Chats by template and options, the oldest dropped first. */
const chats = new BoundedMap<string, ModelChat>({ maxEntries: 16, order: "insertion" });

function buildModelChat(template: string | undefined, options: ModelChatOptions): ModelChat {
  const explicit = options.format === undefined ? undefined : describeFormat(options.format);
  if (template === undefined || template === "") {
    const d = explicit ?? describeFormat("qwen3");
    if (d.name !== "qwen3") {
      throw new ToolgramError(
        "INVALID_OPTION",
        `the model has no chat template (tokenizer.chat_template) to write a ${d.name} prompt with; pass chatTemplate`,
      );
    }
    return {
      format: d.name,
      reasoning: options.reasoning ?? d.reasoning?.defaultMode ?? "none",
      promptSource: "qwen3",
      render: (messages, o = {}) =>
        renderQwen3Prompt(messages, {
          ...(o.tools === undefined ? {} : { tools: o.tools }),
          enableThinking: o.enableThinking,
          addGenerationPrompt: o.addGenerationPrompt,
        }),
    };
  }
  const read = readTemplate(template);
  let format: string;
  if (explicit !== undefined) format = explicit.name;
  else if (read instanceof ToolgramError) {
    throw new ToolgramError(read.code, `${read.message}; pass format to generate anyway`, "", { cause: read });
  } else {
    const known = knownName(read.format);
    if (known !== undefined) format = known;
    else {
      throw new ToolgramError(
        "UNSUPPORTED_FORMAT",
        `the model's chat template writes tool calls as ${read.format}${read.aliases.length > 0 ? ` (${read.aliases.join(", ")})` : ""}, which toolgram does not describe yet (docs/template-acceptance.md); pass format explicitly`,
      );
    }
  }
  // the template's reasoning layout holds for its own format only
  const layout = read instanceof ToolgramError || knownName(read.format) !== format ? undefined : read;
  const d = describeFormat(format);
  const reasoning =
    options.reasoning ?? (layout?.reasoning === "required" ? "required" : (d.reasoning?.defaultMode ?? "none"));
  const markers =
    layout !== undefined && layout.reasoning !== "none"
      ? { open: layout.reasoningMarkers.start, close: layout.reasoningMarkers.end }
      : undefined;
  const chat = new ChatTemplate(template, { bosToken: options.bosToken ?? "", eosToken: options.eosToken ?? "" });
  const args = argumentsPolicy(chat, read instanceof ToolgramError ? "object" : read.argumentsAs);
  const field =
    layout?.reasoningMarkers.field ?? (read instanceof ToolgramError ? undefined : read.probe.reasoningField);
  return {
    format,
    reasoning,
    ...(markers === undefined ? {} : { reasoningMarkers: markers }),
    promptSource: "chat-template",
    render: (messages, o = {}) =>
      chat.render({
        messages: templateMessages(messages, args, field),
        ...(o.tools === undefined || o.tools.length === 0 ? {} : { tools: [...o.tools] }),
        addGenerationPrompt: o.addGenerationPrompt ?? true,
        ...(o.enableThinking === undefined ? {} : { enableThinking: o.enableThinking }),
      }),
  };
}

function knownName(name: string): string | undefined {
  try {
    return describeFormat(name).name;
  } catch {
    return undefined;
  }
}

/** How call arguments go to the template: strings it writes verbatim stay strings (exact replay), else its kind. */
interface ArgumentsPolicy {
  readonly as: "object" | "string";
  readonly verbatimStrings: boolean;
}

const VERBATIM_PROBE = '{"ZZ_ARG_ZZ":"QQ_VAL_QQ"}';

function argumentsPolicy(chat: ChatTemplate, as: "object" | "string"): ArgumentsPolicy {
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
function templateMessages(
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
