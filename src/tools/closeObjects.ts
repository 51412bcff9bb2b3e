import { isJsonObject, type JsonObject, type JsonValue } from "../json.js";
import { setOwn } from "../schema/setOwn.js";

const ONE_SCHEMA = [
  "additionalProperties",
  "unevaluatedProperties",
  "unevaluatedItems",
  "additionalItems",
  "propertyNames",
  "contains",
  "not",
  "if",
  "then",
  "else",
  "items",
];
const SCHEMA_LIST = ["anyOf", "oneOf", "prefixItems", "items"];
const SCHEMA_MAP = ["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"];

/** Keywords beside `properties` that may declare more keys; such objects are left to the schema normalizer. */
const KEY_APPLICATORS = [
  "allOf",
  "anyOf",
  "oneOf",
  "$ref",
  "$dynamicRef",
  "if",
  "dependentSchemas",
  "dependencies",
  "additionalProperties",
  "patternProperties",
  "unevaluatedProperties",
];

/**
 * A copy of `schema` with `additionalProperties: false` on every object schema that has a `properties` keyword
 * (even an empty one: `properties: {}` on a tool means "no arguments") and nothing else that could admit or declare
 * keys. It is the JSON Schema spelling of the `additionalProperties: "forbid"` compile option: `toJsonSchema()` uses
 * it so that the union describes what the grammar accepts, and compiling uses it so that an empty `properties` is
 * closed too. Objects with applicators beside `properties` (allOf, $ref...) are left as they are (closing one
 * branch would reject keys another declares); the normalizer closes those after merging.
 */
export function closeObjects(schema: JsonValue): JsonValue {
  if (!isJsonObject(schema)) return schema;
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(schema)) {
    if (SCHEMA_MAP.includes(k) && isJsonObject(v))
      out[k] = Object.fromEntries(Object.entries(v).map(([n, s]) => [n, closeObjects(s)]));
    else if (SCHEMA_LIST.includes(k) && Array.isArray(v)) out[k] = v.map(closeObjects);
    else if (ONE_SCHEMA.includes(k)) out[k] = closeObjects(v);
    else setOwn(out, k, v);
  }
  const props = schema.properties;
  if (isJsonObject(props) && !KEY_APPLICATORS.some((k) => k in schema)) out.additionalProperties = false;
  return out;
}
