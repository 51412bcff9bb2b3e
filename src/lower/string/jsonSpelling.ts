import type { GExpr } from "../../grammar/Grammar.js";
import { alt, cls, lit, rep, seq } from "../../grammar/build.js";
import { intersectRanges, normalizeRanges, subtractRanges, type Ranges } from "../../grammar/ranges.js";
import { BoundedMap } from "../../util/BoundedMap.js";

/** Code points that JSON text must escape: `"`, `\` and the controls below U+0020. */
export const ESCAPED: Ranges = normalizeRanges([0x00, 0x1f, 0x22, 0x22, 0x5c, 0x5c]);

const SHORT: ReadonlyMap<number, string> = new Map([
  [0x22, '\\"'],
  [0x5c, "\\\\"],
  [0x0a, "\\n"],
  [0x0d, "\\r"],
  [0x09, "\\t"],
  [0x08, "\\b"],
  [0x0c, "\\f"],
]);

const HEX = "0123456789abcdef";

/** The canonical JSON spelling of one code point inside a string (see docs/ARCHITECTURE.md, "JSON spelling"). */
export function spellCodePoint(cp: number): string {
  const short = SHORT.get(cp);
  if (short !== undefined) return short;
  if (cp < 0x20) return `\\u00${HEX[cp >> 4]}${HEX[cp & 15]}`;
  return String.fromCodePoint(cp);
}

/**
 * The spellings of a set of decoded code points: the literal part as one class, each short escape as a literal, and
 * the remaining controls as `\u00` followed by a class of hex digits per high nibble.
 */
export function spellClass(ranges: Ranges): GExpr {
  // a few classes (any character, digits, a format's letters) are spelled in most strings of every compile
  const key = ranges.join(",");
  let e = spelledClasses.get(key);
  if (e === undefined) spelledClasses.set(key, (e = spellClassUncached(ranges)));
  return e;
}

/** Spelled classes by their ranges, the oldest dropped first (expressions are immutable: shared as they are). */
const spelledClasses = new BoundedMap<string, GExpr>({ maxEntries: 4096, order: "insertion" });

function spellClassUncached(ranges: Ranges): GExpr {
  const parts: GExpr[] = [cls(subtractRanges(ranges, ESCAPED))];
  const esc = intersectRanges(ranges, ESCAPED);
  const hexByNibble: [number[], number[]] = [[], []];
  for (let i = 0; i < esc.length; i += 2) {
    for (let cp = esc[i]; cp <= esc[i + 1]; cp++) {
      const short = SHORT.get(cp);
      if (short !== undefined) parts.push(lit(short));
      else hexByNibble[cp >> 4].push(HEX.charCodeAt(cp & 15), HEX.charCodeAt(cp & 15));
    }
  }
  hexByNibble.forEach((digits, hi) => {
    if (digits.length === 0) return;
    const d = normalizeRanges(digits);
    const last = d.length === 2 && d[0] === d[1] ? lit(String.fromCharCode(d[0])) : cls(d);
    parts.push(seq(lit(`\\u00${hi}`), last));
  });
  // a single literal code point reads better as a literal
  const first = parts[0];
  if (first.type === "charClass" && first.ranges.length === 2 && first.ranges[0] === first.ranges[1]) {
    parts[0] = lit(String.fromCodePoint(first.ranges[0]));
  }
  return alt(...parts);
}

/**
 * Maps an expression over decoded code points to the expression of their canonical spellings. Exact because the
 * spelling is applied code point by code point and is injective (one spelling per code point, none a prefix of
 * another's continuation ambiguity: escapes start with `\`, which is never literal).
 */
export function spellExpr(e: GExpr): GExpr {
  switch (e.type) {
    case "charClass":
      return spellClass(e.ranges);
    case "literal":
      return lit(Array.from(e.text, (ch) => spellCodePoint(ch.codePointAt(0)!)).join(""));
    case "seq":
      return seq(...e.items.map(spellExpr));
    case "alt":
      return alt(...e.items.map(spellExpr));
    case "repeat":
      return rep(spellExpr(e.item), e.min, e.max);
    default:
      return e;
  }
}
