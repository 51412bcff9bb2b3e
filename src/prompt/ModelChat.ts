import { isJsonObject, type JsonObject, type JsonValue } from "../json.js";
import { ToolgramError } from "../errors.js";
import { describeFormat, type FormatOption } from "../formats/describeFormat.js";
import type { ReasoningMode } from "../formats/FormatDescription.js";
import type { DerivedFormatName, FormatName } from "../formats/FormatName.js";
import { formatFromChatTemplate, type TemplateFormat } from "../templates/formatFromChatTemplate.js";
import { ChatTemplate } from "../templates/renderTemplate.js";
import { BoundedMap } from "../util/BoundedMap.js";
import { renderQwen3Prompt, type ChatMessage } from "./qwen3ChatPrompt.js";
import { argumentsPolicy, templateMessages } from "./templateMessages.js";

/** The options `compileTools` and the parser take for a model's turn. */
export interface ModelTurnOptions {
  /** toolgram's format name. */
  readonly format: string;
  /** Whether the turn starts with a reasoning block: `"none"`, `"optional"` or `"required"`. */
  readonly reasoning: ReasoningMode;
  /** The template's own reasoning markers, when it has them. */
  readonly reasoningMarkers?: { readonly open: string; readonly close: string };
}

/** A message to render: a chat message, or an earlier assistant turn to splice back byte for byte (exact replay). */
export type PromptMessage =
  | ChatMessage
  | {
      readonly role: "assistant";
      readonly verbatim: string;
      /**
       * The turn as a message, rendered instead when the template refuses the verbatim turn in its place (a template
       * that checks that tool results follow an assistant turn with calls): the right prompt, not byte for byte.
       */
      readonly message?: ChatMessage;
    };

/** What {@link ModelChat.render} writes besides the messages. */
export interface PromptOptions {
  /** The tools as the template's `tools` variable (templateTools). */
  readonly tools?: readonly JsonValue[];
  /** The template's `enable_thinking` variable (Qwen3 and others open or skip the reasoning block by it). */
  readonly enableThinking?: boolean;
  /** End with the opened assistant turn. @defaultValue true */
  readonly addGenerationPrompt?: boolean;
  /** The template's `reasoning_effort` variable (gpt-oss writes it in its system message: low, medium, high). */
  readonly reasoningEffort?: string;
}

/**
 * How a model's prompts are written and its tool calls read: the one prompt abstraction of generateToolCalls and
 * `toolgram serve`. The prompt is the model's chat template, or toolgram's Qwen3 renderer (a model without a
 * template; the server's Qwen3 / Hermes models).
 */
export interface ModelChat extends ModelTurnOptions {
  /**
   * The format the model's calls are written in: the options' format, else the template's (a described one, or one
   * derived from its renders, `derived-…`); `"qwen3"` without a template.
   */
  readonly format: FormatName | DerivedFormatName;
  /** Where the prompt comes from: the model's chat template, or toolgram's Qwen3 renderer. */
  readonly promptSource: "chat-template" | "qwen3";
  /**
   * The whole prompt for `messages`, ending with the opened assistant turn (`addGenerationPrompt`, default true). A
   * `verbatim` turn is written as the template writes an assistant's content, with exactly its bytes; a template that
   * does not write content as given refuses it (TEMPLATE_RENDER).
   */
  render(messages: readonly PromptMessage[], options?: PromptOptions): string;
  /**
   * One assistant turn as a later prompt writes it back, from after the turn's opening to before its end: when it
   * equals the text the model generated for the turn, re-rendering the parsed turn replays it exactly.
   */
  renderTurn(message: ChatMessage): string;
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
  /** The template's `eos_token`: the text of the model's end-of-sequence token (some templates write it). */
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
 *  - format: `options.format`, else the one `formatFromChatTemplate` reads from the template; a template whose calls
 *    are no format toolgram has is refused (UNRECOGNIZED_TEMPLATE, naming what it writes);
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
    return qwen3Chat(options.reasoning ?? d.reasoning?.defaultMode ?? "none");
  }
  const read = readTemplate(template);
  if (explicit === undefined && read instanceof ToolgramError)
    throw new ToolgramError(read.code, `${read.message}; pass format to generate anyway`, "", { cause: read });
  const format = explicit?.name ?? (read as TemplateFormat).format;
  // the template's reasoning layout holds for its own format only
  const layout = read instanceof ToolgramError || read.format !== format ? undefined : read;
  const d = describeFormat(format);
  const reasoning =
    options.reasoning ?? (layout?.reasoning === "required" ? "required" : (d.reasoning?.defaultMode ?? "none"));
  const markers =
    layout !== undefined && layout.reasoning !== "none"
      ? { open: layout.reasoningMarkers.start, close: layout.reasoningMarkers.end }
      : undefined;
  return {
    format,
    reasoning,
    ...(markers === undefined ? {} : { reasoningMarkers: markers }),
    ...templatePrompt(template, options, read instanceof ToolgramError ? undefined : read, layout),
  };
}

