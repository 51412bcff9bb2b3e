import { ToolgramError } from "../errors.js";
import { FORMAT_DESCRIPTIONS } from "./descriptions.js";
import type { FormatDescription } from "./FormatDescription.js";
import type { FormatName } from "./FormatName.js";

const byName = new Map<string, FormatDescription>();
for (const d of Object.values(FORMAT_DESCRIPTIONS)) {
  for (const n of [d.name, ...d.aliases]) {
    if (byName.has(n)) throw new Error(`internal: format name ${JSON.stringify(n)} is used twice`);
    byName.set(n, d);
  }
}

/** A format's name or one of its aliases (vLLM tool-parser names, llama.cpp chat formats). */
export type FormatOption = FormatName | (string & {});

/**
 * The description of the format named `name` (its name or an alias). Throws ToolgramError INVALID_OPTION for an
 * unknown name, listing the known ones.
 */
export function describeFormat(name: unknown): FormatDescription {
  const d = typeof name === "string" ? byName.get(name) : undefined;
  if (d === undefined) {
    const aliases = Object.values(FORMAT_DESCRIPTIONS).flatMap((x) => x.aliases.map((a) => `${a} (${x.name})`));
    throw new ToolgramError("INVALID_OPTION", `unknown format ${JSON.stringify(name)}; use one of ${Object.keys(FORMAT_DESCRIPTIONS).join(", ")}${aliases.length > 0 ? ` or an alias: ${aliases.join(", ")}` : ""}`);
  }
  return d;
}
