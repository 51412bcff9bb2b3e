import type { JsonValue } from "../json.js";

/** JSON equality as ajv's `enum`/`const` judge it: numbers by value, objects regardless of key order. */
export function deepEqual(a: JsonValue, b: JsonValue): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as JsonValue[];
    return a.length === bb.length && a.every((x, i) => deepEqual(x, bb[i]));
  }
  const ao = a as Record<string, JsonValue>;
  const bo = b as Record<string, JsonValue>;
  const ak = Object.keys(ao);
  if (ak.length !== Object.keys(bo).length) return false;
  return ak.every((k) => Object.hasOwn(bo, k) && deepEqual(ao[k], bo[k]));
}

/** Values without duplicates, first occurrence kept. */
export function uniqueValues(values: JsonValue[]): JsonValue[] {
  const out: JsonValue[] = [];
  for (const v of values) if (!out.some((o) => deepEqual(o, v))) out.push(v);
  return out;
}
