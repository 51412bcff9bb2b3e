import type { FormatDescription } from "../FormatDescription.js";
import { PLAIN_FIELDS } from "./plainFields.js";

/**
 * OLMo 3 (Ai2), as vLLM's `olmo3` parser reads calls: `<function_calls>` then one Python call a line,
 * `get_weather(city="Paris", days=3)`, then `</function_calls>`: a list without brackets (FormatDescription.list).
 * vLLM's reader takes Python literals and JSON's `true` / `false` / `null` alike, strings in either quote; the
 * canonical spelling is the pythonic format's (JSON strings, `True` / `False` / `None`). OLMo 3's chat templates write
 * a turn's calls from a preformatted `function_calls` text, not from `tool_calls`, so no template shows the layout:
 * this is the parser's. Reasoning: OLMo 3 Think's generation prompt ends `<|im_start|>assistant\n<think>`, so its turn
 * starts inside the reasoning, which `</think>` ends (vLLM's olmo3 reasoning parser: an optional `<think>`, the
 * reasoning, `</think>`, the rest; both are plain text in OLMo 3's vocabulary). The Instruct models' prompt opens no
 * block, hence no reasoning by default: `reasoning: "required"` reads and writes the Think models' turns.
 */
export const olmo3: FormatDescription = {
  ...PLAIN_FIELDS,
  name: "olmo-3",
  family: "OLMo 3 (Python calls one per line in `<function_calls>`; Think: reasoning opened by the prompt's `<think>`)",
  // vLLM: olmo3
  aliases: ["olmo3"],
  open: "<function_calls>",
  close: "</function_calls>",
  grouping: "list",
  list: { open: "", separator: "\n", close: "" },
  unit: { kind: "python-call" },
  reasoning: { open: "", close: "</think>", defaultMode: "none" },
};
