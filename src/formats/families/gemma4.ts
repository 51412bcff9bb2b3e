import type { FormatDescription } from "../FormatDescription.js";

/**
 * Google Gemma 4: each call is `<|tool_call>call:NAME{k:v,…}<tool_call|>`, blocks written one after another, the
 * arguments in Gemma 4's own syntax (Gemma4CallUnit: strings between `<|"|>`, bare keys in `dictsort` order), as its
 * chat template writes history and as llama.cpp's parser (chat format `peg-gemma4`) reads the model's output (vLLM
 * names its parser `gemma4`). Reasoning is the thought channel `<|channel>thought\n…<channel|>`, which the model opens itself when
 * thinking is enabled (without it the generation prompt writes an empty one). The markers are the ones llama.cpp
 * keeps as special tokens for Gemma 4 (its `preserved_tokens`), plus `<|tool_response>` and the string delimiter
 * `<|"|>`, each one token of Gemma 4's vocabulary.
 *
 * The reply ends with its last call, as llama.cpp's parser reads it. The main template
 * (`google-gemma-4-31B-it.jinja`) then writes `<|tool_response>`, the marker that hands the turn to the tool: the
 * model writes it to stop (an end-of-generation token; a tool result follows it), so it is the call turn's end
 * (`callTurnEnd`), not part of the calls. The interleaved-thinking template ends a call turn with `<turn|>`, as a
 * turn of text. The main template closes reasoning with `\n<channel|>`, the interleaved one and llama.cpp's outputs
 * with `<channel|>` (the description's; a template's own spacing comes from formatFromChatTemplate).
 */
export const gemma4: FormatDescription = {
  name: "gemma4",
  family: "Google Gemma 4",
  // vLLM: gemma4 (the name itself); llama.cpp's chat format: peg-gemma4
  aliases: ["peg-gemma4"],
  open: "<|tool_call>",
  close: "<tool_call|>",
  startPrefixes: [],
  // `<|"|>` is one token of Gemma 4's vocabulary too (llama.cpp's models/ggml-vocab-gemma-4.gguf: user-defined, id 52),
  // which the model writes for the delimiter: a token node, or the matcher would refuse it inside every string
  specialTokens: ["<|tool_call>", "<tool_call|>", "<|channel>", "<channel|>", "<|tool_response>", '<|"|>'],
  grouping: "block",
  afterOpen: "",
  beforeClose: "",
  blockSeparator: "",
  callTurnEnd: "<|tool_response>",
  unit: { kind: "gemma4-call", namePrefix: "call:", stringDelimiter: '<|"|>' },
  maxCalls: Infinity,
  reasoning: { open: "<|channel>thought\n", close: "<channel|>", defaultMode: "optional" },
};
