import type { FormatDescription } from "./FormatDescription.js";

/**
 * Texts a raw value of a tagged-parameter format (XmlParametersUnit) can never hold: the core of the value's closing
 * marker (the reader ends a value at its first occurrence, whatever whitespace surrounds it) and the block's opening
 * and closing markers (the scanner ends a block there). The grammar excludes them, the renderer refuses them.
 */
export function rawValueForbidden(d: FormatDescription): string[] {
  if (d.unit.kind !== "xml-parameters") return [];
  return [d.unit.valueClose.trim(), ...[d.open, d.close].filter((m): m is string => m !== null)];
}
