import type { FormatDescription, JsonObjectUnit } from "./FormatDescription.js";
import type { FormatName } from "./FormatName.js";

const plain = {
  aliases: [] as readonly string[],
  startPrefixes: [] as readonly string[],
  specialTokens: [] as readonly string[],
  afterOpen: "",
  beforeClose: "",
  blockSeparator: "",
  maxCalls: Infinity,
};

/** `{"name": …, <argumentsKey>: …}`: the JSON call object most formats share. */
function jsonObject(argumentsKey: "arguments" | "parameters", idKey: "id" | null = null): JsonObjectUnit {
  return {
    kind: "json-object",
    nameKey: "name",
    argumentsKey,
    argumentsAliases: [argumentsKey === "arguments" ? "parameters" : "arguments"],
    idKey,
    argumentsEncoding: "object",
  };
}

/** Qwen3 / Hermes: `<tool_call>\n{"name": "f", "arguments": {...}}\n</tool_call>`, blocks joined by `\n`. */
export const qwen3: FormatDescription = {
  ...plain,
  name: "qwen3",
  aliases: ["hermes"],
  open: "<tool_call>",
  close: "</tool_call>",
  specialTokens: ["<tool_call>", "</tool_call>"],
  grouping: "block",
  afterOpen: "\n",
  beforeClose: "\n",
  blockSeparator: "\n",
  unit: jsonObject("arguments"),
};

/** `<tools>[{"name": "f", "id": "...", "parameters": {...}}, ...]</tools>` at the end of the reply. */
export const toolsArray: FormatDescription = {
  ...plain,
  name: "tools-array",
  open: "<tools>",
  close: "</tools>",
  grouping: "list",
  unit: jsonObject("parameters", "id"),
};

/** Llama 3.1 JSON tool calling: the whole reply is `{"name": "f", "parameters": {...}}`. */
export const llama3Json: FormatDescription = {
  ...plain,
  name: "llama3-json",
  aliases: ["llama3_json"],
  open: null,
  close: null,
  startPrefixes: ["<|python_tag|>"],
  specialTokens: ["<|python_tag|>"],
  grouping: "block",
  unit: jsonObject("parameters"),
  maxCalls: 1,
};

/** Mistral: `[TOOL_CALLS][{"name": "f", "arguments": {...}}, ...]`. */
export const mistral: FormatDescription = {
  ...plain,
  name: "mistral",
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
  open: "<functioncall>",
  close: null,
  grouping: "block",
  afterOpen: " ",
  blockSeparator: "\n",
  unit: { ...jsonObject("arguments"), argumentsEncoding: "single-quoted-json" },
};

/** Llama 3.2 pythonic: the whole reply is `[get_weather(city="Paris"), ...]` with Python literal kwargs. */
export const pythonic: FormatDescription = {
  ...plain,
  name: "pythonic",
  open: null,
  close: null,
  grouping: "list",
  unit: { kind: "python-call" },
};

/**
 * Qwen3-Coder / Qwen3.5 XML: `<tool_call>\n<function=NAME>\n<parameter=K>\nV\n</parameter>\n</function>\n</tool_call>`,
 * blocks joined by `\n` (as the Qwen3-Coder and Qwen3.5 templates render them); string values raw, others JSON.
 * Nemotron 3 Nano and StepFun 3.5 write the same blocks with other whitespace between them.
 */
export const qwen3Coder: FormatDescription = {
  ...plain,
  name: "qwen3-coder",
  aliases: ["qwen3_coder", "qwen3_xml", "Qwen3 Coder"],
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
  "qwen3-coder": qwen3Coder,
};

/** The format names, in the order of FORMAT_DESCRIPTIONS. */
export const FORMAT_NAMES = Object.keys(FORMAT_DESCRIPTIONS) as FormatName[];
