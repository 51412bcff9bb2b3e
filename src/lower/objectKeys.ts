import type { GExpr } from "../grammar/Grammar.js";
import { alt, lit, NOTHING, seq } from "../grammar/build.js";
import { quoteJsonString } from "../json.js";
import type { ObjectNode, SchemaNode, StringConstraints } from "../schema/SchemaNode.js";
import { compilePattern } from "../schema/valueMatches.js";
import type { LowerState } from "./LowerState.js";
import { stringContent } from "./lowerString.js";
import { shape } from "./schemaRelation.js";

/**
 * How undeclared keys are written: JSON strings by default; Gemma 4 writes them bare. `content`: the key text for a
 * string spec (quotes included); `literal`: one known key, or NOTHING when it cannot be written.
 */
export interface KeySpelling {
  content(spec: StringConstraints, path: string, st: LowerState): GExpr;
  literal(key: string): GExpr;
}

const JSON_KEYS: KeySpelling = {
  content: (spec, path, st) => seq(lit('"'), stringContent(spec, path, st), lit('"')),
  literal: (k) => lit(quoteJsonString(k)),
};

/** One family of undeclared members: keys from a key language, values from one schema. */
export interface ExtraFamily {
  key: GExpr;
  value: SchemaNode;
}

const EMPTY_SPEC: StringConstraints = { minLength: 0, patterns: [], notPatterns: [], formats: [], notValues: [] };

function mergeSpec(a: StringConstraints, b: StringConstraints): StringConstraints {
  const maxLength =
    a.maxLength === undefined
      ? b.maxLength
      : b.maxLength === undefined
        ? a.maxLength
        : Math.min(a.maxLength, b.maxLength);
  return {
    minLength: Math.max(a.minLength, b.minLength),
    ...(maxLength === undefined ? {} : { maxLength }),
    patterns: [...a.patterns, ...b.patterns],
    notPatterns: [...a.notPatterns, ...b.notPatterns],
    formats: [...a.formats, ...b.formats],
    notValues: [...(a.notValues ?? []), ...(b.notValues ?? [])],
  };
}

interface KeyFamily {
  patterns: string[];
  notPatterns: string[];
  schema: SchemaNode;
}

/**
 * The undeclared members an object allows: keys matching patternProperties, then additionalProperties' keys, which
 * match no pattern. Keys in `excluded` (declared keys and others) never appear. `propertyNames` narrows every key
 * language.
 */
export function extraFamilies(
  n: ObjectNode,
  excluded: string[],
  st: LowerState,
  keys: KeySpelling = JSON_KEYS,
): ExtraFamily[] {
  const all = n.patternProperties.map((p) => p.pattern);
  const families = n.patternOverlaps ? subsetFamilies(n) : groupFamilies(n);
  if (n.additionalProperties !== false && n.additionalProperties.kind !== "never") {
    families.push({ patterns: [], notPatterns: all, schema: n.additionalProperties });
  }
  const out: ExtraFamily[] = [];
  const names = n.propertyNames;
  for (const f of families) {
    if (f.schema.kind === "never") continue;
    const base: StringConstraints = {
      ...EMPTY_SPEC,
      patterns: f.patterns,
      notPatterns: f.notPatterns,
      notValues: [...excluded],
    };
    const key = keyLanguage(names, base, f, excluded, n.path, st, keys);
    if (key.type === "alt" && key.items.length === 0) continue;
    out.push({ key, value: f.schema });
  }
  return out;
}

/**
 * One family per subset of the patterns a key can match: the keys matching exactly those patterns, whose value is
 * the intersection of their schemas (ObjectNode.patternOverlaps; a subset without one is left out, and so are its
 * keys: fewer texts, never an invalid one). The families' key languages are disjoint.
 */
function subsetFamilies(n: ObjectNode): KeyFamily[] {
  const pps = n.patternProperties;
  const overlap = new Map((n.patternOverlaps ?? []).map((o) => [o.members, o.schema]));
  const families: KeyFamily[] = [];
  for (let members = 1; members < 1 << pps.length; members++) {
    const schema = (members & (members - 1)) === 0 ? pps[Math.log2(members)].schema : overlap.get(members);
    if (schema === undefined) continue;
    const inside = pps.filter((_, i) => members & (1 << i)).map((p) => p.pattern);
    const outside = pps.filter((_, i) => !(members & (1 << i))).map((p) => p.pattern);
    families.push({ patterns: inside, notPatterns: outside, schema });
  }
  return families;
}

/**
 * Without overlaps (more patterns than src/schema/patternOverlaps.ts builds them for): for each group of
 * patternProperties with the same schema, keys matching one of its patterns and no pattern of another group (a key
 * matching patterns with different schemas would need their intersection, so such keys are left out).
 */
function groupFamilies(n: ObjectNode): KeyFamily[] {
  const groups = new Map<string, { patterns: string[]; schema: SchemaNode }>();
  for (const pp of n.patternProperties) {
    const k = shape(pp.schema);
    const g = groups.get(k);
    if (g) g.patterns.push(pp.pattern);
    else groups.set(k, { patterns: [pp.pattern], schema: pp.schema });
  }
  const all = n.patternProperties.map((p) => p.pattern);
  const families: KeyFamily[] = [];
  for (const g of groups.values()) {
    const others = all.filter((p) => !g.patterns.includes(p));
    g.patterns.forEach((p, i) =>
      families.push({ patterns: [p], notPatterns: [...others, ...g.patterns.slice(0, i)], schema: g.schema }),
    );
  }
  return families;
}

/** Keys (with quotes) satisfying the family's spec and `names` (propertyNames). */
function keyLanguage(
  names: SchemaNode | undefined,
  base: StringConstraints,
  f: { patterns: string[]; notPatterns: string[] },
  excluded: string[],
  path: string,
  st: LowerState,
  keys: KeySpelling,
): GExpr {
  const quoted = (spec: StringConstraints): GExpr => keys.content(spec, `${path}/propertyNames`, st);
  if (!names || names.kind === "any") return quoted(base);
  switch (names.kind) {
    case "never":
      return NOTHING;
    case "string":
      return quoted(mergeSpec(base, names));
    case "enum": {
      const allowed = names.values
        .filter((v): v is string => typeof v === "string")
        .filter(
          (v) =>
            !excluded.includes(v) &&
            f.patterns.every((p) => compilePattern(p).test(v)) &&
            !f.notPatterns.some((p) => compilePattern(p).test(v)),
        );
      return alt(...allowed.map((k) => keys.literal(k)));
    }
    case "union":
      return alt(...names.options.map((o) => keyLanguage(o, base, f, excluded, path, st, keys)));
    case "number":
    case "boolean":
    case "null":
    case "object":
    case "array":
      return NOTHING; // keys are strings: these never match one
    default:
      st.relax("propertyNames", `${path}/propertyNames`, `a ${names.kind} schema for keys is not supported`);
      return quoted(base);
  }
}
