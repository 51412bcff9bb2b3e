import type { Diagnostic } from "../diagnostic.js";
import { InvalidSchemaError } from "../errors.js";
import { isJsonObject, type JsonObject, type JsonValue } from "../json.js";
import { childPath } from "../util/jsonPointer.js";
import { parseTypeName, STANDARD_TYPES } from "./typeNames.js";

/** A property's own optional/required marker (`optional: true`, `required: false`, `"str, optional"`...). */
export type PresenceMarker = "optional" | "required" | undefined;

export interface Standardized {
  schema: JsonValue;
  marker: PresenceMarker;
}

/** Keywords whose value is one subschema. */
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
];
/** Keywords whose value is a list of subschemas. */
const SCHEMA_LIST = ["anyOf", "oneOf", "allOf", "prefixItems"];
/** Keywords whose value is a map of name → subschema (property declarations handled separately). */
const SCHEMA_MAP = ["patternProperties", "$defs", "definitions", "dependentSchemas"];

/**
 * Rewrites the non-standard spellings found in real tool corpora into standard JSON Schema, one warning each:
 * non-standard type names (NONSTANDARD_TYPE), per-property `optional`/boolean `required` flags, OpenAPI `nullable`
 * and draft-4 boolean `exclusiveMinimum`/`exclusiveMaximum` (NONSTANDARD_SCHEMA), and notes a `default: null` the
 * schema does not allow (DEFAULT_NULL; kept, since `default` is only an annotation). Recurses into every subschema.
 * `s` is a private copy and is modified in place.
 */
export function standardizeSchema(s: JsonValue, path: string, warnings: Diagnostic[]): Standardized {
  if (!isJsonObject(s)) return { schema: s, marker: undefined };
  let marker: PresenceMarker;

  marker = readTypeName(s, path, warnings) ?? marker;

  for (const flag of PRESENCE_FLAGS) {
    const v = s[flag];
    if (typeof v !== "boolean") continue;
    delete s[flag];
    const optional = flag === "optional" ? v : !v;
    marker = optional ? "optional" : "required";
    warnings.push({
      code: "NONSTANDARD_SCHEMA",
      message: `"${flag}": ${v} on a property read as the property being ${optional ? "optional" : "required"} (standard JSON Schema lists required keys in the parent's "required" array)`,
      schemaPath: childPath(path, flag),
    });
  }

  for (const [ex, bound] of DRAFT4_BOUNDS) {
    const v = s[ex];
    if (typeof v !== "boolean") continue;
    delete s[ex];
    const b = s[bound];
    if (v && typeof b === "number") {
      s[ex] = b;
      delete s[bound];
    }
    warnings.push({
      code: "NONSTANDARD_SCHEMA",
      message: `draft-4 boolean "${ex}": ${v} rewritten as ${v && typeof b === "number" ? `"${ex}": ${b}` : `no ${ex}`}`,
      schemaPath: childPath(path, ex),
    });
  }

  // subschemas first, so `nullable` below wraps already-standard parts
  const props = s.properties;
  if (isJsonObject(props)) standardizeProperties(s, props, childPath(path, "properties"), warnings);
  if (hasSubschemas(s)) standardizeSubschemas(s, path, warnings);

  let out: JsonObject = s;
  if (typeof s.nullable === "boolean") out = applyNullable(s, path, warnings);

  if ("default" in out && out.default === null && !allowsNull(out)) {
    warnings.push({
      code: "DEFAULT_NULL",
      message:
        "`default: null` on a schema that does not allow null: kept as an annotation; the model still has to send a valid value or omit the property",
      schemaPath: childPath(path, "default"),
    });
  }
  return { schema: out, marker };
}

const PRESENCE_FLAGS = ["optional", "required"] as const;
const DRAFT4_BOUNDS = [
  ["exclusiveMinimum", "minimum"],
  ["exclusiveMaximum", "maximum"],
] as const;
const SUBSCHEMA_KEYWORDS = new Set([...ONE_SCHEMA, "items", ...SCHEMA_LIST, ...SCHEMA_MAP]);

/**
 * Whether `s` has a keyword holding subschemas (besides `properties`): most schemas of a tool are leaves
 * (`{type: "string"}`), whose few keys are looked up once each instead of every subschema keyword being asked for.
 */
function hasSubschemas(s: JsonObject): boolean {
  for (const k of Object.keys(s)) if (SUBSCHEMA_KEYWORDS.has(k)) return true;
  return false;
}

function standardizeSubschemas(s: JsonObject, path: string, warnings: Diagnostic[]): void {
  for (const k of ONE_SCHEMA) if (k in s) s[k] = standardizeSchema(s[k], childPath(path, k), warnings).schema;
  if ("items" in s) {
    const items = s.items;
    s.items = Array.isArray(items)
      ? items.map((x, i) => standardizeSchema(x, childPath(path, "items", i), warnings).schema)
      : standardizeSchema(items, childPath(path, "items"), warnings).schema;
  }
  for (const k of SCHEMA_LIST) {
    const list = s[k];
    if (Array.isArray(list)) s[k] = list.map((x, i) => standardizeSchema(x, childPath(path, k, i), warnings).schema);
  }
  for (const k of SCHEMA_MAP) {
    const map = s[k];
    if (!isJsonObject(map)) continue;
    for (const name of Object.keys(map))
      map[name] = standardizeSchema(map[name], childPath(path, k, name), warnings).schema;
  }
}

