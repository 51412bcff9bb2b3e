import type { JsonObject } from "../json.js";

/** The JSON Schema type names; anything else in `type` is a non-standard spelling to translate. */
export const STANDARD_TYPES: ReadonlySet<string> = new Set([
  "object",
  "array",
  "string",
  "number",
  "integer",
  "boolean",
  "null",
]);

/**
 * Type names seen in real tool corpora (BFCL's Python names, Java/JavaScript class names, xLAM's Python typing),
 * lowercased, and the JSON Schema type each means. `null` means any JSON value (no `type`).
 */
const ALIASES: Record<string, string | null> = {
  dict: "object",
  object: "object",
  hashmap: "object",
  map: "object",
  mapping: "object",
  record: "object",
  float: "number",
  double: "number",
  number: "number",
  decimal: "number",
  bigdecimal: "number",
  int: "integer",
  integer: "integer",
  long: "integer",
  short: "integer",
  byte: "integer",
  bigint: "integer",
  biginteger: "integer",
  tuple: "array",
  list: "array",
  arraylist: "array",
  array: "array",
  sequence: "array",
  set: "array",
  str: "string",
  string: "string",
  char: "string",
  character: "string",
  text: "string",
  bool: "boolean",
  boolean: "boolean",
  none: "null",
  nonetype: "null",
  null: "null",
  any: null,
  anytype: null,
};

/** A type name read as a schema, plus whether it carried an "optional" marker (`"str, optional"`, `Optional[X]`). */
export interface ParsedTypeName {
  schema: JsonObject;
  optional: boolean;
}

/**
 * Reads one non-standard type spelling: `float`, `String`, `HashMap`, `"str, optional"`, `List[int]`,
 * `list[str]`, `Dict[str, int]`, `Optional[str]`, `Union[int, str]`, `Tuple[int, int]`, `List<String>`,
 * `String[]`. Returns undefined when the text is not a type name toolgram knows.
 */
export function parseTypeName(text: string): ParsedTypeName | undefined {
  let t = text.trim();
  let optional = false;
  const marker = /^(.*?)\s*,\s*optional$/i.exec(t);
  if (marker) {
    t = marker[1];
    optional = true;
  }
  const schema = parseTypeExpr(t);
  if (schema === undefined) return undefined;
  // Python's Optional[X] means "X or None", and a parameter so typed is conventionally not required
  if (schema.optionalMarker) {
    delete schema.optionalMarker;
    optional = true;
  }
  return { schema: schema as JsonObject, optional };
}

type Built = JsonObject & { optionalMarker?: boolean };

function parseTypeExpr(text: string): Built | undefined {
  const t = text.trim();
  if (t.endsWith("[]")) {
    const item = parseTypeExpr(t.slice(0, -2));
    return item && { type: "array", items: item };
  }
  const generic = /^([A-Za-z_.]+)\s*[[<](.*)[\]>]$/.exec(t);
  if (generic) {
    const head = generic[1].toLowerCase().replace(/^typing\./, "");
    const args = splitArgs(generic[2]);
    if (args === undefined) return undefined;
    const parsed = args.map(parseTypeExpr);
    if (parsed.some((p) => p === undefined)) return undefined;
    const ps = parsed as Built[];
    switch (head) {
      case "optional":
        if (ps.length !== 1) return undefined;
        return { anyOf: [ps[0], { type: "null" }], optionalMarker: true };
      case "union":
        return ps.length === 0 ? undefined : { anyOf: ps };
      case "list":
      case "arraylist":
      case "sequence":
      case "set":
      case "array":
      case "iterable":
        return ps.length === 1 ? { type: "array", items: ps[0] } : undefined;
      case "tuple":
        // Tuple[int, ...] is a homogeneous tuple of any length
        if (ps.length === 2 && args[1] === "...") return { type: "array", items: ps[0] };
        return { type: "array", prefixItems: ps, items: false, minItems: ps.length };
      case "dict":
      case "map":
      case "hashmap":
      case "mapping":
      case "record":
        // keys of a JSON object are strings whatever the declared key type
        return ps.length === 2 ? { type: "object", additionalProperties: ps[1] } : undefined;
      case "literal":
        return undefined;
      default:
        return undefined;
    }
  }
  if (t === "...") return {};
  const alias = ALIASES[t.toLowerCase()];
  if (alias === undefined) return undefined;
  return alias === null ? {} : { type: alias };
}

/** Splits `a, b[c, d], e` at top-level commas; undefined when the brackets do not balance. */
function splitArgs(text: string): string[] | undefined {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "[" || c === "<") depth++;
    else if (c === "]" || c === ">") {
      if (--depth < 0) return undefined;
    } else if (c === "," && depth === 0) {
      out.push(text.slice(start, i).trim());
      start = i + 1;
    }
  }
  if (depth !== 0) return undefined;
  const last = text.slice(start).trim();
  if (last.length > 0 || out.length > 0) out.push(last);
  return out;
}
