import type { FormatDescription } from "./FormatDescription.js";
import { gemma4StringForbidden } from "./gemma4Values.js";
import { splitMarker } from "./splitMarker.js";
import { xmlElementsForbidden } from "./xmlElementValues.js";

/**
 * Texts a raw value of a tagged-parameter format (XmlParametersUnit) can never hold: the core of the value's closing
 * marker (the reader ends a value at its first occurrence, whatever whitespace surrounds it), the block's opening
 * and closing markers (the scanner ends a block there), and the cores of the section's markers (BlockScanner ends an
 * unclosed block at the closing one, in any spacing: MiniMax M2's `</minimax:tool_call>`). The grammar excludes them,
 * the renderer refuses them. For Gemma 4 (Gemma4CallUnit), the texts a string cannot hold (its delimiter and the
 * block's markers).
 */
export function rawValueForbidden(d: FormatDescription): string[] {
  // Gemma 4's strings are raw between their delimiter: the same holds for them
  if (d.unit.kind === "gemma4-call") return gemma4StringForbidden(d);
  // MiniMax M3's strings are raw too, ended by the next tag
  if (d.unit.kind === "xml-elements") return xmlElementsForbidden(d);
  if (d.unit.kind !== "xml-parameters") return [];
  const section = d.section === undefined ? [] : [splitMarker(d.section.open).core, splitMarker(d.section.close).core];
  return [d.unit.valueClose.trim(), ...[d.open, d.close].filter((m): m is string => m !== null), ...section].filter(
    (m, i, all) => m !== "" && all.indexOf(m) === i,
  );
}
