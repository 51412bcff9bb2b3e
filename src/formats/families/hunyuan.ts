import type { FormatDescription } from "../FormatDescription.js";
import { jsonCallUnit, PLAIN_FIELDS } from "./plainFields.js";

/**
 * Hunyuan A13B and Jamba: `<tool_calls>[{"name": "f", "arguments": {…}}, …]</tool_calls>` (vLLM's `hunyuan_a13b`
 * and `jamba` parsers read the same text; Jamba's template puts newlines inside the list, which tolerant parsing
 * reads).
 */
export const hunyuanA13b: FormatDescription = {
  ...PLAIN_FIELDS,
  name: "hunyuan-a13b",
  family: "Hunyuan A13B, Jamba (`<tool_calls>[…]</tool_calls>`)",
  // llama.cpp's former chat-format name "Apriel 1.5": Apriel's templates write these calls (with a newline before them)
  aliases: ["hunyuan_a13b", "jamba", "Apriel 1.5"],
  open: "<tool_calls>",
  close: "</tool_calls>",
  grouping: "list",
  unit: jsonCallUnit("arguments"),
};
