import { isJsonObject, type JsonObject, type JsonValue } from "../json.js";

/**
 * How a tagged-parameter format (XmlParametersUnit) writes the value of `key` under the tool's `parameters`: `"string"`
 * when the property's schema admits only strings (written raw), `"json"` when it admits no strings, undefined when
 * it admits both or cannot be told from the schema's own keywords (`type`, `const`, `enum`, `anyOf` / `oneOf`, a
 * local `$ref`) — the reader then decides by the text. The compiler makes the same decision on the normalized schema
 * and refuses the "both" case, so grammar-made text is always read the way it was written.
 */
export function valueKind(parameters: JsonObject, key: string): "string" | "json" | undefined {
  const props = parameters.properties;
  if (!isJsonObject(props) || !Object.hasOwn(props, key)) return undefined;
  return kindOf(props[key], parameters, 0);
}

function kindOf(s: JsonValue, root: JsonObject, depth: number): "string" | "json" | undefined {
  if (!isJsonObject(s) || depth > 16) return undefined;
  if (typeof s.$ref === "string") {
    const m = /^#\/(\$defs|definitions)\/([^/]+)$/.exec(s.$ref);
    const defs = m ? root[m[1]] : undefined;
    return m && isJsonObject(defs)
      ? kindOf(defs[decodeURIComponent(m[2]).replace(/~1/g, "/").replace(/~0/g, "~")], root, depth + 1)
      : undefined;
  }
  if (Object.hasOwn(s, "const")) return typeof s.const === "string" ? "string" : "json";
  if (Array.isArray(s.enum)) return ofAll(s.enum.map((v) => (typeof v === "string" ? "string" : "json")));
  if (typeof s.type === "string") return s.type === "string" ? "string" : "json";
  if (Array.isArray(s.type)) return ofAll(s.type.map((t) => (t === "string" ? "string" : "json")));
  const options = Array.isArray(s.anyOf) ? s.anyOf : Array.isArray(s.oneOf) ? s.oneOf : null;
  if (options) return ofAll(options.map((o) => kindOf(o, root, depth + 1)));
  return undefined;
}

function ofAll(kinds: Array<"string" | "json" | undefined>): "string" | "json" | undefined {
  if (kinds.length === 0) return undefined;
  return kinds.every((k) => k === kinds[0]) ? kinds[0] : undefined;
}

/** A JSON Schema type name (`integer` for whole numbers). */
export type JsonTypeName = "string" | "number" | "integer" | "boolean" | "null" | "object" | "array";

const ALL_TYPES: readonly JsonTypeName[] = ["string", "number", "integer", "boolean", "null", "object", "array"];

/**
 * The JSON types the schema of parameter `key` admits, from its own keywords (`type`, `const`, `enum`, `anyOf` /
 * `oneOf`, a local `$ref`); undefined when they do not say (no such parameter, or a schema without those keywords).
 * `number` admits integers too. Tolerant reading types a raw value by it (`42` for `anyOf: [string, null]` is a string).
 */
export function admittedTypes(parameters: JsonObject, key: string): ReadonlySet<JsonTypeName> | undefined {
  const props = parameters.properties;
  if (!isJsonObject(props) || !Object.hasOwn(props, key)) return undefined;
  return typesOf(props[key], parameters, 0);
}

function typesOf(s: JsonValue, root: JsonObject, depth: number): Set<JsonTypeName> | undefined {
  if (!isJsonObject(s) || depth > 16) return undefined;
  if (typeof s.$ref === "string") {
    const m = /^#\/(\$defs|definitions)\/([^/]+)$/.exec(s.$ref);
    const defs = m ? root[m[1]] : undefined;
    return m && isJsonObject(defs)
      ? typesOf(defs[decodeURIComponent(m[2]).replace(/~1/g, "/").replace(/~0/g, "~")], root, depth + 1)
      : undefined;
  }
  if (Object.hasOwn(s, "const")) return new Set([typeOfValue(s.const as JsonValue)]);
  if (Array.isArray(s.enum)) return new Set(s.enum.map(typeOfValue));
  const named = typeof s.type === "string" ? [s.type] : Array.isArray(s.type) ? s.type : undefined;
  if (named !== undefined) {
    const types = named.filter((t): t is JsonTypeName => ALL_TYPES.includes(t as JsonTypeName));
    // a number admits whole numbers too
    return new Set(types.includes("number") ? [...types, "integer"] : types);
  }
  const options = Array.isArray(s.anyOf) ? s.anyOf : Array.isArray(s.oneOf) ? s.oneOf : null;
  if (options === null) return undefined;
  const out = new Set<JsonTypeName>();
  for (const o of options) {
    const t = typesOf(o, root, depth + 1);
    if (t === undefined) return undefined;
    for (const x of t) out.add(x);
  }
  return out;
}

/** The JSON type of a value (`integer` for a whole number). */
export function typeOfValue(v: JsonValue): JsonTypeName {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  if (typeof v === "number") return Number.isInteger(v) ? "integer" : "number";
  return typeof v as "string" | "boolean" | "object";
}
