import { canonicalJson, isJsonObject, type JsonObject, type JsonValue } from "../json.js";
import { renderToolCalls } from "../parser/renderToolCalls.js";
import type { Conversation, RowCall, Turn } from "./Conversation.js";

function asArgs(v: JsonValue): JsonObject {
  return isJsonObject(v) ? v : {};
}

function callObjectText(c: RowCall): string {
  return canonicalJson({ name: c.name, arguments: c.arguments });
}

/** An assistant text in Qwen3's rendering: the text, a newline, then the call blocks. */
export function qwen3AssistantText(turn: Pick<Turn, "text" | "calls">): string {
  const text = turn.text.trim();
  if (!turn.calls.length) return text;
  const blocks = renderToolCalls(
    turn.calls.map((c) => ({ name: c.name, arguments: asArgs(c.arguments) })),
    "qwen3",
  );
  return text ? `${text}\n${blocks}` : blocks;
}

function setAt(row: JsonValue, pointer: string, value: JsonValue): void {
  const parts = pointer
    .split("/")
    .slice(1)
    .map((p) => p.replace(/~1/g, "/").replace(/~0/g, "~"));
  let cur = row as Record<string, JsonValue> | JsonValue[];
  for (const p of parts.slice(0, -1)) cur = (cur as Record<string, JsonValue>)[p] as Record<string, JsonValue>;
  (cur as Record<string, JsonValue>)[parts[parts.length - 1]] = value;
}

/**
 * Rewrites the calls of a row into the canonical spelling of its own format, changing nothing else: the values of
 * names and arguments are the ones the parser read, so what each call means is unchanged. Returns a new row.
 */
export function rewriteRowCanonical(row: JsonValue, conv: Conversation): JsonValue {
  const out = JSON.parse(JSON.stringify(row)) as JsonValue;
  for (const turn of conv.turns) {
    if (!turn.calls.length) continue;
    if (
      conv.format === "qwen3" ||
      (conv.format === "sharegpt" && turn.calls[0].pointer.endsWith("/value") && !isFunctionCallTurn(row, turn))
    ) {
      setAt(out, turn.calls[0].pointer, qwen3AssistantText(turn));
      continue;
    }
    for (const c of turn.calls) {
      if (conv.format === "openai") setAt(out, `${c.pointer}/arguments`, canonicalJson(c.arguments));
      else setAt(out, c.pointer, callObjectText(c));
    }
  }
  return out;
}

function isFunctionCallTurn(row: JsonValue, turn: Turn): boolean {
  const conv = isJsonObject(row) && Array.isArray(row.conversations) ? row.conversations : [];
  const t = conv[turn.index];
  return isJsonObject(t) && t.from === "function_call";
}

export type ConvertTarget = "qwen3" | "openai" | "sharegpt";

/**
 * Converts a conversation into another row format. Lossless for names, arguments, texts and responses; call ids are
 * minted (`call_<turn>_<k>`) where the source has none; ShareGPT writes parallel calls as one function_call turn whose
 * value is a JSON list.
 */
export function convertConversation(conv: Conversation, to: ConvertTarget): JsonObject {
  const tools = conv.tools as JsonValue[];
  if (to === "qwen3") {
    const messages: JsonObject[] = [];
    for (const t of conv.turns) {
      if (
        t.role === "tool" ||
        (t.role === "user" && t.responses.length && conv.format !== "qwen3" && conv.format !== "sharegpt")
      ) {
        const blocks = t.responses.map((r) => `<tool_response>\n${r}\n</tool_response>`).join("\n");
        const last = messages[messages.length - 1];
        // consecutive tool responses share one user turn, as Qwen3's chat template renders them
        if (
          last &&
          last.role === "user" &&
          typeof last.content === "string" &&
          last.content.startsWith("<tool_response>")
        )
          last.content += `\n${blocks}`;
        else messages.push({ role: "user", content: blocks });
      } else if (t.role === "assistant") messages.push({ role: "assistant", content: qwen3AssistantText(t) });
      else messages.push({ role: t.role, content: t.text });
    }
    return { messages, tools };
  }
  if (to === "openai") {
    const messages: JsonObject[] = [];
    const pendingIds: string[] = [];
    for (const t of conv.turns) {
      if (t.role === "assistant") {
        const ids = t.calls.map((_, k) => `call_${t.index}_${k}`);
        pendingIds.push(...ids);
        const m: JsonObject = { role: "assistant", content: t.text.trim() || null };
        if (t.calls.length) {
          m.tool_calls = t.calls.map((c, k) => ({
            id: ids[k],
            type: "function",
            function: { name: c.name, arguments: canonicalJson(c.arguments) },
          }));
        }
        messages.push(m);
      } else if (t.responses.length && (t.role === "tool" || t.role === "user")) {
        for (const r of t.responses)
          messages.push({ role: "tool", tool_call_id: pendingIds.shift() ?? "", content: r });
      } else messages.push({ role: t.role, content: t.text });
    }
    return { messages, tools };
  }
  const conversations: JsonObject[] = [];
  for (const t of conv.turns) {
    if (t.role === "assistant") {
      if (t.text.trim()) conversations.push({ from: "gpt", value: t.text.trim() });
      if (t.calls.length === 1) conversations.push({ from: "function_call", value: callObjectText(t.calls[0]) });
      else if (t.calls.length > 1)
        conversations.push({
          from: "function_call",
          value: canonicalJson(t.calls.map((c) => ({ name: c.name, arguments: c.arguments }))),
        });
    } else if (t.responses.length && (t.role === "tool" || t.role === "user")) {
      for (const r of t.responses) conversations.push({ from: "observation", value: r });
    } else conversations.push({ from: t.role === "user" ? "human" : t.role, value: t.text });
  }
  return { conversations, tools: canonicalJson(tools) };
}
