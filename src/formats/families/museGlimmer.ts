import type { FormatDescription } from "../FormatDescription.js";
import { plain } from "../descriptionParts.js";

/** Muse Glimmer's special tokens (llama.cpp's preserved tokens for the family): markers written as one token each. */
const MUSE_GLIMMER_TOKENS = ["<|start|>", "<|message|>", "<|eom|>", "<|eot|>"];

/**
 * Muse Glimmer (ATEM), as its chat template writes an assistant turn after the generation prompt `<|start|>assistant`:
 * messages ` to=RECIPIENT<|message|>…`, one after another joined by `<|eom|><|start|>assistant`. Text is the message
 * to `user`; each call is a message to its tool holding one `<atem:function_calls>` block that names the tool again
 * (`<atem:invoke name="NAME">`), with tagged parameters, strings raw and other values as JSON; reasoning is the
 * message to `self`, first, or several of them (read as one reasoning, their texts joined by a newline). llama.cpp reads the same turn (common_chat_params_init_muse_glimmer), text before calls
 * included (the template itself drops an assistant message's text when it has calls).
 */
export const museGlimmer: FormatDescription = {
  ...plain,
  name: "muse-glimmer",
  family: "Muse Glimmer (ATEM: ` to=NAME<|message|><atem:function_calls>…` messages, text ` to=user`)",
  // the name formatFromChatTemplate proposed before the format was described, and the template's own name
  aliases: ["muse_glimmer", "Muse Glimmer"],
  open: "<|eom|><|start|>assistant to=",
  close: "</atem:invoke>\n</atem:function_calls>",
  specialTokens: MUSE_GLIMMER_TOKENS,
  grouping: "block",
  messages: { text: "user<|message|>", first: " to=" },
  unit: {
    kind: "xml-parameters",
    recipient: { close: "<|message|>" },
    nameOpen: '<atem:function_calls>\n<atem:invoke name="',
    nameClose: '">\n',
    keyOpen: '<atem:parameter name="',
    keyClose: '">',
    valueClose: "</atem:parameter>\n",
    callClose: "",
  },
  // any number of messages to `self` before the answer, as llama.cpp reads them (`zero_or_more(start + analysis)`)
  reasoning: {
    open: " to=self<|message|>",
    close: "<|eom|><|start|>assistant to=",
    defaultMode: "optional",
    again: "self<|message|>",
  },
};
