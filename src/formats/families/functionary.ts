import type { FormatDescription } from "../FormatDescription.js";
import { plain } from "../descriptionParts.js";

/**
 * Functionary v3.1 (on Llama 3.1), as its chat template writes calls: `<function=NAME>{…}</function>` per call, one
 * after another, then `<|eom_id|>` (Llama 3.1's end of a message that awaits a tool's result; a turn of text ends
 * `<|eot_id|>`). The template writes a call to a tool named `python` as `<|python_tag|>` and its arguments instead,
 * which this description does not cover.
 */
export const functionaryV31: FormatDescription = {
  ...plain,
  name: "functionary-v3.1",
  family: "Functionary v3.1 (Llama 3.1, `<function=NAME>{…}</function>`)",
  // the template's proposed name, and llama.cpp's former chat-format name
  aliases: ["functionary_v3_1", "Functionary v3.1 Llama 3.1"],
  open: "<function=",
  close: "</function>",
  grouping: "block",
  callTurnEnd: "<|eom_id|>",
  unit: { kind: "named-json", nameClose: ">", argumentsClose: "" },
};
