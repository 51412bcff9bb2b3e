import type { FormatDescription } from "../FormatDescription.js";
import { PLAIN_FIELDS } from "./plainFields.js";

/**
 * Cohere Command R7B and Cohere2 MoE: the calls are a JSON list between `<|START_ACTION|>` and `<|END_ACTION|>`,
 * one object a line, each `{"tool_call_id": "ID", "tool_name": "NAME", "parameters": {…}}`, as their chat templates
 * render them:
 * `<|START_ACTION|>[\n    {…},\n    {…}\n]<|END_ACTION|>` (the section holds the list; its elements are the blocks).
 * The templates number the ids "0", "1", … across the conversation (whatever ids the calls carry); the grammar lets
 * the model write any id of up to 6 digits, or none, and `renderToolCalls` writes a call's id when it has one (pass
 * the numbers to get the templates' text). Reasoning is `<|START_THINKING|>R<|END_THINKING|>` (R7B's template writes the block, empty when
 * there is no reasoning, before every call turn; Cohere2 MoE's generation prompt opens it). The markers are special
 * tokens of the family's vocabulary (llama.cpp's Cohere2 MoE handler preserves them as tokens).
 */
export const commandR7b: FormatDescription = {
  ...PLAIN_FIELDS,
  name: "command-r7b",
  family: "Cohere Command R7B, Cohere2 MoE (`<|START_ACTION|>[…]<|END_ACTION|>`)",
  // llama.cpp's chat format "Command R7B" and the template's proposed name
  aliases: ["command_r7b", "Command R7B"],
  grouping: "block",
  section: { open: "<|START_ACTION|>[\n    ", close: "\n]<|END_ACTION|>" },
  open: null,
  close: null,
  blockSeparator: ",\n    ",
  specialTokens: ["<|START_ACTION|>", "<|END_ACTION|>", "<|START_THINKING|>", "<|END_THINKING|>"],
  unit: {
    kind: "json-object",
    nameKey: "tool_name",
    argumentsKey: "parameters",
    argumentsAliases: ["arguments"],
    idKey: "tool_call_id",
    idPosition: "first",
    idForm: { alphabet: "digits", minLength: 1, maxLength: 6 },
    argumentsEncoding: "object",
  },
  reasoning: { open: "<|START_THINKING|>", close: "<|END_THINKING|>", defaultMode: "optional" },
};
