import { canonicalJson, type JsonObject, type JsonValue } from "../json.js";
import type { FormatDescription, Gemma4CallUnit } from "./FormatDescription.js";

/**
 * Gemma 4's argument syntax (Gemma4CallUnit), as its chat template's `format_argument` macro writes it: strings
 * between the delimiter `<|"|>` with nothing escaped, numbers and true / false / null bare, arrays `[a,b]`, objects
 * `{k:v,k2:v2}` with bare keys in the template's `dictsort` order, no whitespace anywhere.
 */

/**
 * A key Gemma 4 can write bare and read back: one or more characters, none of them whitespace, `<` or `>` (markers
 * and the string delimiter all contain one), or the syntax's punctuation `: , { } [ ]`. llama.cpp's reader takes a
 * key as everything up to the next `:`, so a key holding `:` would be cut there.
 */
export const GEMMA4_KEY = /^[^\s<>:,{}[\]]+$/u;

/** The same characters as a JSON Schema pattern (the grammar's key language for undeclared keys). */
export const GEMMA4_KEY_PATTERN = "^[^\\s<>:,{}\\[\\]]+$";

export function gemma4Unit(d: FormatDescription): Gemma4CallUnit {
  if (d.unit.kind !== "gemma4-call") throw new Error(`internal: ${d.name} has no Gemma 4 call units`);
  return d.unit;
}

/**
 * Texts a string value can never hold: the string delimiter (the reader ends the string at its first occurrence) and
 * the block's markers (the scanner ends the block there). The grammar excludes them, the renderer refuses them.
 */
export function gemma4StringForbidden(d: FormatDescription): string[] {
  return [gemma4Unit(d).stringDelimiter, ...[d.open, d.close].filter((m): m is string => m !== null)];
}

/**
 * The order the template writes keys in: Jinja's `dictsort` (case-insensitive by default, comparing `key.lower()`),
 * ties between keys that differ only in case broken by the keys themselves so that the order is total. Both compare
 * code points, as Python does.
 */
export function gemma4KeyOrder(a: string, b: string): number {
  return compareCodePoints(a.toLowerCase(), b.toLowerCase()) || compareCodePoints(a, b);
}

function compareCodePoints(a: string, b: string): number {
  const x = [...a];
  const y = [...b];
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const d = (x[i].codePointAt(0) as number) - (y[i].codePointAt(0) as number);
    if (d !== 0) return d;
  }
  return x.length - y.length;
}

/**
 * The canonical text of a value. `sorted`: keys in `gemma4KeyOrder` (what the template writes); otherwise in the
 * object's own order. Throws a TypeError for what the syntax cannot carry (a string holding a forbidden text, a key
 * that is not `GEMMA4_KEY`, a number that is not finite).
 */
export function gemma4ValueText(v: JsonValue, d: FormatDescription, sorted = true): string {
  const delim = gemma4Unit(d).stringDelimiter;
  const forbidden = gemma4StringForbidden(d);
  const write = (x: JsonValue): string => {
    if (x === null) return "null";
    if (typeof x === "boolean") return x ? "true" : "false";
    if (typeof x === "number") {
      if (!Number.isFinite(x)) throw new TypeError(`${x} cannot be written in format ${d.name}`);
      return canonicalJson(x);
    }
    if (typeof x === "string") {
      const bad = forbidden.find((m) => x.includes(m));
      if (bad !== undefined)
        throw new TypeError(
          `the string ${JSON.stringify(x.slice(0, 60))} contains ${JSON.stringify(bad)}, which a ${d.name} string cannot hold`,
        );
      return delim + x + delim;
    }
    if (Array.isArray(x)) return `[${x.map(write).join(",")}]`;
    return (
      "{" +
      objectEntries(x, sorted)
        .map(([k, y]) => `${gemma4Key(k, d)}:${write(y)}`)
        .join(",") +
      "}"
    );
  };
  return write(v);
}

/** The members of `o` in the order they are written. */
export function objectEntries(o: JsonObject, sorted: boolean): [string, JsonValue][] {
  const entries = Object.entries(o);
  return sorted ? entries.sort(([a], [b]) => gemma4KeyOrder(a, b)) : entries;
}

/** `k` itself when Gemma 4 can write it bare; throws a TypeError otherwise. */
export function gemma4Key(k: string, d: FormatDescription): string {
  if (!GEMMA4_KEY.test(k))
    throw new TypeError(
      `the key ${JSON.stringify(k)} cannot be written bare in format ${d.name} (empty, or holding whitespace, < > : , { } [ or ])`,
    );
  return k;
}

/** Whether `v` can be written (every string, key and number fits the syntax). */
export function gemma4Writable(v: JsonValue, d: FormatDescription): boolean {
  try {
    gemma4ValueText(v, d);
    return true;
  } catch {
    return false;
  }
}

/** Sets `o[k] = v` as an own property, even for `__proto__`. */
export function setMember(o: JsonObject, k: string, v: JsonValue): void {
  Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
}
