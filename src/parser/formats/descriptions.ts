import type { FormatName } from "../types.js";
import type { FormatDescription } from "./FormatDescription.js";

const common = {
  startPrefixes: [] as readonly string[],
  specialTokens: [] as readonly string[],
  afterOpen: "",
  beforeClose: "",
  blockSeparator: "",
  nameKey: "name" as const,
  argumentsEncoding: "object" as const,
  maxCalls: Infinity,
};

/** Qwen3 / Hermes: `<tool_call>\n{"name": "f", "arguments": {...}}\n</tool_call>`, blocks joined by `\n`. */
export const qwen3: FormatDescription = {
  ...common,
  name: "qwen3",
  open: "<tool_call>",
  close: "</tool_call>",
  specialTokens: ["<tool_call>", "</tool_call>"],
  body: "object",
  afterOpen: "\n",
  beforeClose: "\n",
  blockSeparator: "\n",
  argumentsKey: "arguments",
  argumentsAliases: ["parameters"],
  idKey: null,
};

/** `<tools>[{"name": "f", "id": "...", "parameters": {...}}, ...]</tools>` at the end of the reply. */
export const toolsArray: FormatDescription = {
  ...common,
  name: "tools-array",
  open: "<tools>",
  close: "</tools>",
  body: "array",
  argumentsKey: "parameters",
  argumentsAliases: ["arguments"],
  idKey: "id",
};

/** Llama 3.1 JSON tool calling: the whole reply is `{"name": "f", "parameters": {...}}`. */
export const llama3Json: FormatDescription = {
  ...common,
  name: "llama3-json",
  open: null,
  close: null,
  startPrefixes: ["<|python_tag|>"],
  specialTokens: ["<|python_tag|>"],
  body: "object",
  argumentsKey: "parameters",
  argumentsAliases: ["arguments"],
  idKey: null,
  maxCalls: 1,
};

/** Mistral: `[TOOL_CALLS][{"name": "f", "arguments": {...}}, ...]`. */
export const mistral: FormatDescription = {
  ...common,
  name: "mistral",
  open: "[TOOL_CALLS]",
  close: null,
  specialTokens: ["[TOOL_CALLS]"],
  body: "array",
  argumentsKey: "arguments",
  argumentsAliases: ["parameters"],
  idKey: "id",
};

/** Glaive function-calling data: `<functioncall> {"name": "f", "arguments": '{...}'}`, blocks joined by `\n`. */
export const glaive: FormatDescription = {
  ...common,
  name: "glaive",
  open: "<functioncall>",
  close: null,
  body: "object",
  afterOpen: " ",
  blockSeparator: "\n",
  argumentsKey: "arguments",
  argumentsAliases: ["parameters"],
  idKey: null,
  argumentsEncoding: "single-quoted-json",
};

/** Llama 3.2 pythonic: the whole reply is `[get_weather(city="Paris"), ...]` with Python literal kwargs. */
export const pythonic: FormatDescription = {
  ...common,
  name: "pythonic",
  open: null,
  close: null,
  body: "python-list",
  argumentsKey: "arguments",
  argumentsAliases: [],
  idKey: null,
};

export const FORMAT_DESCRIPTIONS: Readonly<Record<FormatName, FormatDescription>> = {
  qwen3,
  "tools-array": toolsArray,
  "llama3-json": llama3Json,
  mistral,
  glaive,
  pythonic,
};
