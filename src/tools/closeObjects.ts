import { isJsonObject, type JsonObject, type JsonValue } from "../json.js";

const ONE_SCHEMA = ["additionalProperties", "unevaluatedProperties", "unevaluatedItems", "additionalItems", "propertyNames", "contains", "not", "if", "then", "else", "items"];
const SCHEMA_LIST = ["anyOf", "oneOf", "prefixItems", "items"];
const SCHEMA_MAP = ["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"];

/**
 * A copy of `schema` with `additionalProperties: false` on every object schema that declares at least one property
 * and says nothing about extra keys (no `additionalProperties`, `patternProperties` or `unevaluatedProperties`):
 * the JSON Schema spelling of the `additionalProperties: "forbid"` compile option, so that `toJsonSchema()` describes
 * what the grammar accepts. `allOf` branches are left open (closing each branch would reject keys another branch
 * declares).
 */
export function closeObjects(schema: JsonValue): JsonValue {
  if (!isJsonObject(schema)) return schema;
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(schema)) {
    if (SCHEMA_MAP.includes(k) && isJsonObject(v)) out[k] = Object.fromEntries(Object.entries(v).map(([n, s]) => [n, closeObjects(s)]));
    else if (SCHEMA_LIST.includes(k) && Array.isArray(v)) out[k] = v.map(closeObjects);
    else if (ONE_SCHEMA.includes(k)) out[k] = closeObjects(v);
    else out[k] = v;
  }
  const props = schema["properties"];
  const open = !("additionalProperties" in schema) && !("patternProperties" in schema) && !("unevaluatedProperties" in schema);
  if (open && isJsonObject(props) && Object.keys(props).length > 0) out["additionalProperties"] = false;
  return out;
}
