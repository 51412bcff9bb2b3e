import { InvalidSchemaError } from "../errors.js";
import { type NormalizeContext, refuse, warn } from "./NormalizeContext.js";
import type { ArrayNode, NumberNode, ObjectNode, PropertyNode, SchemaNode, StringNode } from "./SchemaNode.js";
import { formatType, isKnownFormat, likelyFormatTypoOf } from "./stringFormats.js";
import { intersect, numberEmptyReason, schemaForKey } from "./intersect.js";
import { KINDS, type Kind, anyNode, makeUnion, never, plainString } from "./nodes.js";
import { childPath } from "../util/jsonPointer.js";
import { patternOverlaps } from "./patternOverlaps.js";
import { setOwn } from "./setOwn.js";
import { KeywordReader } from "./validateKeywords.js";

const TYPE_NAMES = new Set(["null", "boolean", "object", "array", "number", "integer", "string"]);

/** In-place applicators: when present, `unevaluated*` depends on what they evaluate. */
const APPLICATORS = [
  "$ref",
  "$dynamicRef",
  "$recursiveRef",
  "allOf",
  "anyOf",
  "oneOf",
  "if",
  "then",
  "else",
  "dependentSchemas",
  "dependencies",
  "not",
];

/** Whether a subschema of an applicator can mark properties (or items) as evaluated. */
function evaluatesNothing(s: unknown, words: string[]): boolean {
  if (typeof s === "boolean") return true;
  if (typeof s !== "object" || s === null) return true;
  const o = s as Record<string, unknown>;
  return !words.some((w) => w in o) && !APPLICATORS.some((w) => w in o && w !== "not");
}

function applicatorsEvaluateNothing(s: Record<string, unknown>, words: string[]): boolean {
  for (const a of APPLICATORS) {
    if (!(a in s) || a === "not") continue;
    const v = s[a];
    if (a === "allOf" || a === "anyOf" || a === "oneOf") {
      if (!Array.isArray(v) || !v.every((b) => evaluatesNothing(b, words))) return false;
    } else if (a === "if" || a === "then" || a === "else") {
      if (!evaluatesNothing(v, words)) return false;
    } else if (a === "dependencies") {
      if (
        typeof v !== "object" ||
        v === null ||
        !Object.values(v).every((d) => Array.isArray(d) || evaluatesNothing(d, words))
      )
        return false;
    } else if (a === "dependentSchemas") {
      if (typeof v !== "object" || v === null || !Object.values(v).every((d) => evaluatesNothing(d, words)))
        return false;
    } else return false;
  }
  return true;
}

/** Int formats of ajv-formats constrain numbers; float/double accept every number. */
const INT_FORMATS: Record<string, [number, number]> = {
  int32: [-(2 ** 31), 2 ** 31 - 1],
  int64: [-(2 ** 63), 2 ** 63 - 1],
};

/**
 * The node of `type` and the type-specific keywords of one schema object (applicators, `enum` and `$ref` are
 * combined by the caller). Without `type`, every kind is allowed and each kind's keywords constrain only that kind.
 */
export function buildLocal(ctx: NormalizeContext, s: Record<string, unknown>, ptr: string): SchemaNode {
  const path = ctx.basePath + ptr;
  const r = new KeywordReader(s, path);
  let kinds: Kind[] = [...KINDS];
  let integerOnly = false;
  if (r.has("type")) {
    const t = s.type;
    const names = typeof t === "string" ? [t] : Array.isArray(t) ? t : undefined;
    if (!names?.every((n) => typeof n === "string" && TYPE_NAMES.has(n))) {
      r.fail("type", `one of ${[...TYPE_NAMES].join(", ")} or an array of them`);
    }
    const set = new Set(names as string[]);
    if (s.nullable === true) {
      set.add("null");
      warn(ctx, "NULLABLE", childPath(path, "nullable"), "OpenAPI `nullable: true` read as type null being allowed");
    }
    integerOnly = set.has("integer") && !set.has("number");
    if (set.has("integer")) set.add("number");
    kinds = KINDS.filter((k) => set.has(k));
  }
  const format = checkFormat(ctx, r);
  const options: SchemaNode[] = [];
  for (const k of kinds) {
    switch (k) {
      case "number":
        options.push(buildNumber(ctx, r, path, integerOnly, format));
        break;
      case "string":
        options.push(buildString(r, path, format));
        break;
      case "array":
        options.push(buildArray(ctx, r, ptr));
        break;
      case "object":
        options.push(buildObject(ctx, r, ptr));
        break;
      default:
        options.push({ kind: k, path });
    }
  }
  // Keyword values are checked even when their kind is excluded by `type`.
  if (!kinds.includes("string")) buildString(r, path, undefined);
  if (!kinds.includes("number")) buildNumber(ctx, r, path, false, undefined);
  if (!options.length) return never(path, "type list is empty");
  return makeUnion(path, options);
}

