import type { FormatDescription } from "../FormatDescription.js";

/**
 * ByteDance Seed-OSS: each call is
 * `<seed:tool_call>\n<function=NAME>\n<parameter=K>V</parameter>\n…</function>\n</seed:tool_call>`, blocks joined by
 * `\n` (as its chat template writes history, and as vLLM's seed_oss parser and llama.cpp's tests read the model's
 * output); string values raw, other values JSON (the model's own spelling in llama.cpp's test outputs: the template
 * writes them with Python's `| string`). Reasoning is `<seed:think>R</seed:think>`, which the model opens itself.
 * The markers are single special tokens of Seed-OSS's vocabulary (vLLM's parser looks their ids up). Its template
 * renders exactly this (its integer-keyed budget table needs ChatTemplate's dict shim) and passes template acceptance.
 */
export const seedOss: FormatDescription = {
  name: "seed-oss",
  family: "ByteDance Seed-OSS (`<seed:tool_call>` around Qwen3-Coder-like `<function=…>` calls)",
  // vLLM: seed_oss
  // vLLM: seed_oss; llama.cpp's former chat-format name "Seed-OSS"
  aliases: ["seed_oss", "Seed-OSS"],
  open: "<seed:tool_call>",
  close: "</seed:tool_call>",
  startPrefixes: [],
  specialTokens: ["<seed:tool_call>", "</seed:tool_call>", "<seed:think>", "</seed:think>"],
  grouping: "block",
  afterOpen: "\n",
  beforeClose: "",
  blockSeparator: "\n",
  unit: {
    kind: "xml-parameters",
    nameOpen: "<function=",
    nameClose: ">\n",
    keyOpen: "<parameter=",
    keyClose: ">",
    valueClose: "</parameter>\n",
    callClose: "</function>\n",
  },
  maxCalls: Infinity,
  reasoning: { open: "<seed:think>", close: "</seed:think>", defaultMode: "optional" },
};
