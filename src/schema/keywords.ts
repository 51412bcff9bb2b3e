/**
 * Keyword tables. Every key of a schema object is either implemented (it changes the set of valid values and the
 * normalizer models it), an annotation (no effect on validity), an extension (`x-*`, or `_*` as JSONSchemaBench
 * writes disabled keywords such as `_format`), or unknown. Unknown keys are
 * refused in strict mode (code UNKNOWN_KEYWORD) and reported as warnings otherwise, so that a typo such as
 * `minLenght` never silently widens what a grammar accepts.
 */
export const IMPLEMENTED: ReadonlySet<string> = new Set([
  "type", "enum", "const", "nullable",
  "minLength", "maxLength", "pattern", "format",
  "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf",
  "items", "prefixItems", "additionalItems", "minItems", "maxItems", "contains", "minContains", "maxContains",
  "uniqueItems", "unevaluatedItems",
  "properties", "required", "additionalProperties", "patternProperties", "propertyNames",
  "minProperties", "maxProperties", "dependentRequired", "dependencies", "dependentSchemas", "unevaluatedProperties",
  "$ref", "$dynamicRef", "$recursiveRef", "allOf", "anyOf", "oneOf", "not", "if", "then", "else",
]);

export const ANNOTATIONS: ReadonlySet<string> = new Set([
  "title", "description", "default", "examples", "example", "$comment", "deprecated", "readOnly", "writeOnly",
  "contentMediaType", "contentEncoding", "contentSchema", "$schema", "$id", "id", "$vocabulary", "$defs",
  "definitions", "$anchor", "$dynamicAnchor", "$recursiveAnchor",
]);

/** Vendor extensions and disabled keywords: annotations by convention (`x-foo`, `_format`). */
export function isExtensionKeyword(k: string): boolean {
  return k.startsWith("x-") || k.startsWith("_");
}

/** Keywords whose value is one subschema. */
export const SUBSCHEMA_KEYWORDS = ["items", "additionalItems", "contains", "additionalProperties", "propertyNames",
  "not", "if", "then", "else", "unevaluatedItems", "unevaluatedProperties", "contentSchema"] as const;

/** Keywords whose value is an array of subschemas. */
export const SUBSCHEMA_ARRAY_KEYWORDS = ["allOf", "anyOf", "oneOf", "prefixItems", "items"] as const;

/** Keywords whose value maps names to subschemas. */
export const SUBSCHEMA_MAP_KEYWORDS = ["properties", "patternProperties", "$defs", "definitions", "dependentSchemas",
  "dependencies"] as const;

/** Which dialect a document is read in: only the differences the normalizer models. */
export type Draft = "2020-12" | "draft-7";

export function detectDraft(schema: unknown): Draft {
  if (typeof schema === "object" && schema !== null && !Array.isArray(schema)) {
    const s = (schema as Record<string, unknown>)["$schema"];
    if (typeof s === "string" && /draft-0[3-7]/.test(s)) return "draft-7";
  }
  return "2020-12";
}
