import { canonicalJson, type JsonObject } from "../json.js";
import { ToolgramError } from "../errors.js";
import {
  ChatTemplate,
  type RenderOptions,
  type TemplateContentPart,
  type TemplateMessage,
  type TemplateToolCall,
} from "./renderTemplate.js";
import { commonPrefixLength, markerPrefix, markerSuffix } from "./textDiff.js";

/**
 * Needles: strings no template writes on its own, so that where they land in a render shows what the template put
 * around them (the names follow llama.cpp's autoparser, `common/chat-diff-analyzer.cpp`).
 */
export const PROBE = {
  user: "U_USER_MSG Hello END_U",
  content: "A_ASST_MSG I can help END_A",
  reasoning: "REASON_PART I am thinking END_R",
  toolResult: "T_TOOL_RESULT sunny END_T",
  functions: ["FFF_FIRST_FUN_F", "SSS_SECOND_FUN_S"],
  args: ["AA_ARG_FST_AA", "BB_ARG_SND_BB"],
  values: ["XXXX", "YYYY"],
  callIds: ["call00001", "call00002"],
  /** Typed arguments, to show how a template writes a non-string value. */
  typedArgs: {
    AA_ARG_FST_AA: "XXXX",
    NN_ARG_NUM_NN: 42,
    OO_ARG_OBJ_OO: { k: [1, true, null] },
    TT_ARG_BOOL_TT: true,
  } as JsonObject,
} as const;

const [F1, F2] = PROBE.functions;
const [A1, A2] = PROBE.args;
const [V1, V2] = PROBE.values;

const parameters = {
  type: "object",
  properties: {
    [A1]: { type: "string", description: "First argument" },
    [A2]: { type: "string", description: "Second argument" },
    NN_ARG_NUM_NN: { type: "integer", description: "A number" },
    OO_ARG_OBJ_OO: { type: "object", description: "An object" },
    TT_ARG_BOOL_TT: { type: "boolean", description: "A flag" },
  },
  required: [],
};

/** The probe tools, in OpenAI's shape. */
export const PROBE_TOOLS = [
  { type: "function", function: { name: F1, description: "Test function foo", parameters } },
  { type: "function", function: { name: F2, description: "Test function bar", parameters } },
];

type ArgumentsAs = "object" | "string";

function call(name: string, args: JsonObject, id: string, as: ArgumentsAs): TemplateToolCall {
  return {
    id,
    type: "function",
    function: { name, arguments: as === "object" ? structuredClone(args) : canonicalJson(args) },
  };
}

/** The calls of each probe turn. */
export const PROBE_CALLS = {
  one: [{ name: F1, arguments: { [A1]: V1, [A2]: V2 } as JsonObject }],
  two: [
    { name: F1, arguments: { [A1]: V1, [A2]: V2 } as JsonObject },
    { name: F2, arguments: { [A1]: V1, [A2]: V2 } as JsonObject },
  ],
  typed: [{ name: F1, arguments: PROBE.typedArgs }],
};

/** One assistant turn as the template renders it: the text after the generation prompt. */
export interface ProbedTurn {
  /** The whole turn as the model would write it, end-of-turn marker included. */
  text: string;
  /** `text` without the end-of-turn marker the content-only turn ends with (when it ends so). */
  body: string;
  /**
   * The tail of the generation prompt that this rendering of the turn does not repeat (e.g. a `<think>` the prompt
   * opens where the history shows `</think>`); "" when the turn follows the generation prompt exactly.
   */
  promptMismatch: string;
}

/**
 * Where a template reads an assistant's reasoning from: `reasoning_content` (most), `thinking` (gpt-oss), a
 * `{type: "thinking"}` part of the content (Mistral's Ministral / Magistral), or `reasoning` (Solar Open).
 */
const REASONING_FIELDS = ["reasoning_content", "thinking", "content-parts", "reasoning"] as const;
type ReasoningField = (typeof REASONING_FIELDS)[number];

/** An assistant message with `content` and, when `field` is set, the probe's reasoning carried that way. */
function assistantMessage(
  content: string,
  field: ReasoningField | undefined,
  rest: Partial<TemplateMessage> = {},
): TemplateMessage {
  if (field === undefined) return { role: "assistant", content, ...rest };
  if (field === "content-parts") {
    const parts: TemplateContentPart[] = [{ type: "thinking", thinking: PROBE.reasoning }];
    if (content !== "") parts.push({ type: "text", text: content });
    return { role: "assistant", content: parts, ...rest };
  }
  return { role: "assistant", content, [field]: PROBE.reasoning, ...rest };
}

