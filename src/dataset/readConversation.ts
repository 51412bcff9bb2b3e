import { isJsonObject, type JsonValue } from "../json.js";
import { parseToolCalls } from "../parser/parseToolCalls.js";
import type { Conversation, RowCall, RowFormat, Turn } from "./Conversation.js";

/** Codes of parser issues that are validation results, not spelling repairs. */
const VALIDATION_CODES = new Set(["UNKNOWN_TOOL", "INVALID_ARGUMENTS"]);

export class RowFormatError extends Error {
  constructor(
    message: string,
    readonly pointer: string,
    readonly code: "UNKNOWN_ROW_FORMAT" | "TOOLS_INVALID" = "UNKNOWN_ROW_FORMAT",
  ) {
    super(message);
  }
}

/** Which format a row is in, from its shape; undefined when none fits. */
export function detectRowFormat(row: unknown): RowFormat | undefined {
  if (!isJsonObject(row)) return undefined;
  if (Array.isArray(row.conversations)) return "sharegpt";
  if (!Array.isArray(row.messages)) return undefined;
  const msgs = row.messages.filter(isJsonObject);
  if (
    msgs.some(
      (m) =>
        Array.isArray(m.content) &&
        m.content.some((p) => isJsonObject(p) && typeof p.type === "string" && "value" in p),
    )
  )
    return "llamafactory";
  if (msgs.some((m) => Array.isArray(m.tool_calls) || (m.role === "tool" && typeof m.tool_call_id === "string")))
    return "openai";
  if (msgs.some((m) => typeof m.content === "string" && /<tool_call>|<tool_response>/.test(m.content))) return "qwen3";
  return "openai";
}

function readTools(row: Record<string, JsonValue>, key = "tools"): unknown[] {
  const t = row[key];
  if (t === undefined || t === null || t === "") return [];
  if (typeof t === "string") {
    try {
      const v = JSON.parse(t) as unknown;
      if (Array.isArray(v)) return v;
      if (isJsonObject(v)) return [v];
    } catch (e) {
      throw new RowFormatError(`tools is a string but not JSON: ${(e as Error).message}`, `/${key}`, "TOOLS_INVALID");
    }
    throw new RowFormatError("tools is a string whose JSON is not a list of tools", `/${key}`, "TOOLS_INVALID");
  }
  if (Array.isArray(t)) return t;
  throw new RowFormatError("tools must be a list (or a JSON string of one)", `/${key}`, "TOOLS_INVALID");
}

/** Text of a content field: a string, null, or OpenAI/LlamaFactory parts. */
function contentText(c: JsonValue | undefined): string {
  if (typeof c === "string") return c;
  if (Array.isArray(c)) return c.map((p) => (isJsonObject(p) ? String(p.text ?? p.value ?? "") : "")).join("");
  return "";
}

/**
 * Reads the `<tool_call>` blocks of an assistant text through the parser: tolerant mode gives the calls, and the
 * repairs it made are the drift (what the grammar, i.e. strict mode, would not have produced).
 */
function callsInText(text: string, pointer: string): { text: string; calls: RowCall[]; unreadable: string[] } {
  const r = parseToolCalls(text, { format: "qwen3", mode: "tolerant" });
  const calls: RowCall[] = r.calls.map((c, i) => ({
    name: c.name,
    arguments: c.arguments,
    pointer,
    drift: [...new Set(r.issues.filter((x) => x.callIndex === i && !VALIDATION_CODES.has(x.code)).map((x) => x.code))],
  }));
  // layout drift that belongs to no single call (e.g. text between blocks) is charged to the first call
  const layout = r.issues.filter(
    (x) =>
      x.callIndex === undefined && !VALIDATION_CODES.has(x.code) && x.code !== "INVALID_JSON" && x.code !== "TRUNCATED",
  );
  if (calls.length && layout.length) calls[0].drift.push(...layout.map((x) => x.code));
  const unreadable = r.issues
    .filter(
      (x) =>
        x.callIndex === undefined &&
        (x.code === "INVALID_JSON" ||
          x.code === "TRUNCATED" ||
          x.code === "NOT_A_CALL" ||
          x.code === "MISSING_NAME" ||
          x.code === "ARGUMENTS_NOT_OBJECT" ||
          x.code === "NESTING_TOO_DEEP"),
    )
    .map((x) => `${x.code}: ${x.message}`);
  return { text: r.content, calls, unreadable };
}

/** A call written as a JSON object text `{"name": …, "arguments": …}` (ShareGPT function_call, LlamaFactory parts). */
function callFromObjectText(value: string, pointer: string): { calls: RowCall[]; unreadable: string[] } {
  const r = callsInText(`<tool_call>\n${value.trim()}\n</tool_call>`, pointer);
  // whitespace around the object is not drift here: the template puts its own around it
  for (const c of r.calls) c.drift = c.drift.filter((d) => d !== "WHITESPACE_AROUND_TAGS");
  return { calls: r.calls, unreadable: r.unreadable };
}

function responsesInText(text: string): string[] {
  const out: string[] = [];
  const re = /<tool_response>\n?([\s\S]*?)\n?<\/tool_response>/g;
  for (let m: RegExpExecArray | null; (m = re.exec(text)); ) out.push(m[1]);
  return out;
}

