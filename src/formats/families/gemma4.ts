import type { FormatDescription } from "../FormatDescription.js";

/**
 * Google Gemma 4: each call is `<|tool_call>call:NAME{k:v,…}<tool_call|>`, blocks written one after another, the
 * arguments in Gemma 4's own syntax (Gemma4CallUnit: strings between `<|"|>`, bare keys in `dictsort` order), as its
 * chat template writes history and as llama.cpp's parser (`peg-gemma4`) and vLLM's `gemma4` parser read the model's
 * output. Reasoning is the thought channel `<|channel>thought\n…<channel|>`, which the model opens itself when
 * thinking is enabled (without it the generation prompt writes an empty one). The markers are the ones llama.cpp
 * keeps as special tokens for Gemma 4 (its `preserved_tokens`), plus `<|tool_response>`.
 *
 * `gemma4`: the reply ends with its last call, as llama.cpp's parser reads it and as the `-interleaved` template
 * writes history (the turn then ends with `<turn|>`).
 */
export const gemma4: FormatDescription = {
  name: "gemma4",
  family: "Google Gemma 4 (interleaved-thinking template; as llama.cpp parses it)",
  // vLLM: gemma4 (the name itself); llama.cpp's chat format: peg-gemma4
  aliases: ["peg-gemma4"],
  open: "<|tool_call>",
  close: "<tool_call|>",
  startPrefixes: [],
  specialTokens: ["<|tool_call>", "<tool_call|>", "<|channel>", "<channel|>", "<|tool_response>"],
  grouping: "block",
  afterOpen: "",
  beforeClose: "",
  blockSeparator: "",
  unit: { kind: "gemma4-call", namePrefix: "call:", stringDelimiter: '<|"|>' },
  maxCalls: Infinity,
  reasoning: { open: "<|channel>thought\n", close: "<channel|>", defaultMode: "optional" },
};

/**
 * Gemma 4 as its main chat template (`google-gemma-4-31B-it.jinja`) writes a call turn: the calls, then
 * `<|tool_response>`, the marker that hands the turn to the tool (the model writes it to stop; a tool result follows
 * it), and a reasoning block closed by `\n<channel|>`.
 */
export const gemma4ToolResponse = (base: FormatDescription): FormatDescription => ({
  ...base,
  name: "gemma4-tool-response",
  family: "Google Gemma 4 (its main template: the tool-response marker after the calls)",
  aliases: [],
  afterCalls: "<|tool_response>",
  reasoning: { open: "<|channel>thought\n", close: "\n<channel|>", defaultMode: "optional" },
});
