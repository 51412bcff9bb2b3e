import { FORMAT_DESCRIPTIONS } from "../formats/descriptions.js";
import type { FormatDescription } from "../formats/FormatDescription.js";

/**
 * The parts of a description its grammar, parsers and renderer write and read: two descriptions equal in these are
 * the same wire format (names, families, aliases, special tokens, start prefixes and the default reasoning are not).
 */
export const WIRE_PARTS = [
  "grouping",
  "open",
  "close",
  "afterOpen",
  "beforeClose",
  "blockSeparator",
  "section",
  "afterCalls",
  "list",
  "unit",
  "maxCalls",
  "messages",
  "callTurnEnd",
] as const;

/** A description's wire parts as one text (regular expressions by their source, Infinity spelled out). */
export function wireText(d: FormatDescription): string {
  return JSON.stringify(
    WIRE_PARTS.map((k) => d[k] ?? null),
    (_k, v: unknown) => (v instanceof RegExp ? String(v) : v === Infinity ? "Infinity" : v),
  );
}

let byWire: Map<string, FormatDescription> | undefined;

/**
 * The described format whose wire parts a derived description has, if one has them: a template whose layout no
 * matcher names is still that format (vLLM's xLAM and Llama 3.2 pythonic templates write xlam's and pythonic's calls).
 * The first described format in FORMAT_DESCRIPTIONS' order wins.
 */
export function sameAsDescribed(d: FormatDescription): FormatDescription | undefined {
  if (byWire === undefined) {
    byWire = new Map();
    for (const x of Object.values(FORMAT_DESCRIPTIONS)) if (!byWire.has(wireText(x))) byWire.set(wireText(x), x);
  }
  return byWire.get(wireText(d));
}
