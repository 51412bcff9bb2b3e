import type { FormatDescription } from "../FormatDescription.js";
import { jsonCallUnit, PLAIN_FIELDS } from "./plainFields.js";

/**
 * InternLM2 / 2.5: `<|action_start|><|plugin|>\n{"name": "f", "parameters": {…}}<|action_end|>`, one call per turn
 * (vLLM's `internlm` parser reads one; the model's template writes the newline after `<|plugin|>`).
 */
export const internlm2: FormatDescription = {
  ...PLAIN_FIELDS,
  name: "internlm2",
  family: "InternLM2 / 2.5 (one call per turn)",
  aliases: ["internlm", "internlm2_5"],
  open: "<|action_start|><|plugin|>",
  close: "<|action_end|>",
  specialTokens: ["<|action_start|>", "<|plugin|>", "<|action_end|>"],
  grouping: "block",
  afterOpen: "\n",
  unit: jsonCallUnit("parameters"),
  maxCalls: 1,
};
