import type { FormatDescription } from "./FormatDescription.js";
import { jsonObject, plain } from "./descriptionParts.js";
import type { FormatName } from "./FormatName.js";
import { deepseekV3, deepseekV31, kimiK2, minimaxM1 } from "./families/sections.js";
import { mistralNemo, mistralV11, mistralV11CallId } from "./families/mistral.js";
import { nemotronV2 } from "./families/nemotronV2.js";
import { gigachat3, gigachat31 } from "./families/gigachat.js";
import { granite, granite20bFc } from "./families/granite.js";
import { hunyuanA13b } from "./families/hunyuan.js";
import { internlm2 } from "./families/internlm2.js";
import { lfm2, lfm2Json } from "./families/lfm2.js";
import { minicpm5 } from "./families/minicpm5.js";
import { phi4Mini } from "./families/phi4Mini.js";
import { xlam } from "./families/xlam.js";
import { glm45, glm47 } from "./families/glm.js";
import { nemotron3Nano, rekaEdge, step35 } from "./families/layoutVariants.js";
import { seedOss } from "./families/seedOss.js";
import { deepseekV32, deepseekV4 } from "./families/deepseekDsml.js";
import { gemma4 } from "./families/gemma4.js";
import { hy3 } from "./families/hy3.js";
import { kimiK3 } from "./families/kimiK3.js";
import { functionaryV31 } from "./families/functionary.js";
import { functionaryV32 } from "./families/functionaryV32.js";
import { museGlimmer } from "./families/museGlimmer.js";
import { apertus } from "./families/apertus.js";
import { commandR7b } from "./families/commandR7b.js";
import { commandRPlus } from "./families/commandRPlus.js";
import { solarOpen } from "./families/solarOpen.js";
import { minimaxM2 } from "./families/minimaxM2.js";
import { minimaxM3 } from "./families/minimaxM3.js";
import { step3 } from "./families/step3.js";
import { firefunctionV2 } from "./families/firefunctionV2.js";
import { olmo3 } from "./families/olmo3.js";

/** Qwen3 / Hermes: `<tool_call>\n{"name": "f", "arguments": {...}}\n</tool_call>`, blocks joined by `\n`. */
export const qwen3: FormatDescription = {
  ...plain,
  name: "qwen3",
  family: "Qwen2.5 / Qwen3 / QwQ, Hermes 2 Pro / 3, Granite 4, MiMo-VL, Bielik, SmolLM3",
  // vLLM: hermes (Qwen and Hermes models), granite4; llama.cpp's chat format "Hermes 2 Pro"; SmolLM3, whose
  // template's `xml_tools` prompt asks for these blocks and whose model card serves it with vLLM's hermes parser;
  // llama.cpp's former chat format "Xiaomi MiMo", the same `<tool_call>\n{"name": …, "arguments": …}\n</tool_call>`
  // blocks (MiMo-VL's template writes them as these do)
  aliases: ["hermes", "granite4", "Hermes 2 Pro", "smollm3", "Xiaomi MiMo"],
  open: "<tool_call>",
  close: "</tool_call>",
  specialTokens: ["<tool_call>", "</tool_call>"],
  grouping: "block",
  afterOpen: "\n",
  beforeClose: "\n",
  blockSeparator: "\n",
  unit: jsonObject("arguments"),
  // Qwen3's template writes `<think>\nR\n</think>\n\n`; Hermes and Qwen2.5 models share the format without
  // reasoning, so the block is off unless asked for (or the model's template says so).
  reasoning: { open: "<think>\n", close: "\n</think>\n\n", defaultMode: "none" },
};

/** `<tools>[{"name": "f", "id": "...", "parameters": {...}}, ...]</tools>` at the end of the reply. */
export const toolsArray: FormatDescription = {
  ...plain,
  name: "tools-array",
  family: "fine-tuning data (`<tools>` arrays)",
  open: "<tools>",
  close: "</tools>",
  grouping: "list",
  unit: jsonObject("parameters", "id"),
};

/** Llama 3.1 JSON tool calling: the whole reply is `{"name": "f", "parameters": {...}}`. */
export const llama3Json: FormatDescription = {
  ...plain,
  name: "llama3-json",
  family: "Llama 3.1 / 3.2 / 3.3",
  // vLLM: llama3_json, and llama4_json (the same parser class); llama.cpp's chat format "Llama 3.x"
  aliases: ["llama3_json", "llama4_json", "Llama 3.x"],
  open: null,
  close: null,
  startPrefixes: ["<|python_tag|>"],
  specialTokens: ["<|python_tag|>"],
  grouping: "block",
  unit: jsonObject("parameters"),
  maxCalls: 1,
};

