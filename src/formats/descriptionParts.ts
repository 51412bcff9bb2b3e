import type { JsonObjectUnit } from "./FormatDescription.js";

/** The defaults of a description: no aliases, prefixes, special tokens, padding or reasoning; any number of calls. */
export const plain = {
  aliases: [] as readonly string[],
  startPrefixes: [] as readonly string[],
  specialTokens: [] as readonly string[],
  afterOpen: "",
  beforeClose: "",
  blockSeparator: "",
  maxCalls: Infinity,
  reasoning: null,
};

/** `{"name": …, <argumentsKey>: …}`: the JSON call object most formats share. */
export function jsonObject(argumentsKey: "arguments" | "parameters", idKey: "id" | null = null): JsonObjectUnit {
  return {
    kind: "json-object",
    nameKey: "name",
    argumentsKey,
    argumentsAliases: [argumentsKey === "arguments" ? "parameters" : "arguments"],
    idKey,
    argumentsEncoding: "object",
  };
}