/**
 * A known format name, or undefined. An unknown one is refused (UNSUPPORTED_FORMAT; a warning under strict: false)
 * when `unknownKeywords` is "error", or when it is "error-on-typos" and the name is a likely typo of a known format
 * (`date_time`, `emial`, `URI`); otherwise it is an annotation, as ajv (strict: false) and the spec read it.
 */
function checkFormat(ctx: NormalizeContext, r: KeywordReader): string | undefined {
  const f = r.str("format");
  if (f === undefined) return undefined;
  if (isKnownFormat(f)) return f;
  const mode = ctx.opts.unknownKeywords;
  const typo = mode === "ignore" ? undefined : likelyFormatTypoOf(f);
  if (mode === "ignore" || (mode === "error-on-typos" && typo === undefined)) {
    // an unknown format is exactly no constraint, not an over-approximation
    warn(ctx, "IGNORED_KEYWORD", childPath(r.path, "format"), `unknown format "${f}" read as an annotation`);
    return undefined;
  }
  const hint =
    typo !== undefined
      ? `; did you mean "${typo}"?`
      : " (ajv-formats defines date, time, date-time, email, uri, uuid, ipv4, ...)";
  refuse(ctx, "format", childPath(r.path, "format"), `unknown format "${f}"${hint}`, "UNSUPPORTED_FORMAT");
  return undefined;
}

function buildNumber(
  ctx: NormalizeContext,
  r: KeywordReader,
  path: string,
  integer: boolean,
  f: string | undefined,
): SchemaNode {
  let n: NumberNode = { kind: "number", path, integer };
  const min = r.num("minimum");
  const max = r.num("maximum");
  if (min !== undefined) n.minimum = { value: min, exclusive: false };
  if (max !== undefined) n.maximum = { value: max, exclusive: false };
  for (const [k, side] of [
    ["exclusiveMinimum", "minimum"],
    ["exclusiveMaximum", "maximum"],
  ] as const) {
    if (!r.has(k)) continue;
    const v = r.s[k];
    let bound: number | undefined;
    if (typeof v === "boolean") {
      // draft-4: a boolean that makes `minimum`/`maximum` exclusive
      if (v && (side === "minimum" ? min : max) !== undefined) bound = side === "minimum" ? min : max;
      if (v) warn(ctx, "DRAFT4_KEYWORD", childPath(path, k), `draft-4 boolean ${k} read as an exclusive ${side}`);
    } else bound = r.num(k);
    if (bound === undefined) continue;
    const other = { kind: "number" as const, path, integer: false, [side]: { value: bound, exclusive: true } };
    const m = intersect(ctx, n, other, path);
    if (m.kind !== "number") return m;
    n = m;
  }
  const mult = r.num("multipleOf");
  if (mult !== undefined) {
    if (!(mult > 0)) r.fail("multipleOf", "a number greater than 0");
    n.multipleOf = [mult];
  }
  if (f && formatType(f) === "number" && INT_FORMATS[f]) {
    const [lo, hi] = INT_FORMATS[f];
    const m = intersect(
      ctx,
      n,
      {
        kind: "number",
        path,
        integer: true,
        minimum: { value: lo, exclusive: false },
        maximum: { value: hi, exclusive: false },
      },
      path,
    );
    return m;
  }
  const why = numberEmptyReason(n);
  return why ? never(path, why) : n;
}