/**
 * Llama 3.1 / 3.3's built-in tools (`brave_search`, `wolfram_alpha`, `code_interpreter`, and llama.cpp's `web_search`
 * and `python`): the reply is one call `<|python_tag|>brave_search.call(query="…")`, keyword arguments with values in
 * JSON's spelling, as the template writes a call to a tool of its `builtin_tools` and llama.cpp's "Llama 3.x with
 * builtin tools" constrains and reads it. The template writes a call to any other tool as `llama3-json`'s object,
 * which one description here cannot offer beside this one (docs/formats.md).
 */
export const llama3Builtin: FormatDescription = {
  ...plain,
  name: "llama3-builtin",
  family: 'Llama 3.1 / 3.3 built-in tools (`brave_search.call(query="…")` after the python tag)',
  // llama.cpp's former chat format
  aliases: ["Llama 3.x with builtin tools"],
  open: "<|python_tag|>",
  close: null,
  specialTokens: ["<|python_tag|>"],
  grouping: "block",
  unit: { kind: "python-call", callSuffix: ".call" },
  maxCalls: 1,
};

/** Mistral: `[TOOL_CALLS][{"name": "f", "arguments": {...}}, ...]`. */
export const mistral: FormatDescription = {
  ...plain,
  name: "mistral",
  // vLLM's `mistral` parser name is this format's own name; Mistral Nemo's template writes the id after the
  // arguments, which this format does not (docs/template-acceptance.md)
  family: "Mistral v0.3 (`[TOOL_CALLS][…]`, optional id before the arguments)",
  open: "[TOOL_CALLS]",
  close: null,
  specialTokens: ["[TOOL_CALLS]"],
  grouping: "list",
  unit: jsonObject("arguments", "id"),
};

/** Glaive function-calling data: `<functioncall> {"name": "f", "arguments": '{...}'}`, blocks joined by `\n`. */
export const glaive: FormatDescription = {
  ...plain,
  name: "glaive",
  family: "Glaive function-calling data",
  open: "<functioncall>",
  close: null,
  grouping: "block",
  afterOpen: " ",
  blockSeparator: "\n",
  unit: { ...jsonObject("arguments"), argumentsEncoding: "single-quoted-json" },
};

/**
 * Llama 3.2 pythonic: the whole reply is `[get_weather(city="Paris"), ...]` with Python literal kwargs. Also Gemma 3's
 * (its own template has no tools; vLLM serves it with this parser and `tool_chat_template_gemma3_pythonic.jinja`, which
 * asks for this list): no marker, so nothing of it is a special token of Gemma 3's vocabulary.
 */
export const pythonic: FormatDescription = {
  ...plain,
  name: "pythonic",
  family: "Llama 3.2 pythonic, Llama 4, Gemma 3 (the bare list)",
  // vLLM: pythonic, llama4_pythonic
  aliases: ["llama4_pythonic"],
  open: null,
  // Llama 4 wraps the list in `<|python_start|>…<|python_end|>` (vLLM's llama4_pythonic parser strips both):
  // tolerant parsing reads it, grammars write the bare list
  startPrefixes: ["<|python_start|>"],
  startPrefixEnd: "<|python_end|>",
  close: null,
  grouping: "list",
  unit: { kind: "python-call" },
};

/** gpt-oss's harmony special tokens (o200k_harmony): markers written as one token each. */
const HARMONY_TOKENS = [
  "<|start|>",
  "<|end|>",
  "<|message|>",
  "<|channel|>",
  "<|constrain|>",
  "<|return|>",
  "<|call|>",
];

/**
 * gpt-oss harmony, as its chat template renders a call after the generation prompt `<|start|>assistant`:
 * ` to=functions.NAME<|channel|>commentary json<|message|>{…}<|call|>`, one call per turn (`<|call|>` ends the
 * turn). Reasoning is the `analysis` channel: `<|channel|>analysis<|message|>R<|end|><|start|>assistant`. Models
 * also write `<|constrain|>json`, put `to=` after the channel, or use another channel: tolerant parsing reads those
 * (NAME_SEPARATOR); the canonical text is the template's.
 */
