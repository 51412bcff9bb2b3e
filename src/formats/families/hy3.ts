import type { FormatDescription } from "../FormatDescription.js";

/**
 * Hunyuan 3 (Hy3), as its chat template writes calls: GLM-4.5's tagged parameters with Hunyuan's own tags, all calls
 * in one section,
 * `<tool_calls:opensource>\n<tool_call:opensource>NAME<tool_sep:opensource>\n<arg_key:opensource>K</arg_key:opensource>\n<arg_value:opensource>V</arg_value:opensource>\n…</tool_call:opensource>\n</tool_calls:opensource>`;
 * string values raw, other values JSON (the template's `value | tojson` for non-strings). The template ends a turn
 * with calls with `<｜hy_eos:opensource｜>` (a final text turn without it). Reasoning is `<think:opensource>R</think:opensource>`
 * before the reply; the generation prompt writes an empty block unless `reasoning_effort` is low or high, when it
 * opens one for the model to close.
 */
export const hy3: FormatDescription = {
  name: "hy3",
  family: "Hunyuan 3 (GLM-style `<arg_key:opensource>` calls in a `<tool_calls:opensource>` section)",
  // vLLM: hy_v3 (its markers take the tokenizer's `token_suffix`, `:opensource` for Hy3)
  aliases: ["hy_v3"],
  section: { open: "<tool_calls:opensource>\n", close: "</tool_calls:opensource>" },
  open: "<tool_call:opensource>",
  close: "</tool_call:opensource>\n",
  startPrefixes: [],
  // the tags are Hy3's added tokens, but no Hy3 vocabulary is at hand to check them against: written as text
  specialTokens: [],
  grouping: "block",
  afterOpen: "",
  beforeClose: "",
  blockSeparator: "",
  callTurnEnd: "<｜hy_eos:opensource｜>",
  unit: {
    kind: "xml-parameters",
    nameOpen: "",
    nameClose: "<tool_sep:opensource>\n",
    keyOpen: "<arg_key:opensource>",
    keyClose: "</arg_key:opensource>\n<arg_value:opensource>",
    valueClose: "</arg_value:opensource>\n",
    callClose: "",
  },
  maxCalls: Infinity,
  reasoning: { open: "<think:opensource>", close: "</think:opensource>", defaultMode: "none" },
};