/** Qwen3's `<|im_start|>assistant\n` … `<|im_end|>\n` around an assistant turn. */
const QWEN3_TURN_OPEN = "<|im_start|>assistant\n";
const QWEN3_TURN_END = "<|im_end|>\n";

/** Qwen3 / Hermes written by toolgram's own renderer (renderQwen3Prompt). */
function qwen3Chat(reasoning: ReasoningMode): ModelChat {
  return {
    format: "qwen3",
    reasoning,
    promptSource: "qwen3",
    render: (messages, o = {}) =>
      renderQwen3Prompt(messages.map(asContent), {
        ...(o.tools === undefined ? {} : { tools: o.tools }),
        enableThinking: o.enableThinking,
        addGenerationPrompt: o.addGenerationPrompt,
      }),
    renderTurn: (message) => {
      const text = renderQwen3Prompt([message], { addGenerationPrompt: false });
      return text.slice(QWEN3_TURN_OPEN.length, text.length - QWEN3_TURN_END.length);
    },
  };
}

/** Qwen3's renderer writes an assistant's content verbatim (outside `<think>`), so a turn's exact bytes go in as it. */
function asContent(m: PromptMessage): ChatMessage {
  return "verbatim" in m ? { role: "assistant", content: m.verbatim } : m;
}

