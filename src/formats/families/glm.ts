import type { FormatDescription } from "../FormatDescription.js";

/**
 * GLM-4.5 / 4.6 (and Laguna XS, which writes the same calls): each call is
 * `<tool_call>NAME\n<arg_key>K</arg_key>\n<arg_value>V</arg_value>\n…</tool_call>`, blocks joined by `\n`; string
 * values raw, other values JSON (as the templates' `v if v is string else v | tojson` writes them). GLM-4.6's
 * template writes the reasoning block as `\n<think>R</think>\n` (an empty one when there is none) after the prompt
 * `<|assistant|>`. `<tool_call>` and `</tool_call>` are single tokens of GLM's vocabulary, like Qwen's.
 */
export const glm45: FormatDescription = {
  name: "glm-4.5",
  family: "GLM-4.5 / 4.6, Laguna XS (`<tool_call>NAME\\n<arg_key>K</arg_key>\\n<arg_value>V</arg_value>…`)",
  // vLLM: glm45 (GLM-4.5 and 4.6); llama.cpp's former chat-format name "GLM 4.5"
  aliases: ["glm45", "GLM 4.5"],
  open: "<tool_call>",
  close: "</tool_call>",
  startPrefixes: [],
  specialTokens: ["<tool_call>", "</tool_call>"],
  grouping: "block",
  afterOpen: "",
  beforeClose: "",
  blockSeparator: "\n",
  unit: {
    kind: "xml-parameters",
    nameOpen: "",
    nameClose: "\n",
    keyOpen: "<arg_key>",
    keyClose: "</arg_key>\n<arg_value>",
    valueClose: "</arg_value>\n",
    callClose: "",
  },
  maxCalls: Infinity,
  reasoning: { open: "\n<think>", close: "</think>\n", defaultMode: "optional" },
};

/**
 * GLM-4.7 (and Laguna S): GLM-4.5's calls without the newlines,
 * `<tool_call>NAME<arg_key>K</arg_key><arg_value>V</arg_value>…</tool_call>`, blocks written one after another. The
 * template's generation prompt `<|assistant|><think>` opens the reasoning, which the model ends with `</think>`
 * (formatFromChatTemplate reads that as `reasoning: "required"` with an empty opening); without the template the
 * block is off by default, and written `<think>R</think>` when asked for.
 */
export const glm47: FormatDescription = {
  ...glm45,
  name: "glm-4.7",
  family: "GLM-4.7, Laguna S (GLM-4.5's calls without newlines)",
  // vLLM: glm47
  aliases: ["glm47"],
  blockSeparator: "",
  unit: {
    kind: "xml-parameters",
    nameOpen: "",
    nameClose: "",
    keyOpen: "<arg_key>",
    keyClose: "</arg_key><arg_value>",
    valueClose: "</arg_value>",
    callClose: "",
  },
  reasoning: { open: "<think>", close: "</think>", defaultMode: "none" },
};
