import type { JsonValue } from "../json.js";

/** Row formats the validator reads (the `input` option). Exported from `toolgram` for that option. */
export type RowFormat = "openai" | "qwen3" | "sharegpt" | "llamafactory";

/** A call as written in the row, before validation. */
export interface RowCall {
  /** Text of the call in the row's own spelling (a `<tool_call>` block, a function_call value, or OpenAI fields). */
  name: string;
  /** The arguments as the row gives them: an object, or the raw string when it is not JSON. */
  arguments: JsonValue;
  /** JSON Pointer of the call in the row. */
  pointer: string;
  /** Codes of the parser's repairs when the call is not spelled as the grammar would produce it. */
  drift: string[];
}

export interface Turn {
  role: "system" | "user" | "assistant" | "tool";
  index: number;
  pointer: string;
  /** Visible text (reasoning included), call blocks removed. */
  text: string;
  calls: RowCall[];
  /** Tool responses this turn carries (a tool message: 1; a user turn of `<tool_response>` blocks: their count). */
  responses: string[];
  /** Calls that could not be read at all (messages for the report). */
  unreadable: string[];
  /** OpenAI only: content and tool_calls both present. */
  contentWithCalls?: boolean;
}

/** A row reduced to what every check needs. */
export interface Conversation {
  format: RowFormat;
  /** The tool declarations as given (parsed from a string where the format stores them as one). */
  tools: unknown[];
  turns: Turn[];
}
