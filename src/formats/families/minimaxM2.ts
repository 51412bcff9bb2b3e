import type { FormatDescription } from "../FormatDescription.js";
import { PLAIN_FIELDS } from "./plainFields.js";

/**
 * MiniMax M2 (and M2.1), as its chat template renders calls: one section
 * `\n<minimax:tool_call>\n` … `\n</minimax:tool_call>` holding every call of the turn, each call
 * `<invoke name="NAME">\n<parameter name="K">V</parameter>\n…</invoke>`, calls joined by `\n`; string values raw and
 * other values JSON (the template's `v | tojson if v is not string else v`), typed by the parameter's schema. The
 * section's leading `\n` is the template's (`'\n' ~ toolcall_begin_token`): after text it ends the text's line.
 * The generation prompt opens `<think>\n`; the model closes the block with `\n</think>\n\n`.
 */
export const minimaxM2: FormatDescription = {
  ...PLAIN_FIELDS,
  name: "minimax-m2",
  family: "MiniMax M2 / M2.1 (`<minimax:tool_call>` around `<invoke name=…><parameter name=…>` calls)",
  // vLLM: minimax_m2; llama.cpp's chat format "MiniMax-M2"
  aliases: ["minimax_m2", "MiniMax-M2"],
  // single tokens of MiniMax's vocabulary (vLLM's minimax_m2 parser looks their ids up)
  specialTokens: ["<minimax:tool_call>", "</minimax:tool_call>"],
  grouping: "block",
  section: { open: "\n<minimax:tool_call>\n", close: "\n</minimax:tool_call>" },
  open: '<invoke name="',
  close: "</invoke>",
  blockSeparator: "\n",
  unit: {
    kind: "xml-parameters",
    nameOpen: "",
    nameClose: '">\n',
    keyOpen: '<parameter name="',
    keyClose: '">',
    valueClose: "</parameter>\n",
    callClose: "",
  },
  reasoning: { open: "<think>\n", close: "\n</think>\n\n", defaultMode: "none" },
};