function buildString(r: KeywordReader, path: string, f: string | undefined): SchemaNode {
  const n: StringNode = {
    kind: "string",
    path,
    minLength: r.count("minLength") ?? 0,
    patterns: [],
    notPatterns: [],
    formats: [],
  };
  const max = r.count("maxLength");
  if (max !== undefined) n.maxLength = max;
  const p = r.str("pattern");
  if (p !== undefined) {
    checkPattern(p, childPath(path, "pattern"));
    n.patterns.push(p);
  }
  if (f && formatType(f) === "string") n.formats.push(f);
  if (max !== undefined && n.minLength > max) return never(path, `minLength ${n.minLength} is above maxLength ${max}`);
  return n;
}

function checkPattern(p: string, path: string): void {
  try {
    new RegExp(p, "u");
  } catch (e) {
    throw new InvalidSchemaError(
      "INVALID_PATTERN",
      `pattern ${JSON.stringify(p)} is not a valid ECMAScript regex with the u flag: ${(e as Error).message}. Escape literal characters such as { } / - with a backslash only where the u flag allows it`,
      path,
    );
  }
}

function buildArray(ctx: NormalizeContext, r: KeywordReader, ptr: string): SchemaNode {
  const path = ctx.basePath + ptr;
  const s = r.s;
  const prefix: SchemaNode[] = [];
  let items: SchemaNode | null = anyNode(path);
  let itemsStated = false;
  if (r.has("prefixItems")) {
    r.schemaArray("prefixItems")!.forEach((x, i) => prefix.push(ctx.sub(x, childPath(ptr, "prefixItems", i))));
  }
  if (Array.isArray(s.items)) {
    // draft-7 array form: a tuple, then `additionalItems` for the rest
    if (!prefix.length) s.items.forEach((x, i) => prefix.push(ctx.sub(x, childPath(ptr, "items", i))));
    if (r.has("additionalItems")) {
      items = ctx.sub(r.schema("additionalItems"), childPath(ptr, "additionalItems"));
      itemsStated = true;
    }
  } else if (r.has("items")) {
    items = ctx.sub(r.schema("items"), childPath(ptr, "items"));
    itemsStated = true;
  }
  if (r.has("unevaluatedItems") && !itemsStated) {
    const ue = r.schema("unevaluatedItems");
    if (ue !== true) {
      if (
        r.has("contains") ||
        !applicatorsEvaluateNothing(s, ["prefixItems", "items", "additionalItems", "contains", "unevaluatedItems"])
      ) {
        refuse(
          ctx,
          "unevaluatedItems",
          childPath(path, "unevaluatedItems"),
          "which items count as evaluated depends on applicators or `contains`",
        );
      } else items = ctx.sub(ue, childPath(ptr, "unevaluatedItems"));
    }
  }
  const minItems = r.count("minItems") ?? 0;
  let maxItems = r.count("maxItems");
  if (items?.kind === "never") items = null;
  // a `never` tuple slot means the array must end before it
  const cut = prefix.findIndex((x) => x.kind === "never");
  if (cut >= 0) {
    prefix.length = cut;
    items = null;
  }
  if (items === null) maxItems = Math.min(maxItems ?? Infinity, prefix.length);
  const n: ArrayNode = { kind: "array", path, prefixItems: prefix, items, minItems };
  if (maxItems !== undefined) n.maxItems = maxItems;
  if (r.has("contains")) {
    const c = ctx.sub(r.schema("contains"), childPath(ptr, "contains"));
    const min = r.count("minContains") ?? 1;
    const max = r.count("maxContains");
    if (min > 0 || max !== undefined) n.contains = max === undefined ? { schema: c, min } : { schema: c, min, max };
    if (max !== undefined && min > max) return never(path, `minContains ${min} is above maxContains ${max}`);
    if (n.maxItems !== undefined && min > n.maxItems)
      return never(path, `minContains ${min} is above maxItems ${n.maxItems}`);
  } else {
    r.count("minContains");
    r.count("maxContains");
  }
  // enforced in lowering where the items come from a finite domain (lowerUniqueArray), refused there otherwise
  if (r.bool("uniqueItems") === true && !(n.maxItems !== undefined && n.maxItems <= 1)) n.uniqueItems = true;
  if (n.maxItems !== undefined && minItems > n.maxItems)
    return never(path, `minItems ${minItems} is above the ${n.maxItems} items allowed`);
  return n;
}

