import type { FormatDescription } from "../FormatDescription.js";

/*
 * Templates that write Qwen3's or Qwen3-Coder's calls with other whitespace between them. Acceptance asks for the
 * template's own text byte for byte, so each canonical layout is a description of its own (vLLM serves these models
 * with the qwen3_coder / hermes parsers, whose tolerant reading is toolgram's tolerant parsing of the base format).
 * Each is built from its base description (passed in by descriptions.ts, which holds the bases).
 */

/** NVIDIA Nemotron 3 Nano: Qwen3-Coder's blocks, each followed by a newline (the last one too). */
export const nemotron3Nano = (qwen3Coder: FormatDescription): FormatDescription => ({
  ...qwen3Coder,
  name: "nemotron-3-nano",
  family: "NVIDIA Nemotron 3 Nano (Qwen3-Coder's calls, a newline after each block)",
  aliases: [],
  blockSeparator: "\n",
  afterCalls: "\n",
  // the template's generation prompt opens `<think>\n`; the model ends the block with `\n</think>\n`
  reasoning: { open: "<think>\n", close: "\n</think>\n", defaultMode: "none" },
});

/** StepFun Step 3.5 Flash: Qwen3-Coder's blocks written one after another. */
export const step35 = (qwen3Coder: FormatDescription): FormatDescription => ({
  ...qwen3Coder,
  name: "step-3.5",
  family: "StepFun Step 3.5 Flash (Qwen3-Coder's calls, blocks not separated)",
  // vLLM: step3p5 (its structural tag is Qwen3-Coder's)
  aliases: ["step3p5"],
  blockSeparator: "",
  reasoning: { open: "<think>\n", close: "\n</think>\n", defaultMode: "none" },
});

/** Reka Edge: Qwen3's JSON blocks written one after another. */
export const rekaEdge = (qwen3: FormatDescription): FormatDescription => ({
  ...qwen3,
  name: "reka-edge",
  family: "Reka Edge (Qwen3's calls, blocks not separated)",
  aliases: [],
  blockSeparator: "",
});
