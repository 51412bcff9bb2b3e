import { ToolgramError } from "../errors.js";
import { canonicalJson, type JsonValue } from "../json.js";
import type { FormatName } from "../formats/FormatName.js";
import { callId, type ConvertibleCall } from "./ConvertibleCall.js";

/**
 * A chat turn carrying tool results, in a format's own role and spelling. Exported from `toolgram`: {@link
 * renderToolResponses} returns it.
 */
export interface ResponseTurn {
  /**
   * The turn's role as the format's template expects it (Qwen3 `user`, Mistral `tool`, Llama 3 `ipython`, Glaive
   * `function`).
   */
  role: "user" | "tool" | "ipython" | "function";
  /** The turn's text: the result (strings as written, other values as canonical JSON) in the format's own wrapping. */
  content: string;
  /** For formats whose result turns name the call they answer. */
  toolCallId?: string;
}

function text(result: JsonValue): string {
  return typeof result === "string" ? result : canonicalJson(result);
}

/**
 * The turns that carry `results` back to the model, `results[i]` answering `calls[i]` (matched by position, as the
 * chat templates do). Qwen3: one user turn of `<tool_response>\n…\n</tool_response>` blocks joined by `\n`.
 * Strings are written as they are, other values as canonical JSON. Throws ToolgramError INVALID_INPUT when the
 * counts differ.
 */
export function renderToolResponses(
  calls: readonly ConvertibleCall[],
  results: readonly JsonValue[],
  format: FormatName = "qwen3",
): ResponseTurn[] {
  if (calls.length !== results.length) {
    throw new ToolgramError(
      "INVALID_INPUT",
      `${results.length} result(s) for ${calls.length} call(s); give one result per call, in call order`,
    );
  }
  switch (format) {
    case "qwen3":
      if (results.length === 0) return [];
      return [
        { role: "user", content: results.map((r) => `<tool_response>\n${text(r)}\n</tool_response>`).join("\n") },
      ];
    case "mistral":
      return results.map((r, i) => {
        const id = callId(calls[i], i, "call_");
        return {
          role: "tool",
          toolCallId: id,
          content: `[TOOL_RESULTS]${canonicalJson({ call_id: id, content: r })}[/TOOL_RESULTS]`,
        };
      });
    case "glaive":
      return results.map((r) => ({ role: "function", content: `FUNCTION RESPONSE: ${text(r)}` }));
    case "llama3-json":
    case "pythonic":
      return results.map((r) => ({ role: "ipython", content: text(r) }));
    case "tools-array":
      return results.map((r, i) => ({ role: "tool", toolCallId: callId(calls[i], i, "call_"), content: text(r) }));
    default:
      throw new ToolgramError(
        "INVALID_OPTION",
        `no tool-response turn is defined for format ${JSON.stringify(format)}`,
      );
  }
}

const RESPONSE_BLOCK = /<tool_response>\n?([^]*?)\n?<\/tool_response>/g;

/** The results in a Qwen3 user turn of `<tool_response>` blocks, in order (text as written). */
export function parseQwen3ToolResponses(content: string): string[] {
  return [...content.matchAll(RESPONSE_BLOCK)].map((m) => m[1]);
}
