import { ToolgramError } from "../errors.js";
import type { JsonValue } from "../json.js";

/** Block tags that wrap a tool list in prompts: Hermes/Qwen `<tools>`, seed-style `<tools_input>`. */
const BLOCK = /<(tools|tools_input)>([\s\S]*?)<\/\1>/;

/**
 * The tools in a text: the content of a `<tools>…</tools>` or `<tools_input>…</tools_input>` block when there is
 * one, else the whole text. The content is one JSON value (an array or `{tools: [...]}`) or a sequence of JSON
 * values separated by whitespace (Qwen's chat template writes one tool object per line). Returns the values found.
 */
export function parseToolsText(text: string): JsonValue[] {
  const m = BLOCK.exec(text);
  const body = m ? m[2] : text;
  const values: JsonValue[] = [];
  let i = 0;
  for (;;) {
    while (i < body.length && /\s/.test(body[i])) i++;
    if (i >= body.length) break;
    const end = endOfJsonValue(body, i);
    if (end < 0) {
      throw new ToolgramError(
        "INVALID_INPUT",
        `the tool text is not JSON at offset ${i + (m ? m.index + m[1].length + 2 : 0)}; give a JSON array of tools or one JSON object per line`,
      );
    }
    try {
      values.push(JSON.parse(body.slice(i, end)) as JsonValue);
    } catch (e) {
      throw new ToolgramError("INVALID_INPUT", `the tool text is not valid JSON: ${(e as Error).message}`, "", {
        cause: e,
      });
    }
    i = end;
  }
  if (values.length === 0)
    throw new ToolgramError("INVALID_INPUT", "the tool text contains no JSON; give a JSON array of tools");
  return values;
}

/** End offset of the object/array starting at `start` (brackets balanced outside strings), or -1. */
function endOfJsonValue(s: string, start: number): number {
  const open = s[start];
  if (open !== "{" && open !== "[") return -1;
  let depth = 0;
  let inString = false;
  for (let i = start; i < s.length; i++) {
    const c = s[i];
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === "{" || c === "[") depth++;
    else if (c === "}" || c === "]") {
      if (--depth === 0) return i + 1;
    }
  }
  return -1;
}
