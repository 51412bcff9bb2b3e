import type { FormatDescription } from "./FormatDescription.js";

/**
 * Texts a raw value of a tagged-parameter format (XmlParametersUnit) can never hold: the core of the value's closing
 * marker (the reader ends a value at its first occurrence, whatever whitespace surrounds it), the block's opening
 * and closing markers (the scanner ends a block there) and the core of the section's closing marker (which ends an
 * unclosed block too). The grammar excludes them, the renderer refuses them.
 */
export function rawValueForbidden(d: FormatDescription): string[] {
  if (d.unit.kind !== "xml-parameters") return [];
  const section = d.section === undefined ? [] : [d.section.close.trim()];
  return [d.unit.valueClose.trim(), ...[d.open, d.close].filter((m): m is string => m !== null), ...section].filter((m, i, all) => m !== "" && all.indexOf(m) === i);
}
