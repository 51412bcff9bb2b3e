import { fullFormats } from "ajv-formats/dist/formats.js";
import { matchesFormatSource } from "./formatSources.js";
import { nearestWithin } from "./keywords.js";

type FormatDef = (typeof fullFormats)[keyof typeof fullFormats];

/**
 * Formats as ajv-formats ("full" mode) asserts them. A format applies only to values of its own type: a string
 * format says nothing about a number and vice versa.
 */
const DEFS = fullFormats as unknown as Record<string, FormatDef>;

export function isKnownFormat(name: string): boolean {
  return Object.hasOwn(DEFS, name);
}

/**
 * The known format that the unknown name `name` is a likely typo of: equal ignoring case (`URI`), or within one
 * edit (two from 9 letters on) of it ignoring case (`date_time`, `datetime`, `emial`, `uri-refrence`); names of
 * three letters only match ignoring case (`url`, `iri` are other formats, not typos).
 */
export function likelyFormatTypoOf(name: string): string | undefined {
  return nearestWithin(name.toLowerCase(), Object.keys(DEFS), [], (known) =>
    known.length <= 3 ? 0 : known.length < 9 ? 1 : 2,
  );
}

/** The JSON type a known format constrains ("string" or "number"), or undefined when it never fails (`password`). */
export function formatType(name: string): "string" | "number" | undefined {
  const d = DEFS[name] as unknown;
  if (d === true) return undefined;
  if (typeof d === "object" && d !== null && !(d instanceof RegExp) && (d as { type?: string }).type === "number") {
    return "number";
  }
  return "string";
}

/**
 * Whether `value` satisfies the known format `name` as toolgram enforces it (values of another type always do): valid
 * under ajv-formats and in the format's standard grammar (`formatSources.ts`), so that enum and const values are
 * filtered exactly as the grammar's strings are.
 */
export function checkFormat(name: string, value: string | number): boolean {
  return ajvFormatCheck(name, value) && (typeof value !== "string" || matchesFormatSource(name, value));
}

/** ajv-formats' own verdict. */
function ajvFormatCheck(name: string, value: string | number): boolean {
  const d = DEFS[name] as unknown;
  if (d === undefined || d === true) return true;
  const t = formatType(name);
  if ((t === "number") !== (typeof value === "number")) return true;
  if (d instanceof RegExp) return d.test(String(value));
  if (typeof d === "function") return Boolean((d as (x: unknown) => boolean)(value));
  const v = (d as { validate: unknown }).validate;
  if (v instanceof RegExp) return v.test(String(value));
  if (typeof v === "function") return Boolean((v as (x: unknown) => boolean)(value));
  return true;
}
