import type {
  ArrayNode,
  NumberBound,
  NumberNode,
  ObjectNode,
  PropertyNode,
  SchemaNode,
  StringNode,
} from "./SchemaNode.js";
import { type NormalizeContext, refuse } from "./NormalizeContext.js";
import type { JsonValue } from "../json.js";
import { kindOf, makeUnion, never } from "./nodes.js";
import { UndecidableValue, compilePattern, valueMatches } from "./valueMatches.js";
import { setOwn } from "./setOwn.js";
import { derivedRef } from "./derivedDefs.js";

/** Most option pairs one intersection of two unions may produce before it is refused (keeps `allOf` of `anyOf`s bounded). */
export const MAX_DISTRIBUTED_OPTIONS = 4096;
/** Work budget of all intersections in one normalization (adversarial recursive `allOf`s would be exponential). */
export const MAX_INTERSECT_STEPS = 50_000;
/** How often a recursive definition may be unfolded to intersect it with something else. */
const MAX_UNFOLD = 3;

/**
 * The node of the values valid under both `a` and `b` (`allOf` merging). Exact, or — where the IR cannot express the
 * intersection — refused (strict) or over-approximated by a superset (non-strict, with a warning).
 */
export function intersect(ctx: NormalizeContext, a: SchemaNode, b: SchemaNode, path = a.path, unfold = 0): SchemaNode {
  if (a === b) return withPath(ctx, a, path);
  if (a.kind === "any") return withPath(ctx, b, path);
  if (b.kind === "any") return withPath(ctx, a, path);
  // Memoized by identity: memoized `$ref` targets meet each other again and again in large allOf chains.
  let row = cache.get(a);
  const hit = row?.get(b);
  if (hit && hit.unfold <= unfold) {
    if (hit.relaxed) ctx.relaxations++;
    return withPath(ctx, hit.node, path);
  }
  const before = ctx.relaxations;
  const node = intersectUncached(ctx, a, b, path, unfold);
  if (!row) {
    row = new WeakMap();
    cache.set(a, row);
  }
  row.set(b, { node, unfold, relaxed: ctx.relaxations > before });
  return node;
}

/** Intersections already computed, by operand identity (nodes are never mutated once built). */
const cache = new WeakMap<SchemaNode, WeakMap<SchemaNode, { node: SchemaNode; unfold: number; relaxed: boolean }>>();

function intersectUncached(
  ctx: NormalizeContext,
  a: SchemaNode,
  b: SchemaNode,
  path: string,
  unfold: number,
): SchemaNode {
  ctx.deadline.tick("combining schemas (allOf, $ref siblings)", path);
  if (++ctx.steps > MAX_INTERSECT_STEPS && a.kind !== "any" && b.kind !== "any") {
    refuse(ctx, "allOf", path, `combining these schemas takes more than ${MAX_INTERSECT_STEPS} steps`);
    return a;
  }
  if (a.kind === "never") return a;
  if (b.kind === "never") return b;
  if (a.kind === "any") return withPath(ctx, b, path);
  if (b.kind === "any") return withPath(ctx, a, path);
  if (a.kind === "enum") return filterEnum(ctx, a.values, b, path);
  if (b.kind === "enum") return filterEnum(ctx, b.values, a, path);
  if (a.kind === "union" || b.kind === "union") {
    const ao = a.kind === "union" ? a.options : [a];
    const bo = b.kind === "union" ? b.options : [b];
    if (ao.length * bo.length > MAX_DISTRIBUTED_OPTIONS) {
      refuse(
        ctx,
        "allOf",
        path,
        `intersecting ${ao.length} with ${bo.length} alternatives exceeds ${MAX_DISTRIBUTED_OPTIONS} combinations`,
      );
      return a;
    }
    const out: SchemaNode[] = [];
    for (const x of ao) {
      for (const y of bo) {
        const kx = kindOf(x);
        const ky = kindOf(y);
        if (kx && ky && kx !== ky) continue; // different kinds never meet
        out.push(intersect(ctx, x, y, path, unfold));
      }
    }
    return makeUnion(path, out);
  }
  if (a.kind === "ref" || b.kind === "ref") {
    if (a.kind === "ref" && b.kind === "ref" && a.target === b.target) return a;
    const [r, other] = a.kind === "ref" ? [a, b] : [b, a];
    if (r.kind !== "ref") return a; // unreachable; narrows the type
    const def = ctx.defs.get(r.target);
    const key = `and\u0000${r.target}\u0000${operandKey(other)}`;
    // a few levels inline (the common `$ref` with a `required` beside it); deeper, or while the recursive definition
    // is still being built, a definition of the product, unfolded one level per use
    if (def && unfold < MAX_UNFOLD && !ctx.derived.has(key)) return intersect(ctx, def, other, path, unfold + 1);
    return derivedRef(ctx, key, r.target, path, (d) => intersect(ctx, d, other, d.path, MAX_UNFOLD), r);
  }
  if (a.kind !== b.kind) return never(path, `no value is both ${a.kind} and ${b.kind}`);
  switch (a.kind) {
    case "null":
    case "boolean":
      return { ...a, path };
    case "number":
      return intersectNumber(a, b as NumberNode, path);
    case "string":
      return intersectString(a, b as StringNode, path);
    case "array":
      return intersectArray(ctx, a, b as ArrayNode, path, unfold);
    case "object":
      return intersectObject(ctx, a, b as ObjectNode, path, unfold);
  }
}

