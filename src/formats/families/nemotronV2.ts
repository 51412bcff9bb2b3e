import type { FormatDescription } from "../FormatDescription.js";
import { jsonObject, plain } from "../descriptionParts.js";

/**
 * NVIDIA Nemotron Nano v2: `<TOOLCALL>[{"name": "f", "arguments": {…}}, …]</TOOLCALL>`, as its chat template writes
 * the calls (the template's reasoning opens in the generation prompt and is not shown in the history).
 */
export const nemotronV2: FormatDescription = {
  ...plain,
  name: "nemotron-v2",
  family: "NVIDIA Nemotron Nano v2 (`<TOOLCALL>[…]</TOOLCALL>`)",
  // the proposed name formatFromChatTemplate gave the layout, and llama.cpp's former chat-format name
  aliases: ["nemotron_v2", "Nemotron V2"],
  open: "<TOOLCALL>",
  close: "</TOOLCALL>",
  grouping: "list",
  unit: jsonObject("arguments"),
};
