import type { CharClass, GExpr } from "../grammar/Grammar.js";

/** The first code point spelled with more than one UTF-8 byte. */
const MULTI_BYTE = 0x80;

/** A character choice split into its one-byte (ASCII) part and its part of several UTF-8 bytes each. */
export interface HighChars {
  /** The choice without its characters of several bytes; null where nothing is left. */
  low: GExpr | null;
  /** Those characters, one class. */
  high: CharClass;
}

const memo = new WeakMap<GExpr, HighChars | null>();

/**
 * Splits `e` — a character class, or a choice among classes and other items (an object's other keys start with one
 * character: a class that leaves out the names' first characters, or an escape) — into what starts with one ASCII
 * byte and the class of its characters of several bytes; null where it has none. Memoized per expression object, so
 * that every compile of the same grammar gets the same parts (and their frames the same keys).
 */
export function splitHighChars(e: GExpr): HighChars | null {
  const known = memo.get(e);
  if (known !== undefined) return known;
  let out: HighChars | null = null;
  if (e.type === "charClass") {
    const [low, high] = splitClass(e);
    if (high !== null) out = { low, high };
  } else if (e.type === "alt") {
    const highs: number[] = [];
    const lows: GExpr[] = [];
    for (const it of e.items) {
      if (it.type !== "charClass") {
        lows.push(it);
        continue;
      }
      const [low, high] = splitClass(it);
      if (low !== null) lows.push(low);
      if (high !== null) highs.push(...high.ranges);
    }
    if (highs.length > 0) {
      const high: CharClass = { type: "charClass", ranges: mergeRanges(highs) };
      out = { low: lows.length === 0 ? null : lows.length === 1 ? lows[0] : { type: "alt", items: lows }, high };
    }
  }
  memo.set(e, out);
  return out;
}

/** A class's ranges below MULTI_BYTE and from it on, as two classes (null for an empty one). */
function splitClass(c: CharClass): [CharClass | null, CharClass | null] {
  const low: number[] = [];
  const high: number[] = [];
  const r = c.ranges;
  for (let i = 0; i < r.length; i += 2) {
    const lo = r[i];
    const hi = r[i + 1];
    if (hi < MULTI_BYTE) low.push(lo, hi);
    else if (lo >= MULTI_BYTE) high.push(lo, hi);
    else {
      low.push(lo, MULTI_BYTE - 1);
      high.push(MULTI_BYTE, hi);
    }
  }
  if (high.length === 0) return [c, null];
  return [low.length === 0 ? null : { type: "charClass", ranges: low }, { type: "charClass", ranges: high }];
}

/** Sorted, non-overlapping ranges from a flat list of inclusive pairs (adjacent ones joined). */
function mergeRanges(flat: number[]): number[] {
  const pairs: [number, number][] = [];
  for (let i = 0; i < flat.length; i += 2) pairs.push([flat[i], flat[i + 1]]);
  pairs.sort((a, b) => a[0] - b[0]);
  const out: number[] = [];
  for (const [lo, hi] of pairs) {
    const n = out.length;
    if (n > 0 && lo <= out[n - 1] + 1) out[n - 1] = Math.max(out[n - 1], hi);
    else out.push(lo, hi);
  }
  return out;
}
