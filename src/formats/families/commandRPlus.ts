import type { FormatDescription } from "../FormatDescription.js";
import { PLAIN_FIELDS } from "./plainFields.js";

/**
 * Cohere Command R+ (its tool-use chat template): the calls are a JSON list in a Markdown code fence after `Action:`,
 * laid out as Python's `json.dumps(indent=4)` lays out the list, as the template renders it:
 * `\nAction:\n```json\n[\n    {\n        "tool_name": "NAME",\n        "parameters": {\n            "k": "v"\n        }\n    }\n]```\n`
 * (the section holds the list; its elements are the blocks, the arguments one depth deeper). The template writes
 * the turn's text (trimmed) before `\nAction:` and no end-of-turn token after the fence, and no ids or reasoning.
 */
export const commandRPlus: FormatDescription = {
  ...PLAIN_FIELDS,
  name: "command-r-plus",
  family: "Cohere Command R+ (`Action:` and a JSON code fence, the calls as indented JSON)",
  aliases: ["command_r_plus"],
  grouping: "block",
  section: { open: "\nAction:\n```json\n[\n    ", close: "\n]```\n" },
  open: null,
  close: null,
  blockSeparator: ",\n    ",
  unit: {
    kind: "json-object",
    nameKey: "tool_name",
    argumentsKey: "parameters",
    argumentsAliases: ["arguments"],
    idKey: null,
    argumentsEncoding: "object",
    indent: { width: 4, depth: 1 },
  },
};
