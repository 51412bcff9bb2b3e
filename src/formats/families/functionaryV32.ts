import type { FormatDescription } from "../FormatDescription.js";
import { plain } from "../descriptionParts.js";

/**
 * Functionary v3.2 (on Llama 3.1), as its chat template writes a turn: messages `>>>RECIPIENT\n…`, text to `all`
 * (`>>>all\nTEXT`), a call to its tool (`>>>NAME\n{…}`, the arguments as the template's JSON string), the generation
 * prompt ending with the first `>>>`. llama.cpp reads the same turn (common_chat_params_init_functionary_v3_2).
 */
export const functionaryV32: FormatDescription = {
  ...plain,
  name: "functionary-v3.2",
  family: "Functionary v3.2 (Llama 3.1, `>>>NAME\\n{…}` messages, text `>>>all\\n…`)",
  // the template's proposed name, and llama.cpp's former chat-format name
  aliases: ["functionary_v3_2", "Functionary v3.2"],
  open: ">>>",
  close: null,
  grouping: "block",
  messages: { text: "all\n" },
  unit: { kind: "named-json", nameClose: "\n", argumentsClose: "" },
};
