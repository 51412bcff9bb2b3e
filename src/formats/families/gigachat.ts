import type { FormatDescription } from "../FormatDescription.js";
import { jsonCallUnit, PLAIN_FIELDS } from "./plainFields.js";

/**
 * GigaChat 3: the call is a message of its own, `<|message_sep|>\n\nfunction call<|role_sep|>\n{"name": …,
 * "arguments": …}`, one per turn (as its chat template renders the assistant's call).
 */
export const gigachat3: FormatDescription = {
  ...PLAIN_FIELDS,
  name: "gigachat3",
  family: "GigaChat 3 (a `function call` message, one call per turn)",
  open: "<|message_sep|>\n\nfunction call<|role_sep|>\n",
  close: null,
  specialTokens: ["<|message_sep|>", "<|role_sep|>"],
  grouping: "block",
  unit: jsonCallUnit("arguments"),
  maxCalls: 1,
};

/** GigaChat 3.1: `<|function_call|>{"name": …, "arguments": …}`, one call per turn. */
export const gigachat31: FormatDescription = {
  ...PLAIN_FIELDS,
  name: "gigachat3-1",
  family: "GigaChat 3.1 (one call per turn)",
  aliases: ["gigachat3_1", "gigachat3.1"],
  open: "<|function_call|>",
  close: null,
  specialTokens: ["<|function_call|>"],
  grouping: "block",
  unit: jsonCallUnit("arguments"),
  maxCalls: 1,
};