/** Identity of an operand, for derived definitions' keys: a `ref` by its target, any other node by its object. */
function operandKey(n: SchemaNode): string {
  if (n.kind === "ref") return `ref:${n.target}`;
  let id = operandIds.get(n);
  if (id === undefined) {
    id = ++lastOperandId;
    operandIds.set(n, id);
  }
  return `node:${id}`;
}

const operandIds = new WeakMap<SchemaNode, number>();
let lastOperandId = 0;

/** The node at another path (an object keeps its open-by-default mark). */
function withPath(ctx: NormalizeContext, n: SchemaNode, path: string): SchemaNode {
  if (n.path === path) return n;
  const c = { ...n, path };
  if (n.kind === "object" && ctx.openByDefault.has(n)) ctx.openByDefault.add(c as ObjectNode);
  return c;
}

function filterEnum(ctx: NormalizeContext, values: JsonValue[], by: SchemaNode, path: string): SchemaNode {
  try {
    const kept = values.filter((v) => valueMatches(by, v, ctx.defs));
    return kept.length
      ? { kind: "enum", path, values: kept }
      : never(path, "no enum value satisfies the other constraints");
  } catch (e) {
    if (!(e instanceof UndecidableValue)) throw e;
    refuse(ctx, "enum", path, "cannot check enum values against a recursive definition that is still being built");
    return { kind: "enum", path, values };
  }
}

function tighterMin(x?: NumberBound, y?: NumberBound): NumberBound | undefined {
  if (!x) return y;
  if (!y) return x;
  if (x.value !== y.value) return x.value > y.value ? x : y;
  return x.exclusive ? x : y;
}

function tighterMax(x?: NumberBound, y?: NumberBound): NumberBound | undefined {
  if (!x) return y;
  if (!y) return x;
  if (x.value !== y.value) return x.value < y.value ? x : y;
  return x.exclusive ? x : y;
}

/** Why a number node admits no value, or undefined when it may admit some. */
export function numberEmptyReason(n: NumberNode): string | undefined {
  const lo = n.minimum;
  const hi = n.maximum;
  if (lo && hi) {
    if (lo.value > hi.value || (lo.value === hi.value && (lo.exclusive || hi.exclusive))) {
      return `minimum ${lo.value} is above maximum ${hi.value}`;
    }
  }
  if (n.integer && lo && hi) {
    let first = Math.ceil(lo.value);
    if (lo.exclusive && first === lo.value) first += 1;
    let last = Math.floor(hi.value);
    if (hi.exclusive && last === hi.value) last -= 1;
    if (first > last) return `no integer lies between ${lo.value} and ${hi.value}`;
  }
  return undefined;
}