/**
 * LlamaFactory answers parallel calls with one tool turn holding a JSON list of responses (`[{"tool_call_id", "name",
 * "content"}, …]`): each element answers one call.
 */
function splitResponses(text: string): string[] {
  const t = text.trim();
  if (t.startsWith("[")) {
    try {
      const v = JSON.parse(t) as unknown;
      if (
        Array.isArray(v) &&
        v.length > 0 &&
        v.every((x) => isJsonObject(x) && ("tool_call_id" in x || "content" in x))
      )
        return v.map((x) => JSON.stringify(x));
    } catch {
      // not a list of responses: one response
    }
  }
  return [text];
}

const ROLE_ALIASES: Record<string, Turn["role"]> = {
  system: "system",
  user: "user",
  human: "user",
  assistant: "assistant",
  gpt: "assistant",
  tool: "tool",
  observation: "tool",
  function: "tool",
  ipython: "tool",
};

export function readConversation(row: unknown, forced?: RowFormat): Conversation {
  const format = forced ?? detectRowFormat(row);
  if (!format || !isJsonObject(row))
    throw new RowFormatError("not a conversation row: expected `messages` or `conversations`", "");
  const turns: Turn[] = [];
  if (format === "sharegpt") {
    const conv = row.conversations;
    if (!Array.isArray(conv)) throw new RowFormatError("ShareGPT rows need a `conversations` list", "/conversations");
    conv.forEach((t, i) => {
      const pointer = `/conversations/${i}`;
      if (!isJsonObject(t) || typeof t.from !== "string")
        throw new RowFormatError("each turn needs a string `from`", pointer);
      const value = typeof t.value === "string" ? t.value : "";
      const turn: Turn = { role: "user", index: i, pointer, text: "", calls: [], responses: [], unreadable: [] };
      if (t.from === "function_call") {
        const r = callFromObjectText(value, `${pointer}/value`);
        Object.assign(turn, { role: "assistant", calls: r.calls, unreadable: r.unreadable });
      } else {
        const role = ROLE_ALIASES[t.from];
        if (!role) throw new RowFormatError(`unknown turn kind "${t.from}"`, `${pointer}/from`);
        turn.role = role;
        if (role === "tool") turn.responses = [value];
        else if (role === "assistant") Object.assign(turn, callsInText(value, `${pointer}/value`));
        else if (role === "user") {
          turn.responses = responsesInText(value);
          turn.text = value;
        } else turn.text = value;
      }
      turns.push(turn);
    });
    return { format, tools: readTools(row), turns };
  }
  const msgs = row.messages;
  if (!Array.isArray(msgs)) throw new RowFormatError("rows need a `messages` list", "/messages");
  msgs.forEach((m, i) => {
    const pointer = `/messages/${i}`;
    if (!isJsonObject(m) || typeof m.role !== "string")
      throw new RowFormatError("each message needs a string `role`", pointer);
    const role = ROLE_ALIASES[m.role];
    if (!role) throw new RowFormatError(`unknown role "${m.role}"`, `${pointer}/role`);
    const turn: Turn = { role, index: i, pointer, text: "", calls: [], responses: [], unreadable: [] };
    if (format === "llamafactory" && Array.isArray(m.content)) {
      m.content.forEach((p, j) => {
        if (!isJsonObject(p)) return;
        const value = typeof p.value === "string" ? p.value : "";
        if (p.type === "tool_call") {
          const r = callFromObjectText(value, `${pointer}/content/${j}/value`);
          turn.calls.push(...r.calls);
          turn.unreadable.push(...r.unreadable);
        } else turn.text += value;
      });
      if (role === "tool") turn.responses = splitResponses(turn.text);
    } else if (role === "tool") {
      turn.responses = [contentText(m.content)];
    } else if (role === "assistant") {
      const text = contentText(m.content);
      if (Array.isArray(m.tool_calls)) {
        turn.text = text;
        turn.contentWithCalls = text.trim().length > 0 && m.tool_calls.length > 0;
        m.tool_calls.forEach((tc, j) => {
          const p = `${pointer}/tool_calls/${j}`;
          const fn = isJsonObject(tc) && isJsonObject(tc.function) ? tc.function : undefined;
          if (!fn || typeof fn.name !== "string") {
            turn.unreadable.push(`${p}: a tool call needs function.name`);
            return;
          }
          let args: JsonValue = fn.arguments ?? {};
          const drift: string[] = [];
          if (typeof args === "string") {
            try {
              args = JSON.parse(args) as JsonValue;
            } catch {
              turn.unreadable.push(`${p}/function/arguments: not JSON`);
              return;
            }
          } else drift.push("ARGUMENTS_NOT_STRING");
          turn.calls.push({ name: fn.name, arguments: args, pointer: `${p}/function`, drift });
        });
      } else Object.assign(turn, callsInText(text, `${pointer}/content`));
    } else {
      turn.text = contentText(m.content);
      if (role === "user") turn.responses = responsesInText(turn.text);
    }
    turns.push(turn);
  });
  return { format, tools: readTools(row), turns };
}