export const openai: FormatDescription = {
  ...plain,
  name: "openai",
  family: "gpt-oss (harmony; reasoning in the `analysis` channel)",
  // llama.cpp's former chat-format name "GPT-OSS"
  aliases: ["harmony", "gpt-oss", "gpt_oss", "GPT-OSS"],
  open: " to=functions.",
  close: "<|call|>",
  specialTokens: HARMONY_TOKENS,
  grouping: "block",
  unit: { kind: "named-json", nameClose: "<|channel|>commentary json<|message|>", argumentsClose: "" },
  maxCalls: 1,
  reasoning: { open: "<|channel|>analysis<|message|>", close: "<|end|><|start|>assistant", defaultMode: "optional" },
};

/**
 * Qwen3-Coder / Qwen3.5 XML: `<tool_call>\n<function=NAME>\n<parameter=K>\nV\n</parameter>\n</function>\n</tool_call>`,
 * blocks joined by `\n` (as the Qwen3-Coder and Qwen3.5 templates render them); string values raw, others JSON.
 * Nemotron 3 Nano and StepFun 3.5 write the same blocks with other whitespace between them (families/layoutVariants.ts).
 */
export const qwen3Coder: FormatDescription = {
  ...plain,
  name: "qwen3-coder",
  family: "Qwen3-Coder, Qwen3.5",
  aliases: ["qwen3_coder", "qwen3_xml", "Qwen3 Coder"],
  // Qwen3.5's template opens the turn with `<think>\n` (the generation prompt) and closes it as Qwen3 does
  reasoning: { open: "<think>\n", close: "\n</think>\n\n", defaultMode: "none" },
  open: "<tool_call>",
  close: "</tool_call>",
  specialTokens: ["<tool_call>", "</tool_call>"],
  grouping: "block",
  afterOpen: "\n",
  beforeClose: "\n",
  blockSeparator: "\n",
  unit: {
    kind: "xml-parameters",
    nameOpen: "<function=",
    nameClose: ">\n",
    keyOpen: "<parameter=",
    keyClose: ">\n",
    valueClose: "\n</parameter>\n",
    callClose: "</function>",
  },
};

/** Every format's description, by name. */
export const FORMAT_DESCRIPTIONS: Readonly<Record<FormatName, FormatDescription>> = {
  qwen3,
  "tools-array": toolsArray,
  "llama3-json": llama3Json,
  mistral,
  glaive,
  pythonic,
  openai,
  "qwen3-coder": qwen3Coder,
  "mistral-v11": mistralV11,
  "deepseek-v3": deepseekV3,
  "deepseek-v3.1": deepseekV31,
  "kimi-k2": kimiK2,
  "minimax-m1": minimaxM1,
  "mistral-v11-call-id": mistralV11CallId,
  "mistral-nemo": mistralNemo,
  "nemotron-v2": nemotronV2,
  granite,
  "granite-20b-fc": granite20bFc,
  "phi4-mini": phi4Mini,
  xlam,
  "hunyuan-a13b": hunyuanA13b,
  internlm2,
  gigachat3,
  "gigachat3-1": gigachat31,
  lfm2,
  minicpm5,
  "glm-4.5": glm45,
  "glm-4.7": glm47,
  "nemotron-3-nano": nemotron3Nano(qwen3Coder),
  "step-3.5": step35(qwen3Coder),
  "reka-edge": rekaEdge(qwen3),
  "seed-oss": seedOss,
  "deepseek-v3.2": deepseekV32,
  "deepseek-v4": deepseekV4,
  gemma4,
  hy3,
  "functionary-v3.1": functionaryV31,
  "functionary-v3.2": functionaryV32,
  "muse-glimmer": museGlimmer,
  apertus,
  "command-r7b": commandR7b,
  "command-r-plus": commandRPlus,
  "kimi-k3": kimiK3,
  "solar-open": solarOpen,
  "minimax-m2": minimaxM2,
  "minimax-m3": minimaxM3,
  "step-3": step3,
  "firefunction-v2": firefunctionV2,
  "olmo-3": olmo3,
  "lfm2-json": lfm2Json,
  "llama3-builtin": llama3Builtin,
};

/** The format names, in the order of FORMAT_DESCRIPTIONS. */
export const FORMAT_NAMES = Object.keys(FORMAT_DESCRIPTIONS) as FormatName[];