export interface TemplateProbe {
  /** The template renders a user turn with a generation prompt, and an assistant reply. */
  renders: true;
  /** How tool-call arguments had to be passed: as objects (most templates) or as JSON text. */
  argumentsAs: ArgumentsAs;
  /** What `add_generation_prompt` appends after a user turn (thinking enabled / disabled). */
  generationPrompt: string;
  generationPromptNoThinking: string;
  content: ProbedTurn;
  /** The message field the template reads reasoning from, when it shows reasoning at all. */
  reasoningField?: ReasoningField;
  contentWithReasoning?: ProbedTurn;
  /** The turn end: what follows the content in the content-only turn. */
  turnEnd: string;
  /** Undefined when the template does not render tool calls (or fails to). */
  oneCall?: ProbedTurn;
  twoCalls?: ProbedTurn;
  oneCallWithReasoning?: ProbedTurn;
  twoCallsWithReasoning?: ProbedTurn;
  typedCall?: ProbedTurn;
  /** The error the tool-call probes met, when they failed (undefined when the template merely shows no call). */
  toolCallsError?: string;
  /** How a tool result is shown to the model: the text from the end of the call turn to the next generation prompt. */
  toolResult?: string;
}

/**
 * Renders the probe conversations through a chat template. Throws a ToolgramError when the template does not parse
 * or cannot render a plain user/assistant exchange; tool-call probes that fail are recorded in `toolCallsError`.
 */