/** Translates `type` when it is not a standard name; returns the optional marker the type name carried. */
function readTypeName(s: JsonObject, path: string, warnings: Diagnostic[]): PresenceMarker {
  const type = s.type;
  if (typeof type === "string" && STANDARD_TYPES.has(type)) return undefined;
  const typePath = childPath(path, "type");
  if (typeof type === "string") {
    const parsed = parseTypeName(type);
    if (!parsed) throw unknownType(type, typePath);
    delete s.type;
    // explicit sibling keywords (items, properties...) win over what the type name implies
    for (const [k, v] of Object.entries(parsed.schema)) if (!(k in s)) s[k] = v;
    warnings.push({
      code: "NONSTANDARD_TYPE",
      message: `type "${type}" read as ${describe(parsed.schema)}${parsed.optional ? " (optional)" : ""}`,
      schemaPath: typePath,
    });
    return parsed.optional ? "optional" : undefined;
  }
  if (Array.isArray(type) && type.some((t) => typeof t !== "string" || !STANDARD_TYPES.has(t))) {
    const names: string[] = [];
    let any = false;
    for (const [i, t] of type.entries()) {
      if (typeof t !== "string")
        throw new InvalidSchemaError("INVALID_SCHEMA", "`type` array items must be type names", childPath(typePath, i));
      const parsed = STANDARD_TYPES.has(t) ? { schema: { type: t } } : parseTypeName(t);
      const pt = parsed?.schema.type;
      if (!parsed) throw unknownType(t, childPath(typePath, i));
      if (Object.keys(parsed.schema).length === 0) any = true;
      else if (typeof pt === "string" && Object.keys(parsed.schema).length === 1) names.push(pt);
      else
        throw new InvalidSchemaError(
          "INVALID_SCHEMA",
          `type "${t}" inside a type array is not a plain type name; use anyOf for composite types`,
          childPath(typePath, i),
        );
    }
    if (any) delete s.type;
    else s.type = [...new Set(names)];
    warnings.push({
      code: "NONSTANDARD_TYPE",
      message: `type ${JSON.stringify(type)} read as ${any ? "any JSON value" : JSON.stringify(s.type)}`,
      schemaPath: typePath,
    });
  }
  return undefined;
}

function unknownType(t: string, path: string): InvalidSchemaError {
  return new InvalidSchemaError(
    "INVALID_SCHEMA",
    `unknown type "${t}"; use a JSON Schema type (object, array, string, number, integer, boolean, null) or a known alias (dict, float, int, str, bool, list, List[int], Optional[str]...)`,
    path,
  );
}

function describe(schema: JsonObject): string {
  return Object.keys(schema).length === 0 ? "any JSON value" : JSON.stringify(schema);
}

/**
 * Per-property markers become the parent's `required` array: `optional` removes the key, `required` adds it.
 * Order of `required` follows declaration order for keys the markers add.
 */
function standardizeProperties(parent: JsonObject, props: JsonObject, path: string, warnings: Diagnostic[]): void {
  const declared = Array.isArray(parent.required)
    ? parent.required.filter((k): k is string => typeof k === "string")
    : undefined;
  const required = new Set(declared ?? []);
  let changed = false;
  for (const key of Object.keys(props)) {
    const r = standardizeSchema(props[key], childPath(path, key), warnings);
    props[key] = r.schema;
    if (r.marker === "optional" && required.has(key)) {
      required.delete(key);
      changed = true;
    } else if (r.marker === "required" && !required.has(key)) {
      required.add(key);
      changed = true;
    }
  }
  if (!changed) return;
  const ordered = [
    ...(declared ?? []).filter((k) => required.has(k)),
    ...Object.keys(props).filter((k) => required.has(k) && !(declared ?? []).includes(k)),
  ];
  if (ordered.length > 0) parent.required = ordered;
  else delete parent.required;
}

/** OpenAPI `nullable: true` → null allowed as well (added to `type`/`enum`, or an anyOf around the schema). */
function applyNullable(s: JsonObject, path: string, warnings: Diagnostic[]): JsonObject {
  const v = s.nullable;
  delete s.nullable;
  warnings.push({
    code: "NONSTANDARD_SCHEMA",
    message: v
      ? "OpenAPI `nullable: true` read as null being allowed too"
      : "OpenAPI `nullable: false` dropped (it is the default)",
    schemaPath: childPath(path, "nullable"),
  });
  if (!v || allowsNull(s)) return s;
  const type = s.type;
  const simpleType = typeof type === "string" || Array.isArray(type);
  if (
    simpleType &&
    !("const" in s) &&
    !("anyOf" in s) &&
    !("oneOf" in s) &&
    !("allOf" in s) &&
    !("not" in s) &&
    !("$ref" in s)
  ) {
    s.type = Array.isArray(type) ? [...type, "null"] : [type as string, "null"];
    if (Array.isArray(s.enum)) s.enum = [...s.enum, null];
    return s;
  }
  // keep annotations outside so tools that read `description` still find it
  const outer: JsonObject = {};
  for (const k of ["title", "description", "default", "examples"]) {
    if (k in s) {
      outer[k] = s[k];
      delete s[k];
    }
  }
  return { anyOf: [s, { type: "null" }], ...outer };
}

/** Conservative check that the schema obviously admits null (used only to decide whether to warn or widen). */
function allowsNull(s: JsonObject): boolean {
  const type = s.type;
  if (type === "null" || (Array.isArray(type) && type.includes("null"))) return true;
  if (
    type === undefined &&
    !("enum" in s) &&
    !("const" in s) &&
    !("anyOf" in s) &&
    !("oneOf" in s) &&
    !("allOf" in s) &&
    !("$ref" in s)
  )
    return true;
  if (Array.isArray(s.enum)) return s.enum.includes(null);
  for (const k of ["anyOf", "oneOf"]) {
    const list = s[k];
    if (Array.isArray(list) && list.some((x) => x === true || (isJsonObject(x) && allowsNull(x)))) return true;
  }
  return false;
}