/** The prompt of a chat template: rendered with @huggingface/jinja, replayed turns spliced in where content goes. */
function templatePrompt(
  template: string,
  options: ModelChatOptions,
  read: TemplateFormat | undefined,
  layout: TemplateFormat | undefined,
): Pick<ModelChat, "promptSource" | "render" | "renderTurn"> {
  const tokens = { bosToken: options.bosToken ?? "", eosToken: options.eosToken ?? "" };
  const chat = new ChatTemplate(template, tokens);
  // a template per reasoning_effort asked for (a handful of values), parsed once each
  const byEffort = new Map<string, ChatTemplate>();
  const chatFor = (effort: string | undefined): ChatTemplate => {
    if (effort === undefined) return chat;
    let c = byEffort.get(effort);
    if (c === undefined) {
      c = new ChatTemplate(template, { ...tokens, extraContext: { reasoning_effort: effort } });
      byEffort.set(effort, c);
    }
    return c;
  };
  const args = argumentsPolicy(chat, read?.argumentsAs ?? "object");
  const field = layout?.reasoningMarkers.field ?? read?.probe.reasoningField;
  const renderWith = (messages: readonly ChatMessage[], o: PromptOptions): string =>
    chatFor(o.reasoningEffort).render({
      messages: templateMessages(messages, args, field),
      ...(o.tools === undefined || o.tools.length === 0 ? {} : { tools: [...o.tools] }),
      addGenerationPrompt: o.addGenerationPrompt ?? true,
      ...(o.enableThinking === undefined ? {} : { enableThinking: o.enableThinking }),
    });
  const render = (messages: readonly PromptMessage[], o: PromptOptions = {}): string => {
    try {
      return renderSpliced(messages, o);
    } catch (e) {
      const fallback = messages.some((m) => "verbatim" in m && m.message !== undefined);
      if (!(e instanceof ToolgramError) || e.code !== "TEMPLATE_RENDER" || !fallback) throw e;
      return renderSpliced(
        messages.map((m) => ("verbatim" in m && m.message !== undefined ? m.message : m)),
        o,
      );
    }
  };
  // `messages` as the template writes them, a verbatim turn as `as` gives it (never spliced)
  const renderAs = (
    messages: readonly PromptMessage[],
    as: (m: VerbatimTurn, i: number) => ChatMessage,
    o: PromptOptions,
  ): string => {
    const plain = messages.map((m, i) => ("verbatim" in m ? as(m, i) : m));
    try {
      return renderWith(plain, o);
    } catch (e) {
      // OpenAI's clients send a turn that only calls tools with `content: null`, which templates that concatenate
      // the content (Qwen3's, gpt-oss's) cannot render: such a turn goes in with empty content
      const nulls = plain.some((m) => m.role === "assistant" && m.content === null);
      if (!(e instanceof ToolgramError) || e.code !== "TEMPLATE_RENDER" || !nulls) throw e;
      return renderWith(
        plain.map((m) => (m.role === "assistant" && m.content === null ? { ...m, content: "" } : m)),
        o,
      );
    }
  };
  // The last verbatim turn goes in after the very prompt it was generated from (the messages before it, rendered with
  // the generation prompt, their own verbatim turns spliced the same way), and the template's text after the turn
  // follows it. So what a template writes otherwise in a history turn than its generation prompt opens it (an empty
  // `<think></think>`, a dropped reasoning block, `>>>all\n` before content) does not reach the replayed bytes, and
  // the prompt continues, byte for byte, what the model saw and wrote (what its KV cache holds).
  const renderSpliced = (messages: readonly PromptMessage[], o: PromptOptions): string => {
    let last = messages.length - 1;
    while (last >= 0 && !("verbatim" in messages[last])) last--;
    if (last < 0) return renderAs(messages, withSpliceMark, o);
    const turn = messages[last] as VerbatimTurn;
    const before = renderSpliced(messages.slice(0, last), { ...o, addGenerationPrompt: true });
    return before + turn.verbatim + afterTurn(messages, last, o);
  };
  // What the template writes after the verbatim turn at `last`: found with the turn's calls kept (tool results that
  // name or number the call they answer are written as with the real turn), else with a mark as its content.
  const afterTurn = (messages: readonly PromptMessage[], last: number, o: PromptOptions): string => {
    const turn = messages[last] as VerbatimTurn;
    const message = turn.message;
    const asMessage = (m: VerbatimTurn, i: number): ChatMessage => m.message ?? withSpliceMark(m, i);
    if (message?.tool_calls !== undefined && message.tool_calls.length > 0) {
      try {
        const real = renderAs(messages, asMessage, o);
        const marked = renderAs(messages, (m, i) => (i === last ? withEndMark(message, i) : asMessage(m, i)), o);
        if (marked.split(spliceMark(last)).length === 2) {
          // past the last call's last value, both renders are the same text: the call's closing, then what follows
          const after = real.slice(real.length - commonSuffix(real, marked));
          const closing = overlap(turn.verbatim, after);
          if (closing > 0) return after.slice(closing);
          // no closing in common: the template writes the call otherwise than the model did (Kimi K3 a JSON block
          // for the model's element per argument), so the model's text ends where the end of it meets the template's
          // closing, looked for within the turn (the conversation up to it, rendered without a generation prompt, is
          // `real` up to the turn's end)
          const upTo = renderAs(messages.slice(0, last + 1), asMessage, { ...o, addGenerationPrompt: false });
          const at = meet(turn.verbatim, after, commonPrefix(upTo, real) - (real.length - after.length));
          if (at >= 0) return after.slice(at);
        }
      } catch (e) {
        if (!(e instanceof ToolgramError) || e.code !== "TEMPLATE_RENDER") throw e;
      }
    }
    const parts = renderAs(messages, withSpliceMark, o).split(spliceMark(last));
    if (parts.length !== 2) {
      throw new ToolgramError(
        "TEMPLATE_RENDER",
        `the chat template does not write an assistant's content as given (${parts.length - 1} copies), so an earlier turn cannot be replayed byte for byte`,
      );
    }
    return parts[1];
  };
  const turnEnd = read?.turnEnd ?? "";
  return {
    promptSource: "chat-template",
    render,
    renderTurn: (message) => {
      const user: ChatMessage = { role: "user", content: "U" };
      const opened = render([user]);
      const written = render([user, message], { addGenerationPrompt: false });
      // a template that writes history otherwise than the generation prompt opens it: never an exact replay
      if (!written.startsWith(opened)) return written;
      const turn = written.slice(opened.length);
      return turnEnd !== "" && turn.endsWith(turnEnd) ? turn.slice(0, turn.length - turnEnd.length) : turn;
    },
  };
}

