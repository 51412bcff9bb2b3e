import type { FormatDescription } from "../FormatDescription.js";
import { PLAIN_FIELDS } from "./plainFields.js";

/**
 * MiniCPM 5: `<function name="NAME"><param name="K">V</param>…</function>`, calls joined by `\n`, string values raw
 * and others JSON (the xml-parameters unit), as its chat template renders them; reasoning is Qwen3's `<think>` block,
 * which the template's generation prompt opens.
 */
export const minicpm5: FormatDescription = {
  ...PLAIN_FIELDS,
  name: "minicpm5",
  family: "MiniCPM 5 (`<function name=…><param name=…>`)",
  aliases: ["MiniCPM5"],
  open: '<function name="',
  close: "</function>",
  grouping: "block",
  blockSeparator: "\n",
  unit: {
    kind: "xml-parameters",
    nameOpen: "",
    nameClose: '">',
    keyOpen: '<param name="',
    keyClose: '">',
    valueClose: "</param>",
    callClose: "",
  },
  reasoning: { open: "<think>\n", close: "\n</think>\n\n", defaultMode: "none" },
};
