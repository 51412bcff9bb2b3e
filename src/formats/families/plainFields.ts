import type { JsonObjectUnit } from "../FormatDescription.js";

/** The fields most descriptions leave at their defaults (no padding, no prefixes, no reasoning, any number of calls). */
export const PLAIN_FIELDS = {
  aliases: [] as readonly string[],
  startPrefixes: [] as readonly string[],
  specialTokens: [] as readonly string[],
  afterOpen: "",
  beforeClose: "",
  blockSeparator: "",
  maxCalls: Infinity,
  reasoning: null,
};

/** `{"name": …, <argumentsKey>: …}`: the JSON call object most JSON formats share, the other key tolerated. */
export function jsonCallUnit(argumentsKey: "arguments" | "parameters"): JsonObjectUnit {
  return {
    kind: "json-object",
    nameKey: "name",
    argumentsKey,
    argumentsAliases: [argumentsKey === "arguments" ? "parameters" : "arguments"],
    idKey: null,
    argumentsEncoding: "object",
  };
}
