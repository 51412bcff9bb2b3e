import { ToolgramError } from "../errors.js";
import { FORMAT_DESCRIPTIONS } from "./descriptions.js";
import type { FormatDescription } from "./FormatDescription.js";
import type { FormatName } from "./FormatName.js";
import { derivedFormat } from "./derivedFormats.js";

const byName = new Map<string, FormatDescription>();
for (const d of Object.values(FORMAT_DESCRIPTIONS)) {
  for (const n of [d.name, ...d.aliases]) {
    if (byName.has(n)) throw new Error(`internal: format name ${JSON.stringify(n)} is used twice`);
    byName.set(n, d);
  }
}

/**
 * llama.cpp's chat-format names (common_chat_format_name, and the names it used before its autoparser) that name no
 * wire format described here: `peg-simple`, `peg-native` and `peg-constructed` are the parsers it builds from a model's
 * own chat template, whose counterpart here is formatFromChatTemplate; `Content-only` is a template without tool
 * calls; `Generic` is llama.cpp's own JSON reply for templates it did not recognise. Asking for one is an error that
 * says so.
 */
const NOT_A_FORMAT: Readonly<Record<string, string>> = {
  "Content-only": "llama.cpp's chat format for a template without tool calls, so there is no call format to use",
  "peg-simple":
    "llama.cpp's parser built from a model's chat template, not one wire format: use formatFromChatTemplate(template) to read the format from the template",
  "peg-native":
    "llama.cpp's parser built from a model's chat template, not one wire format: use formatFromChatTemplate(template) to read the format from the template",
  "peg-constructed":
    "llama.cpp's parser built from a model's chat template, not one wire format: use formatFromChatTemplate(template) to read the format from the template",
  Generic:
    'llama.cpp\'s JSON reply ({"tool_call": …} or {"response": …}) for a template it does not recognise, not a model\'s own format: use formatFromChatTemplate(template) for the model\'s',
};

/**
 * A format's name or one of its aliases (vLLM tool-parser names, llama.cpp chat formats), or a description itself
 * (one formatFromChatTemplate derived from a template whose layout no named format has).
 */
export type FormatOption = FormatName | (string & {}) | FormatDescription;

const UNIT_KINDS = new Set<string>([
  "json-object",
  "python-call",
  "named-json",
  "name-then-json",
  "xml-parameters",
  "gemma4-call",
  "xml-elements",
]);

/**
 * The description of the format named `name` (its name or an alias, or the name of a description derived from a chat
 * template in this process), or `name` itself when it is a description. Throws ToolgramError INVALID_OPTION for an
 * unknown name, listing the known ones (or, for a llama.cpp chat-format name that is no wire format, saying what it is).
 */
export function describeFormat(name: unknown): FormatDescription {
  if (typeof name === "object" && name !== null) return asDescription(name);
  const d = typeof name === "string" ? (byName.get(name) ?? derivedFormat(name)) : undefined;
  if (d === undefined) {
    if (typeof name === "string" && Object.hasOwn(NOT_A_FORMAT, name))
      throw new ToolgramError("INVALID_OPTION", `format ${JSON.stringify(name)} is ${NOT_A_FORMAT[name]}`);
    const aliases = Object.values(FORMAT_DESCRIPTIONS).flatMap((x) => x.aliases.map((a) => `${a} (${x.name})`));
    throw new ToolgramError(
      "INVALID_OPTION",
      `unknown format ${JSON.stringify(name)}; use one of ${Object.keys(FORMAT_DESCRIPTIONS).join(", ")}${aliases.length > 0 ? ` or an alias: ${aliases.join(", ")}` : ""}`,
    );
  }
  return d;
}

/**
 * A description passed as the format: taken as it is (formatFromChatTemplate's derived descriptions), after a check of
 * the fields every reader needs, so a wrong object fails here with a clear message rather than deep inside a reader.
 */
function asDescription(value: object): FormatDescription {
  const d = value as Partial<FormatDescription>;
  const missing = [
    typeof d.name === "string" ? "" : "name",
    d.grouping === "block" || d.grouping === "list" ? "" : "grouping",
    typeof d.unit === "object" && d.unit !== null && UNIT_KINDS.has(d.unit.kind) ? "" : "unit.kind",
    Array.isArray(d.specialTokens) && Array.isArray(d.startPrefixes) ? "" : "specialTokens/startPrefixes",
  ].filter((x) => x !== "");
  if (missing.length > 0) {
    throw new ToolgramError(
      "INVALID_OPTION",
      `format is an object but not a format description: ${missing.join(", ")} missing or invalid`,
    );
  }
  return d as FormatDescription;
}
