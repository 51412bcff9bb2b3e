import type { FormatDescription } from "../FormatDescription.js";
import { PLAIN_FIELDS } from "./plainFields.js";

/**
 * Apertus: `<|tools_prefix|>[{"NAME": {…}}, …]<|tools_suffix|>`, each call an object whose one key is the tool's
 * name and whose value is the arguments (no call ids), as its chat template renders calls and llama.cpp's Apertus
 * parser reads them. The markers are written as text: no Apertus vocabulary is at hand to check them as tokens.
 */
export const apertus: FormatDescription = {
  ...PLAIN_FIELDS,
  name: "apertus",
  family: 'Apertus (`<|tools_prefix|>[{"NAME": {…}}]<|tools_suffix|>`)',
  // llama.cpp's chat format "Apertus"
  aliases: ["Apertus"],
  open: "<|tools_prefix|>",
  close: "<|tools_suffix|>",
  grouping: "list",
  unit: {
    kind: "json-object",
    nameKey: null,
    argumentsKey: "arguments",
    argumentsAliases: [],
    idKey: null,
    argumentsEncoding: "object",
  },
};