/** A turn to splice back byte for byte. */
type VerbatimTurn = Extract<PromptMessage, { readonly verbatim: string }>;

/** A needle in a verbatim turn's place, as the template probes use (no template writes it otherwise). */
const spliceMark = (i: number): string => `VV_REPLAYED_TURN_${i}_VV`;

function withSpliceMark(_m: VerbatimTurn, i: number): ChatMessage {
  return { role: "assistant", content: spliceMark(i) };
}

/** `m` with its last call's last argument value replaced by the splice mark (added when it has none). */
function withEndMark(m: ChatMessage, i: number): ChatMessage {
  const calls = m.tool_calls ?? [];
  const call = calls[calls.length - 1];
  const parts = "function" in call ? call.function : call;
  let args: JsonObject = {};
  if (typeof parts.arguments !== "string") args = parts.arguments;
  else {
    try {
      const parsed = JSON.parse(parts.arguments) as unknown;
      if (isJsonObject(parsed)) args = parsed;
    } catch {
      // arguments that are no JSON object: the mark alone
    }
  }
  const keys = Object.keys(args);
  const key = keys.length === 0 ? "_" : keys[keys.length - 1];
  const marked = { ...parts, arguments: JSON.stringify({ ...args, [key]: spliceMark(i) }) };
  const last = "function" in call ? { ...call, function: marked } : { ...call, ...marked };
  return { ...m, tool_calls: [...calls.slice(0, -1), last] };
}

function commonSuffix(a: string, b: string): number {
  let n = 0;
  while (n < a.length && n < b.length && a[a.length - 1 - n] === b[b.length - 1 - n]) n++;
  return n;
}

function commonPrefix(a: string, b: string): number {
  let n = 0;
  while (n < a.length && n < b.length && a[n] === b[n]) n++;
  return n;
}

/**
 * Where in `after` the template's closing of the turn has caught up with the model's: just past the longest end of
 * `text` that `after` holds within its first `limit` characters (the turn's own closing), at its first place there;
 * -1 when no end of `text` is there.
 */
function meet(text: string, after: string, limit: number): number {
  const region = after.slice(0, Math.max(0, limit));
  for (let k = Math.min(text.length, region.length); k > 0; k--) {
    const at = region.indexOf(text.slice(text.length - k));
    if (at >= 0) return at + k;
  }
  return -1;
}

/** The longest start of `after` that `text` ends with: the closing the model already wrote. */
function overlap(text: string, after: string): number {
  for (let k = Math.min(text.length, after.length); k > 0; k--) if (text.endsWith(after.slice(0, k))) return k;
  return 0;
}