function buildObject(ctx: NormalizeContext, r: KeywordReader, ptr: string): SchemaNode {
  const path = ctx.basePath + ptr;
  const s = r.s;
  const patternProperties: ObjectNode["patternProperties"] = [];
  for (const [pat, sub] of Object.entries(r.schemaMap("patternProperties") ?? {})) {
    checkPattern(pat, childPath(path, "patternProperties", pat));
    patternProperties.push({ pattern: pat, schema: ctx.sub(sub, childPath(ptr, "patternProperties", pat)) });
  }
  let additional = anyNode(path) as SchemaNode | false;
  const apStated = r.has("additionalProperties");
  if (apStated) additional = ctx.sub(r.schema("additionalProperties"), childPath(ptr, "additionalProperties"));
  let open = !apStated && !patternProperties.length;
  if (r.has("unevaluatedProperties") && !apStated) {
    const ue = r.schema("unevaluatedProperties");
    if (ue !== true) {
      if (
        !applicatorsEvaluateNothing(s, [
          "properties",
          "patternProperties",
          "additionalProperties",
          "unevaluatedProperties",
        ])
      ) {
        refuse(
          ctx,
          "unevaluatedProperties",
          childPath(path, "unevaluatedProperties"),
          "which properties count as evaluated depends on applicators; use additionalProperties beside the properties instead",
        );
      } else {
        additional = ctx.sub(ue, childPath(ptr, "unevaluatedProperties"));
        open = false;
      }
    }
  }
  if (additional !== false && additional.kind === "never") additional = false;
  const node: ObjectNode = {
    kind: "object",
    path,
    properties: [],
    patternProperties,
    additionalProperties: additional,
    minProperties: r.count("minProperties") ?? 0,
    dependentRequired: {},
  };
  const overlaps = patternOverlaps(ctx, patternProperties);
  if (overlaps !== undefined) node.patternOverlaps = overlaps;
  const maxP = r.count("maxProperties");
  if (maxP !== undefined) node.maxProperties = maxP;
  if (r.has("propertyNames")) {
    // keys are strings: keep only the string part, so lowering sees a string-like node
    const pn = ctx.sub(r.schema("propertyNames"), childPath(ptr, "propertyNames"));
    node.propertyNames = intersect(ctx, pn, plainString(pn.path), pn.path);
    if (node.propertyNames.kind === "never") node.maxProperties = 0;
  }
  const required = r.strings("required") ?? [];
  const props: PropertyNode[] = [];
  for (const [key, sub] of Object.entries(r.schemaMap("properties") ?? {})) {
    let schema = ctx.sub(sub, childPath(ptr, "properties", key));
    for (const pp of patternProperties) {
      if (new RegExp(pp.pattern, "u").test(key)) schema = intersect(ctx, schema, pp.schema, schema.path);
    }
    props.push({ key, schema, required: required.includes(key) });
  }
  node.properties = props;
  for (const key of required) {
    if (props.some((p) => p.key === key)) continue;
    props.push({ key, schema: schemaForKey(ctx, node, key), required: true });
  }
  const dr = r.schemaMap("dependentRequired") ?? {};
  for (const [k, v] of Object.entries(dr)) {
    if (!Array.isArray(v) || !v.every((x) => typeof x === "string"))
      r.fail("dependentRequired", "an object of string arrays");
    setOwn(node.dependentRequired, k, v as string[]);
  }
  const deps = s.dependencies;
  if (deps !== undefined) {
    if (typeof deps !== "object" || deps === null || Array.isArray(deps)) r.fail("dependencies", "an object");
    for (const [k, v] of Object.entries(deps as Record<string, unknown>)) {
      if (Array.isArray(v)) {
        if (!v.every((x) => typeof x === "string")) r.fail("dependencies", "an object of string arrays or schemas");
        setOwn(node.dependentRequired, k, [
          ...(Object.hasOwn(node.dependentRequired, k) ? node.dependentRequired[k] : []),
          ...(v as string[]),
        ]);
      }
    }
  }
  for (const p of props) {
    if (p.required && p.schema.kind === "never") return never(path, `required property "${p.key}": ${p.schema.reason}`);
  }
  if (maxP !== undefined && (node.minProperties > maxP || props.filter((p) => p.required).length > maxP)) {
    return never(path, `more properties are required than maxProperties ${maxP} allows`);
  }
  if (open) ctx.openByDefault.add(node);
  return node;
}
