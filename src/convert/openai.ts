import { ToolgramError } from "../errors.js";
import { isJsonObject } from "../json.js";
import { parseLenientJson } from "../parser/lenientJson.js";
import { callId, type ConvertibleCall } from "./ConvertibleCall.js";

/** An entry of an OpenAI chat completion's `message.tool_calls`. */
export interface OpenAIToolCall {
  /** The call id: the call's own, else minted `call_0000`, `call_0001`… by position. */
  id: string;
  /** The tool kind, always `"function"`. */
  type: "function";
  /** The tool's name and its arguments as a JSON text (`JSON.stringify` of the arguments object). */
  function: { name: string; arguments: string };
}

/** Calls as OpenAI `tool_calls`: arguments as a JSON string, ids minted `call_0000`, `call_0001`… unless given. */
export function toOpenAIToolCalls(calls: readonly ConvertibleCall[]): OpenAIToolCall[] {
  return calls.map((c, i) => ({
    id: callId(c, i, "call_"),
    type: "function",
    function: { name: c.name, arguments: JSON.stringify(c.arguments) },
  }));
}

/**
 * OpenAI `tool_calls` back to calls. Throws ToolgramError INVALID_INPUT when an entry has no function name or its
 * arguments are not a JSON object text (parse model output with parseToolCalls instead, which never throws).
 */
export function fromOpenAIToolCalls(toolCalls: readonly unknown[]): ConvertibleCall[] {
  return toolCalls.map((t, i) => {
    const f = isJsonObject(t) && isJsonObject(t.function) ? t.function : undefined;
    if (!f || typeof f.name !== "string") {
      throw new ToolgramError("INVALID_INPUT", `tool_calls[${i}] needs function.name (a string)`, `/${i}`);
    }
    const raw = f.arguments;
    let args: unknown = raw ?? {};
    if (typeof raw === "string") {
      const r = parseLenientJson(raw);
      args = r.ok && raw.slice(r.end).trim() === "" ? r.value : undefined;
    }
    if (!isJsonObject(args)) {
      throw new ToolgramError(
        "INVALID_INPUT",
        `tool_calls[${i}].function.arguments must be a JSON object text`,
        `/${i}/function/arguments`,
      );
    }
    const call: ConvertibleCall = { name: f.name, arguments: args };
    if (isJsonObject(t) && typeof t.id === "string") call.id = t.id;
    return call;
  });
}
