import { canonicalJson, type JsonValue } from "../json.js";
import type { FormatDescription } from "./FormatDescription.js";
import type { DerivedFormatName } from "./FormatName.js";

/**
 * Descriptions derived from chat templates in this process, by name. A derived name is a hash of its description, so
 * a name always means one description and registering the same layout twice is harmless; the name is usable wherever
 * a format is named (describeFormat) once the template was read here. The description itself is what travels.
 */
const derived = new Map<string, { description: FormatDescription; text: string }>();

/** The derived description named `name`, if a template was read to it in this process. */
export function derivedFormat(name: string): FormatDescription | undefined {
  return derived.get(name)?.description;
}

/**
 * Names a derived description (`derived-` + 12 hex digits of the hash of everything but its name) and registers it
 * under that name.
 */
export function nameDerived(d: Omit<FormatDescription, "name">): FormatDescription {
  const text = canonicalJson(asJson(d));
  const name: DerivedFormatName = `derived-${hash(text)}`;
  const known = derived.get(name);
  if (known !== undefined) {
    // 48 bits make a collision unlikely, not impossible: a name never stands for two descriptions
    if (known.text !== text) throw new Error(`internal: two derived descriptions hash to ${name}`);
    return known.description;
  }
  const named = { ...d, name } as FormatDescription;
  derived.set(name, { description: named, text });
  return named;
}

/** The description as JSON (`Infinity` and regular expressions spelled as text), for hashing. */
function asJson(d: object): JsonValue {
  return JSON.parse(
    JSON.stringify(d, (_k, v: unknown) =>
      v === Infinity ? "Infinity" : v instanceof RegExp ? String(v) : v === undefined ? null : v,
    ),
  ) as JsonValue;
}

/** FNV-1a, 48 bits as 12 hex digits: a stable short name, not a security property. */
function hash(text: string): string {
  let h = 0xcbf29ce484222325n;
  for (const c of new TextEncoder().encode(text)) {
    h ^= BigInt(c);
    h = (h * 0x100000001b3n) & 0xffffffffffffffffn;
  }
  return (h & 0xffffffffffffn).toString(16).padStart(12, "0");
}