export function probeTemplate(source: string, options: RenderOptions = {}): TemplateProbe {
  const t = new ChatTemplate(source, options);
  const user: TemplateMessage = { role: "user", content: PROBE.user };
  const tools = PROBE_TOOLS;

  const prompt = (thinking: boolean): string =>
    t.render({ messages: [user], tools, addGenerationPrompt: true, enableThinking: thinking });
  const generation = prompt(true);
  const withoutPrompt = t.render({ messages: [user], tools, addGenerationPrompt: false });
  const generationPrompt = generation.startsWith(withoutPrompt)
    ? generation.slice(withoutPrompt.length)
    : afterUser(generation);
  const noThinking = prompt(false);
  const generationPromptNoThinking = noThinking.startsWith(withoutPrompt)
    ? noThinking.slice(withoutPrompt.length)
    : afterUser(noThinking);

  // A turn the template writes after every conversation, whoever spoke last (Command R+'s tool-use template ends
  // each render with a system turn of instructions): never part of the assistant's turn, so it is cut from renders
  // of a history; the generation prompt follows it.
  const trailer = conversationTrailer(withoutPrompt, generationPrompt);
  const turn = (assistant: TemplateMessage): ProbedTurn => {
    let rendered = t.render({ messages: [user, assistant], tools, addGenerationPrompt: false });
    if (trailer !== "" && rendered.endsWith(trailer)) rendered = rendered.slice(0, rendered.length - trailer.length);
    return extractTurn(
      trailer === "" ? generation : withoutPrompt.slice(0, withoutPrompt.length - trailer.length) + generationPrompt,
      rendered,
    );
  };

  const content = turn({ role: "assistant", content: PROBE.content });
  const at = content.text.indexOf(PROBE.content);
  if (at < 0) {
    throw new ToolgramError("UNRECOGNIZED_TEMPLATE", "the chat template does not show an assistant message's content");
  }
  const turnEnd = content.text.slice(at + PROBE.content.length);
  // A turn ends at the end-of-turn marker: a template may write more after it in a turn with calls (DeepSeek R1's
  // original template appends `<｜Assistant｜>` after `<｜end▁of▁sentence｜>`), which the model never generates.
  const bodyOf = (text: string): string => {
    if (turnEnd === "") return text;
    const body = text.endsWith(turnEnd) ? text.slice(0, text.length - turnEnd.length) : withoutTurnEnd(text, turnEnd);
    const k = turnEnd.trim() === "" ? -1 : body.indexOf(turnEnd);
    // only a tail without calls is cut (GigaChat 3 puts its calls in a turn of their own after the marker)
    return k < 0 || PROBE.functions.some((f) => body.includes(f, k)) ? body : body.slice(0, k);
  };
  const withEnd = (p: ProbedTurn): ProbedTurn => ({ ...p, body: bodyOf(p.text) });

  const probe: TemplateProbe = {
    renders: true,
    argumentsAs: "object",
    generationPrompt,
    generationPromptNoThinking,
    content: withEnd(content),
    turnEnd,
  };
  // The reasoning goes where the template reads it: the first carrier that shows.
  for (const field of REASONING_FIELDS) {
    const reasoned = tryTurn(() => turn(assistantMessage(PROBE.content, field)));
    if (reasoned.ok && showsReasoning(reasoned.value.text, field)) {
      probe.contentWithReasoning = withEnd(reasoned.value);
      probe.reasoningField = field;
      break;
    }
  }

  const callTurn = (
    calls: readonly { name: string; arguments: JsonObject }[],
    as: ArgumentsAs,
    reasoning: boolean,
  ): ProbedTurn =>
    withEnd(
      turn(
        assistantMessage("", reasoning ? reasoningField : undefined, {
          tool_calls: calls.map((c, i) => call(c.name, c.arguments, PROBE.callIds[i], as)),
        }),
      ),
    );

  let reasoningField: ReasoningField = probe.reasoningField ?? "reasoning_content";
  // Arguments as objects first (what most templates iterate over); JSON text when objects fail or print badly.
  let as: ArgumentsAs = "object";
  let one = tryTurn(() => callTurn(PROBE_CALLS.one, "object", false));
  if (!one.ok || !showsArguments(one.value.text)) {
    const asText = tryTurn(() => callTurn(PROBE_CALLS.one, "string", false));
    if (asText.ok && showsArguments(asText.value.text)) {
      one = asText;
      as = "string";
    }
  }
  probe.argumentsAs = as;
  if (!one.ok) {
    probe.toolCallsError = one.error;
    return probe;
  }
  if (!one.value.text.includes(F1)) return probe; // the template does not show tool calls
  probe.oneCall = one.value;
  const two = tryTurn(() => callTurn(PROBE_CALLS.two, as, false));
  if (two.ok && two.value.text.includes(F2)) probe.twoCalls = two.value;
  let oneR = tryTurn(() => callTurn(PROBE_CALLS.one, as, true));
  for (const field of REASONING_FIELDS) {
    // reasoning shown only beside tool calls (llama.cpp's TOOLS_ONLY): try the other carriers there
    if (probe.reasoningField !== undefined || (oneR.ok && showsReasoning(oneR.value.text, reasoningField))) break;
    reasoningField = field;
    oneR = tryTurn(() => callTurn(PROBE_CALLS.one, as, true));
  }
  if (oneR.ok && showsReasoning(oneR.value.text, reasoningField)) {
    probe.oneCallWithReasoning = oneR.value;
    probe.reasoningField = reasoningField;
  }
  const twoR = tryTurn(() => callTurn(PROBE_CALLS.two, as, true));
  if (twoR.ok && twoR.value.text.includes(PROBE.reasoning) && twoR.value.text.includes(F2))
    probe.twoCallsWithReasoning = twoR.value;
  const typed = tryTurn(() => callTurn(PROBE_CALLS.typed, as, false));
  if (typed.ok && typed.value.text.includes("NN_ARG_NUM_NN")) probe.typedCall = typed.value;

  // The tool result: between the call turn and the next generation prompt.
  const result = tryTurn(() => {
    const assistant: TemplateMessage = {
      role: "assistant",
      content: "",
      tool_calls: [call(F1, PROBE_CALLS.one[0].arguments, PROBE.callIds[0], as)],
    };
    const toolMessage: TemplateMessage = {
      role: "tool",
      content: PROBE.toolResult,
      tool_call_id: PROBE.callIds[0],
      name: F1,
    };
    let before = t.render({ messages: [user, assistant], tools, addGenerationPrompt: false });
    let after = t.render({ messages: [user, assistant, toolMessage], tools, addGenerationPrompt: true });
    if (trailer !== "") {
      // the instructions after every conversation are not part of the result (and Command R+'s call turn has no
      // turn end to look for: the result starts where the two renders part)
      if (before.endsWith(trailer)) before = before.slice(0, before.length - trailer.length);
      if (after.endsWith(trailer + generationPrompt))
        after = after.slice(0, after.length - trailer.length - generationPrompt.length) + generationPrompt;
    }
    // from the end of the call turn: the last turn end before the result (earlier turns may render differently)
    const at = after.indexOf(PROBE.toolResult);
    const end = turnEnd === "" || trailer !== "" ? -1 : after.lastIndexOf(turnEnd, at);
    const tail = end >= 0 ? after.slice(end + turnEnd.length) : after.slice(commonPrefixLength(before, after));
    return tail.endsWith(generationPrompt) ? tail.slice(0, tail.length - generationPrompt.length) : tail;
  });
  if (result.ok && result.value.includes(PROBE.toolResult)) probe.toolResult = result.value;
  return probe;
}

/**
 * The turn a template writes after the last message of every conversation: the tail of the render without the
 * generation prompt (`withoutPrompt`) from the first turn opening there that is spelled as the generation prompt's
 * first marker opens a turn (`<|START_OF_TURN_TOKEN|>`), when the tail after the user message holds one; "" when none
 * (most templates end a conversation with the last turn's end marker).
 */
