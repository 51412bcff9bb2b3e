/**
 * Keyword tables. Every key of a schema object is either implemented (it changes the set of valid values and the
 * normalizer models it), an annotation (no effect on validity), an extension (`x-*`, or `_*` as JSONSchemaBench
 * writes disabled keywords such as `_format`), or unknown. By default (`unknownKeywords: "error-on-typos"`) an
 * unknown key that is a likely typo of an implemented keyword ({@link likelyTypoOf}: `minLenght`, `requried`) is
 * refused in strict mode (code UNKNOWN_KEYWORD, with a "did you mean"), so that a typo never silently widens what a
 * grammar accepts; any other unknown key (`markdownDescription`, `discriminator`, a typo of an annotation such as
 * `decription`) is an annotation, as the spec reads it, reported as an IGNORED_KEYWORD warning.
 */
export const IMPLEMENTED: ReadonlySet<string> = new Set([
  "type",
  "enum",
  "const",
  "nullable",
  "minLength",
  "maxLength",
  "pattern",
  "format",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "multipleOf",
  "items",
  "prefixItems",
  "additionalItems",
  "minItems",
  "maxItems",
  "contains",
  "minContains",
  "maxContains",
  "uniqueItems",
  "unevaluatedItems",
  "properties",
  "required",
  "additionalProperties",
  "patternProperties",
  "propertyNames",
  "minProperties",
  "maxProperties",
  "dependentRequired",
  "dependencies",
  "dependentSchemas",
  "unevaluatedProperties",
  "$ref",
  "$dynamicRef",
  "$recursiveRef",
  "allOf",
  "anyOf",
  "oneOf",
  "not",
  "if",
  "then",
  "else",
]);

export const ANNOTATIONS: ReadonlySet<string> = new Set([
  "title",
  "description",
  "default",
  "examples",
  "example",
  "$comment",
  "deprecated",
  "readOnly",
  "writeOnly",
  "contentMediaType",
  "contentEncoding",
  "contentSchema",
  "$schema",
  "$id",
  "id",
  "$vocabulary",
  "$defs",
  "definitions",
  "$anchor",
  "$dynamicAnchor",
  "$recursiveAnchor",
]);

/** Vendor extensions and disabled keywords: annotations by convention (`x-foo`, `_format`). */
export function isExtensionKeyword(k: string): boolean {
  return k.startsWith("x-") || k.startsWith("_");
}

/** Keywords whose value is one subschema. */
export const SUBSCHEMA_KEYWORDS = [
  "items",
  "additionalItems",
  "contains",
  "additionalProperties",
  "propertyNames",
  "not",
  "if",
  "then",
  "else",
  "unevaluatedItems",
  "unevaluatedProperties",
  "contentSchema",
] as const;

/** Keywords whose value is an array of subschemas. */
export const SUBSCHEMA_ARRAY_KEYWORDS = ["allOf", "anyOf", "oneOf", "prefixItems", "items"] as const;

/** Keywords whose value maps names to subschemas. */
export const SUBSCHEMA_MAP_KEYWORDS = [
  "properties",
  "patternProperties",
  "$defs",
  "definitions",
  "dependentSchemas",
  "dependencies",
] as const;

/** Which dialect a document is read in: only the differences the normalizer models. */
export type Draft = "2020-12" | "draft-7";

export function detectDraft(schema: unknown): Draft {
  if (typeof schema === "object" && schema !== null && !Array.isArray(schema)) {
    const s = (schema as Record<string, unknown>).$schema;
    if (typeof s === "string" && /draft-0[3-7]/.test(s)) return "draft-7";
  }
  return "2020-12";
}

/**
 * Optimal string alignment distance (Levenshtein plus adjacent transpositions, each edit 1; case counts): `requried`
 * and `maxLenght` are one edit from `required` and `maxLength`.
 */
export function editDistance(a: string, b: string): number {
  const rows: number[][] = [];
  for (let i = 0; i <= a.length; i++) {
    const row = new Array<number>(b.length + 1);
    row[0] = i;
    rows.push(row);
  }
  for (let j = 0; j <= b.length; j++) rows[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, rows[i - 2][j - 2] + 1);
      rows[i][j] = d;
    }
  }
  return rows[a.length][b.length];
}

/**
 * How many edits still count as a typo of `keyword`: none for `if` and `not` (`in`, `note` are plausible vendor
 * words), 1 up to 6 letters (`tyep`, `enums`), 2 up to 11 (`requried`, `additonalItems`), 3 beyond
 * (`additionalProperty`).
 */
function typoBudget(keyword: string): number {
  const n = keyword.replace(/^\$/, "").length;
  return n <= 3 ? 0 : n <= 6 ? 1 : n <= 11 ? 2 : 3;
}

/**
 * The implemented (validation) keyword that `key`, an unknown keyword, is a likely typo of: within
 * {@link typoBudget} edits of it, and no annotation strictly closer (`decription` is a typo of `description`, an
 * annotation, and stays one). Undefined when `key` is not such a typo, or is a JSON-LD keyword (`@type`). Ties go to the shorter distance, then the
 * table order.
 */
export function likelyTypoOf(key: string): string | undefined {
  // JSON-LD keywords (`@type`, `@id`, `@context`) sit in schemas as annotations; `@type` is not a typo of `type`
  if (key.startsWith("@")) return undefined;
  return nearestWithin(key, IMPLEMENTED, ANNOTATIONS, typoBudget);
}

/** The member of `targets` nearest to `key` within its budget, unless a member of `others` is strictly nearer. */
export function nearestWithin(
  key: string,
  targets: Iterable<string>,
  others: Iterable<string>,
  budget: (target: string) => number,
): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const t of targets) {
    const d = editDistance(key, t);
    if (d <= budget(t) && d < bestDistance) {
      best = t;
      bestDistance = d;
    }
  }
  if (best === undefined) return undefined;
  for (const o of others) if (editDistance(key, o) < bestDistance) return undefined;
  return best;
}