function intersectNumber(a: NumberNode, b: NumberNode, path: string): SchemaNode {
  const mult = [...(a.multipleOf ?? []), ...(b.multipleOf ?? [])].filter((m, i, all) => all.indexOf(m) === i);
  const n: NumberNode = { kind: "number", path, integer: a.integer || b.integer };
  if (a.fractional || b.fractional) {
    if (n.integer) return never(path, "an integer that is not an integer");
    n.fractional = true;
  }
  const lo = tighterMin(a.minimum, b.minimum);
  const hi = tighterMax(a.maximum, b.maximum);
  if (lo) n.minimum = lo;
  if (hi) n.maximum = hi;
  if (mult.length) n.multipleOf = mult;
  const why = numberEmptyReason(n);
  return why ? never(path, why) : n;
}

function uniq(xs: string[]): string[] {
  return xs.filter((x, i) => xs.indexOf(x) === i);
}

function intersectString(a: StringNode, b: StringNode, path: string): SchemaNode {
  const n: StringNode = {
    kind: "string",
    path,
    minLength: Math.max(a.minLength, b.minLength),
    patterns: uniq([...a.patterns, ...b.patterns]),
    notPatterns: uniq([...a.notPatterns, ...b.notPatterns]),
    formats: uniq([...a.formats, ...b.formats]),
  };
  const max =
    a.maxLength === undefined
      ? b.maxLength
      : b.maxLength === undefined
        ? a.maxLength
        : Math.min(a.maxLength, b.maxLength);
  if (max !== undefined) n.maxLength = max;
  const nv = uniq([...(a.notValues ?? []), ...(b.notValues ?? [])]);
  if (nv.length) n.notValues = nv;
  if (max !== undefined && n.minLength > max) return never(path, `minLength ${n.minLength} is above maxLength ${max}`);
  return n;
}

function itemAt(n: ArrayNode, i: number): SchemaNode | null {
  return i < n.prefixItems.length ? n.prefixItems[i] : n.items;
}

function intersectArray(ctx: NormalizeContext, a: ArrayNode, b: ArrayNode, path: string, unfold: number): SchemaNode {
  const len = Math.max(a.prefixItems.length, b.prefixItems.length);
  const prefix: SchemaNode[] = [];
  let maxItems =
    a.maxItems === undefined ? b.maxItems : b.maxItems === undefined ? a.maxItems : Math.min(a.maxItems, b.maxItems);
  let items: SchemaNode | null = null;
  let closedAt: number | undefined;
  for (let i = 0; i < len; i++) {
    const x = itemAt(a, i);
    const y = itemAt(b, i);
    const s = x === null || y === null ? null : intersect(ctx, x, y, x.path, unfold);
    if (s === null || s.kind === "never") {
      closedAt = i;
      break;
    }
    prefix.push(s);
  }
  if (closedAt === undefined) {
    items = a.items === null || b.items === null ? null : intersect(ctx, a.items, b.items, a.items.path, unfold);
    if (items?.kind === "never") items = null;
  } else {
    maxItems = maxItems === undefined ? closedAt : Math.min(maxItems, closedAt);
  }
  const n: ArrayNode = { kind: "array", path, prefixItems: prefix, items, minItems: Math.max(a.minItems, b.minItems) };
  if (items === null && maxItems === undefined) maxItems = prefix.length;
  if (maxItems !== undefined) n.maxItems = maxItems;
  if (a.contains && b.contains && a.contains !== b.contains) {
    refuse(ctx, "contains", path, "two different `contains` constraints on one array cannot be combined");
  }
  const c = a.contains ?? b.contains;
  if (c) n.contains = c;
  if ((a.uniqueItems || b.uniqueItems) && !(n.maxItems !== undefined && n.maxItems <= 1)) n.uniqueItems = true;
  if (n.maxItems !== undefined && n.minItems > n.maxItems) {
    return never(path, `minItems ${n.minItems} is above the ${n.maxItems} items allowed`);
  }
  return n;
}