function conversationTrailer(withoutPrompt: string, generationPrompt: string): string {
  const marker = /^<[^<>]*>/.exec(generationPrompt.trimStart())?.[0];
  if (marker === undefined) return "";
  const tail = afterUser(withoutPrompt);
  const at = tail.indexOf(marker);
  // the trailer must say something of its own (an instruction), not merely reopen a turn
  return at < 0 || tail.length - at <= marker.length + 1 ? "" : tail.slice(at);
}

/**
 * `text` without a turn end that the template spaced otherwise than in the content-only turn: Nemotron Nano v2 ends a
 * content turn with `\n<SPECIAL_12>\n` but a final tool-call turn with `</TOOLCALL><SPECIAL_12>\n\n`. The marker itself
 * (the end-of-turn token the model writes) is cut with the whitespace after it (the template's separator before the
 * next turn, never generated) and, when present, the whitespace the content-only turn puts before it. `text` as is
 * when it does not end with the marker.
 */
function withoutLooseEnd(text: string, turnEnd: string): string {
  const marker = turnEnd.trim();
  const trimmed = text.trimEnd();
  if (marker === "" || !trimmed.endsWith(marker)) return text;
  const body = trimmed.slice(0, trimmed.length - marker.length);
  const before = turnEnd.slice(0, turnEnd.indexOf(marker));
  return before !== "" && body.endsWith(before) ? body.slice(0, body.length - before.length) : body;
}

/** `text` without the turn end it writes otherwise than the content-only turn (withoutLooseEnd, sharedTurnEnd). */
function withoutTurnEnd(text: string, turnEnd: string): string {
  const loose = withoutLooseEnd(text, turnEnd);
  return loose !== text ? loose : text.slice(0, text.length - sharedTurnEnd(turnEnd, text).length);
}

/**
 * The tail a call turn shares with the content turn's end, when the call turn does not end with all of it: the turn
 * end proper, which the content turn writes after a marker of its own (Command R7B's content turn ends
 * `<|END_RESPONSE|><|END_OF_TURN_TOKEN|>`, its call turn `<|END_ACTION|><|END_OF_TURN_TOKEN|>`: the model ends both
 * with `<|END_OF_TURN_TOKEN|>`). Only a tail that starts with a marker counts; "" when there is none.
 */
function sharedTurnEnd(turnEnd: string, text: string): string {
  let tail = markerSuffix(turnEnd, text);
  if (!/^\s*[<[]/.test(tail)) return "";
  // a tail that starts inside a tag starts at the next marker: Kimi K3 ends a content turn
  // `<|close|>response<|sep|><|close|>message<|sep|>…` and a call turn `<|close|>tools<|sep|><|close|>message<|sep|>…`,
  // which share `<|sep|>…`, but `<|sep|>` ends the tag `<|close|>tools`: the turn's end is `<|close|>message<|sep|>…`
  for (;;) {
    const before = text.slice(0, text.length - tail.length);
    if (before === "" || /[>\]]\s*$/.test(before)) return tail;
    const next = tail.slice(1).search(/[<[]/);
    if (next < 0) return "";
    tail = tail.slice(next + 1);
  }
}

/**
 * The render shows the probe's reasoning as reasoning: for content parts, not a template printing the parts list
 * itself (`[{'type': 'thinking', …}]`).
 */
function showsReasoning(text: string, field: ReasoningField): boolean {
  if (!text.includes(PROBE.reasoning)) return false;
  return field !== "content-parts" || !/["']type["']\s*:|\[object /.test(text);
}

/** The render shows the probe's argument names and values (not `[object Map]` or nothing). */
function showsArguments(text: string): boolean {
  return text.includes(A1) && text.includes(V1) && !text.includes("[object ");
}

/**
 * The assistant turn in `rendered` (user + assistant, no generation prompt), read against `generation` (user + the
 * generation prompt): the text after the user message that the generation prompt does not already hold.
 */
function extractTurn(generation: string, rendered: string): ProbedTurn {
  const g = afterUser(generation);
  const r = afterUser(rendered);
  // cut back to a marker boundary: `<|assistant|><think>` against `<|assistant|></think>` shares `<|assistant|>`
  const p = markerPrefix(g, r).length;
  return { text: r.slice(p), body: r.slice(p), promptMismatch: g.slice(p) };
}

function afterUser(text: string): string {
  const at = text.lastIndexOf(PROBE.user);
  return at < 0 ? text : text.slice(at + PROBE.user.length);
}

type Attempt<T> = { ok: true; value: T } | { ok: false; error: string };

function tryTurn<T>(f: () => T): Attempt<T> {
  try {
    return { ok: true, value: f() };
  } catch (e) {
    return { ok: false, error: e instanceof Error ? e.message : String(e) };
  }
}
