import type { FormatDescription } from "../FormatDescription.js";
import { jsonCallUnit, PLAIN_FIELDS } from "./plainFields.js";

/**
 * Granite 3.x: `<|tool_call|>[{"name": "f", "arguments": {…}}, …]` (vLLM's `granite` parser; the model writes a
 * space after the token, which tolerant parsing reads). Granite 3.1 may spell the token as the text `<tool_call>`
 * (vLLM's parser strips either): tolerant parsing reads it. Granite 4 writes Hermes blocks (the `qwen3` format).
 */
export const granite: FormatDescription = {
  ...PLAIN_FIELDS,
  name: "granite",
  family: "Granite 3.0 / 3.1 / 3.2 / 3.3",
  aliases: ["granite3", "Granite"],
  open: "<|tool_call|>",
  openVariants: ["<tool_call>"],
  close: null,
  specialTokens: ["<|tool_call|>"],
  grouping: "list",
  unit: jsonCallUnit("arguments"),
};

/** Granite-20B-FunctionCalling: `<function_call> {"name": "f", "arguments": {…}}` per call, blocks joined by `\n`. */
export const granite20bFc: FormatDescription = {
  ...PLAIN_FIELDS,
  name: "granite-20b-fc",
  family: "Granite-20B-FunctionCalling (`<function_call> {…}`)",
  aliases: ["granite_20b_fc"],
  open: "<function_call>",
  close: null,
  grouping: "block",
  afterOpen: " ",
  blockSeparator: "\n",
  unit: jsonCallUnit("arguments"),
};