/** The schema a key's value must satisfy in `o` (declared, pattern, or additional); `never` when the key is forbidden. */
export function schemaForKey(ctx: NormalizeContext, o: ObjectNode, key: string): SchemaNode {
  const decl = o.properties.find((p) => p.key === key);
  if (decl) return decl.schema;
  const matching = o.patternProperties.filter((pp) => compilePattern(pp.pattern).test(key));
  if (matching.length) return matching.map((m) => m.schema).reduce((x, y) => intersect(ctx, x, y));
  if (o.additionalProperties === false)
    return never(o.path, `property "${key}" is not allowed (additionalProperties: false)`);
  return o.additionalProperties;
}

function samePatterns(a: ObjectNode, b: ObjectNode): boolean {
  return (
    a.patternProperties.length === b.patternProperties.length &&
    a.patternProperties.every((p, i) => p.pattern === b.patternProperties[i].pattern)
  );
}

function isAny(s: SchemaNode | false): boolean {
  return s !== false && s.kind === "any";
}

function intersectObject(
  ctx: NormalizeContext,
  a: ObjectNode,
  b: ObjectNode,
  path: string,
  unfold: number,
): SchemaNode {
  const same = samePatterns(a, b);
  if (
    !same &&
    ((a.patternProperties.length && !isAny(b.additionalProperties)) ||
      (b.patternProperties.length && !isAny(a.additionalProperties)))
  ) {
    refuse(
      ctx,
      "patternProperties",
      path,
      "combining patternProperties of one schema with additionalProperties of another is not supported",
    );
  }
  const byKeyA = new Map(a.properties.map((p) => [p.key, p]));
  const byKeyB = new Map(b.properties.map((p) => [p.key, p]));
  const keys = [...new Set([...byKeyA.keys(), ...byKeyB.keys()])];
  const props: PropertyNode[] = [];
  for (const key of keys) {
    const pa = byKeyA.get(key);
    const pb = byKeyB.get(key);
    const sa = schemaForKey(ctx, a, key);
    const sb = schemaForKey(ctx, b, key);
    const schema = intersect(ctx, sa, sb, (pa ?? pb)!.schema.path, unfold);
    const required = Boolean(pa?.required || pb?.required);
    if (required && schema.kind === "never") return never(path, `required property "${key}": ${schema.reason}`);
    props.push({ key, schema, required });
  }
  let patternProperties = [...a.patternProperties, ...b.patternProperties];
  if (same) {
    patternProperties = a.patternProperties.map((p, i) => ({
      pattern: p.pattern,
      schema: intersect(ctx, p.schema, b.patternProperties[i].schema, p.schema.path, unfold),
    }));
  }
  const additionalProperties =
    a.additionalProperties === false || b.additionalProperties === false
      ? false
      : intersect(ctx, a.additionalProperties, b.additionalProperties, a.additionalProperties.path, unfold);
  const n: ObjectNode = {
    kind: "object",
    path,
    properties: props,
    patternProperties,
    additionalProperties:
      additionalProperties !== false && additionalProperties.kind === "never" ? false : additionalProperties,
    minProperties: Math.max(a.minProperties, b.minProperties),
    dependentRequired: {},
  };
  const max =
    a.maxProperties === undefined
      ? b.maxProperties
      : b.maxProperties === undefined
        ? a.maxProperties
        : Math.min(a.maxProperties, b.maxProperties);
  if (max !== undefined) n.maxProperties = max;
  if (a.propertyNames && b.propertyNames)
    n.propertyNames = intersect(ctx, a.propertyNames, b.propertyNames, a.propertyNames.path, unfold);
  else if (a.propertyNames ?? b.propertyNames) n.propertyNames = (a.propertyNames ?? b.propertyNames)!;
  for (const src of [a.dependentRequired, b.dependentRequired]) {
    for (const [k, v] of Object.entries(src))
      setOwn(
        n.dependentRequired,
        k,
        uniq([...(Object.hasOwn(n.dependentRequired, k) ? n.dependentRequired[k] : []), ...v]),
      );
  }
  if (ctx.openByDefault.has(a) && ctx.openByDefault.has(b)) ctx.openByDefault.add(n);
  if (max !== undefined && (n.minProperties > max || props.filter((p) => p.required).length > max)) {
    return never(path, `more properties are required than maxProperties ${max} allows`);
  }
  return n;
}
