import type { FormatDescription } from "../FormatDescription.js";
import { jsonCallUnit, PLAIN_FIELDS } from "./plainFields.js";

/**
 * Formats whose call blocks sit in one section around all calls (FormatDescription.section): DeepSeek V3 / R1 and
 * V3.1, Kimi K2, MiniMax-M1. Each is written as its chat template renders it (llama.cpp's models/templates).
 */
const plain = { ...PLAIN_FIELDS, grouping: "block" as const };

/** DeepSeek's tool-call markers: one special token each in its vocabulary (and its `<think>` markers). */
const DEEPSEEK_TOKENS = [
  "<｜tool▁calls▁begin｜>",
  "<｜tool▁calls▁end｜>",
  "<｜tool▁call▁begin｜>",
  "<｜tool▁call▁end｜>",
  "<｜tool▁sep｜>",
];

/**
 * R1's template opens the reasoning in the generation prompt (`<｜Assistant｜><think>\n`) and drops it from the
 * history; V3 writes none. A turn that reasons is `<think>\nR</think>\n\n` then the reply (what R1 models write).
 */
const DEEPSEEK_REASONING = { open: "<think>\n", close: "</think>\n\n", defaultMode: "none" as const };

/**
 * DeepSeek V3 / R1 (and R1's distills), as their templates render calls:
 * `<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>NAME\n```json\n{…}\n```<｜tool▁call▁end｜>`, blocks
 * joined by `\n`, then `<｜tool▁calls▁end｜>`.
 */
export const deepseekV3: FormatDescription = {
  ...plain,
  name: "deepseek-v3",
  family: "DeepSeek V3 / R1 and R1's distills",
  // vLLM: deepseek_v3; llama.cpp's chat format "DeepSeek R1"; the template's proposed name deepseek_r1
  aliases: ["deepseek_v3", "deepseek_r1", "DeepSeek R1"],
  section: { open: "<｜tool▁calls▁begin｜>", close: "<｜tool▁calls▁end｜>" },
  open: "<｜tool▁call▁begin｜>function<｜tool▁sep｜>",
  close: "<｜tool▁call▁end｜>",
  specialTokens: DEEPSEEK_TOKENS,
  blockSeparator: "\n",
  unit: { kind: "named-json", nameClose: "\n```json\n", argumentsClose: "\n```" },
  reasoning: DEEPSEEK_REASONING,
};

/**
 * DeepSeek V3.1: `<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>NAME<｜tool▁sep｜>{…}<｜tool▁call▁end｜>…<｜tool▁calls▁end｜>`,
 * blocks written one after another. In thinking mode the generation prompt opens `<think>` and the model closes it
 * with a bare `</think>` before its reply (the non-thinking prompt writes `</think>` itself).
 */
export const deepseekV31: FormatDescription = {
  ...plain,
  name: "deepseek-v3.1",
  family: "DeepSeek V3.1",
  // vLLM: deepseek_v31; llama.cpp's chat format "DeepSeek V3.1"
  aliases: ["deepseek_v31", "DeepSeek V3.1"],
  section: { open: "<｜tool▁calls▁begin｜>", close: "<｜tool▁calls▁end｜>" },
  open: "<｜tool▁call▁begin｜>",
  close: "<｜tool▁call▁end｜>",
  specialTokens: DEEPSEEK_TOKENS,
  unit: { kind: "named-json", nameClose: "<｜tool▁sep｜>", argumentsClose: "" },
  reasoning: { open: "<think>", close: "</think>", defaultMode: "none" },
};

/**
 * Kimi K2: `<|tool_calls_section_begin|><|tool_call_begin|>functions.NAME:IDX<|tool_call_argument_begin|>{…}<|tool_call_end|>…<|tool_calls_section_end|>`,
 * IDX counting the turn's calls from 0; `functions.NAME:IDX` is the call's id (as vLLM and llama.cpp report it).
 */
export const kimiK2: FormatDescription = {
  ...plain,
  name: "kimi-k2",
  family: "Kimi K2 (`functions.NAME:IDX` call ids)",
  // vLLM: kimi_k2; llama.cpp's chat format "Kimi K2"
  aliases: ["kimi_k2", "Kimi K2"],
  section: { open: "<|tool_calls_section_begin|>", close: "<|tool_calls_section_end|>" },
  open: "<|tool_call_begin|>",
  close: "<|tool_call_end|>",
  specialTokens: [
    "<|tool_calls_section_begin|>",
    "<|tool_calls_section_end|>",
    "<|tool_call_begin|>",
    "<|tool_call_argument_begin|>",
    "<|tool_call_end|>",
  ],
  unit: {
    kind: "named-json",
    nameClose: "<|tool_call_argument_begin|>",
    argumentsClose: "",
    callIndex: { namePrefix: "functions.", indexSeparator: ":" },
  },
  reasoning: { open: "<think>", close: "</think>", defaultMode: "none" },
};

/**
 * MiniMax-M1: `<tool_calls>\n{"name": "f", "arguments": {…}}\n…\n</tool_calls>`, one JSON call object a line in the
 * section (the blocks have no markers of their own).
 */
export const minimaxM1: FormatDescription = {
  ...plain,
  name: "minimax-m1",
  family: "MiniMax-M1 (JSON lines in `<tool_calls>`)",
  // vLLM: minimax (the M1 parser); the template's proposed name
  aliases: ["minimax", "minimax_m1"],
  section: { open: "<tool_calls>\n", close: "\n</tool_calls>" },
  open: null,
  close: null,
  specialTokens: [],
  blockSeparator: "\n",
  unit: jsonCallUnit("arguments"),
  reasoning: { open: "<think>\n", close: "\n</think>\n\n", defaultMode: "none" },
};
