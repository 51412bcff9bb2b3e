import type { JsonValue } from "../json.js";
import type { NormalizeContext } from "./NormalizeContext.js";
import type { ArrayNode, NumberBound, NumberNode, ObjectNode, SchemaNode, StringNode } from "./SchemaNode.js";
import { NotRepresentable, complement, complementObject } from "./complement.js";
import { intersect, schemaForKey } from "./intersect.js";
import { anyNode, kindOf, makeUnion, never, plainArray, plainObject } from "./nodes.js";
import { sameNode } from "./sameNode.js";
import { UndecidableValue, valueMatches } from "./valueMatches.js";

/**
 * `universe ∩ ¬node`: the values of `universe` that `node` rejects. Where `complement(node)` is expressible this is
 * just their intersection. Where it is not, a closed universe may still make it exact: inside objects whose keys
 * come from a finite set K (`additionalProperties: false`, no `patternProperties`), "some key has a value `node`
 * rejects" — for undeclared and pattern keys alike — is a union over K, so `patternProperties`, an
 * `additionalProperties` schema or many keys under `additionalProperties: false` need no complement of their own.
 * Throws NotRepresentable where neither way is exact.
 */
export function relativeComplement(
  ctx: NormalizeContext,
  universe: SchemaNode,
  node: SchemaNode,
  path: string,
): SchemaNode {
  const u = universe;
  if (u.kind === "never" || node.kind === "never") return u;
  if (node.kind === "any" || sameNode(u, node)) return never(path, "every value matches");
  const general = (): SchemaNode => intersect(ctx, u, complement(ctx, node, path), path);
  if (u.kind === "union")
    return makeUnion(
      path,
      u.options.map((o) => relativeComplement(ctx, o, node, path)),
    );
  if (u.kind === "enum") return keepRejected(ctx, u.values, node, path) ?? general();
  const k = kindOf(u);
  const options = node.kind === "union" ? node.options : [node];
  // `any` or a `ref` universe, or a recursive option: no smaller universe than the complement itself
  if (k === undefined || options.some((o) => o.kind === "ref" || o.kind === "any")) return general();
  // only the options of u's kind can match u's values
  const values = options.flatMap((o) => (o.kind === "enum" ? o.values.filter((v) => kindOfValue(v) === k) : []));
  const same = options.filter((o) => kindOf(o) === k);
  let acc: SchemaNode = u;
  if (values.length) acc = intersect(ctx, acc, complement(ctx, { kind: "enum", path, values }, path), path);
  // ¬(o1 ∪ o2) = ¬o1 ∩ ¬o2
  for (const o of same) {
    if (o.kind === "array") acc = minusArray(ctx, acc, o, path);
    else if (o.kind === "object") acc = minusObject(ctx, acc, o, path);
    // what u itself asserts need not be complemented (u ∩ ¬(A ∧ B) = u ∩ ¬B when u ⊆ A)
    else acc = intersect(ctx, acc, complement(ctx, withoutImplied(o, u), path), path);
  }
  return acc;
}

/**
 * `o` without the constraints `u` already has (the same `format`, `pattern`, `multipleOf`, a bound at least as
 * tight): within `u` both reject the same values, and the rest may have a complement where `o` has none.
 */
function withoutImplied(o: SchemaNode, u: SchemaNode): SchemaNode {
  if (o.kind === "string" && u.kind === "string") {
    const n: StringNode = {
      ...o,
      formats: o.formats.filter((f) => !u.formats.includes(f)),
      patterns: o.patterns.filter((p) => !u.patterns.includes(p)),
      notPatterns: o.notPatterns.filter((p) => !u.notPatterns.includes(p)),
      minLength: o.minLength <= u.minLength ? 0 : o.minLength,
    };
    if (o.maxLength !== undefined && u.maxLength !== undefined && u.maxLength <= o.maxLength) delete n.maxLength;
    return n;
  }
  if (o.kind === "number" && u.kind === "number") {
    const n: NumberNode = { ...o, integer: o.integer && !u.integer };
    const m = o.multipleOf?.filter((x) => !u.multipleOf?.includes(x));
    if (m?.length) n.multipleOf = m;
    else delete n.multipleOf;
    if (o.fractional && u.fractional) delete n.fractional;
    if (o.minimum && u.minimum && atLeastAsHigh(u.minimum, o.minimum)) delete n.minimum;
    const neg = (b: NumberBound): NumberBound => ({ ...b, value: -b.value });
    if (o.maximum && u.maximum && atLeastAsHigh(neg(u.maximum), neg(o.maximum))) delete n.maximum;
    return n;
  }
  return o;
}

/** Whether the lower bound `x` excludes everything `y` excludes. */
function atLeastAsHigh(x: NumberBound, y: NumberBound): boolean {
  return x.value > y.value || (x.value === y.value && (x.exclusive || !y.exclusive));
}

function kindOfValue(v: JsonValue): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  return typeof v;
}

/** The values of an `enum` that `node` rejects; undefined when one cannot be judged. */
function keepRejected(
  ctx: NormalizeContext,
  values: JsonValue[],
  node: SchemaNode,
  path: string,
): SchemaNode | undefined {
  try {
    const left = values.filter((v) => !valueMatches(node, v, ctx.defs));
    return left.length ? { kind: "enum", path, values: left } : never(path, "every value matches");
  } catch (e) {
    if (e instanceof UndecidableValue) return undefined;
    throw e;
  }
}

/**
 * `u ∩ ¬o` for arrays: another length, or an item `o.items` rejects. Where every item `u` allows is one `o` allows
 * (the same item schema, say), only the lengths are left — no `contains` for the grammar to count.
 */
function minusArray(ctx: NormalizeContext, u: SchemaNode, o: ArrayNode, path: string): SchemaNode {
  if (u.kind === "never") return u;
  if (u.kind === "union")
    return makeUnion(
      path,
      u.options.map((x) => minusArray(ctx, x, o, path)),
    );
  const general = (): SchemaNode => intersect(ctx, u, complement(ctx, o, path), path);
  if (u.kind === "enum") return keepRejected(ctx, u.values, o, path) ?? general();
  const simple = (a: ArrayNode): boolean => !a.prefixItems.length && !a.contains && !a.uniqueItems;
  if (u.kind !== "array" || !simple(u) || !simple(o) || u.items === null || o.items === null) return general();
  if (!itemsImplied(ctx, u.items, o.items, path)) return general();
  const parts: SchemaNode[] = [];
  if (o.minItems > 0) parts.push({ ...plainArray(path), maxItems: o.minItems - 1 });
  if (o.maxItems !== undefined) parts.push({ ...plainArray(path), minItems: o.maxItems + 1 });
  return intersect(ctx, u, makeUnion(path, parts), path);
}

/** Whether every value of `u` is one of `o` (proved by `u ∩ ¬o` being empty; false when that cannot be built). */
function itemsImplied(ctx: NormalizeContext, u: SchemaNode, o: SchemaNode, path: string): boolean {
  try {
    return relativeComplement(ctx, u, o, path).kind === "never";
  } catch (e) {
    if (e instanceof NotRepresentable) return false;
    throw e;
  }
}

/**
 * `u ∩ ¬o` for objects (`u` may be a union, as narrowing makes it). Within finite keys K, "some key with a value `o`
 * rejects" is a union over K, each value narrowed within `u`'s own schema for the key.
 */
function minusObject(ctx: NormalizeContext, u: SchemaNode, o: ObjectNode, path: string): SchemaNode {
  if (u.kind === "never") return u;
  if (u.kind === "union")
    return makeUnion(
      path,
      u.options.map((x) => minusObject(ctx, x, o, path)),
    );
  const general = (): SchemaNode => intersect(ctx, u, complement(ctx, o, path), path);
  if (u.kind === "enum") return keepRejected(ctx, u.values, o, path) ?? general();
  if (u.kind !== "object") return general();
  const keys = finiteKeys(u);
  if (!keys) {
    // open: o's own complement, with "a declared key's value o rejects" narrowed to what u allows there
    const within = (k: string, s: SchemaNode): SchemaNode => relativeComplement(ctx, schemaForKey(ctx, u, k), s, path);
    return intersect(ctx, u, complementObject(ctx, o, path, 0, within), path);
  }
  const names = o.propertyNames;
  if (names && keys.some((k) => keepRejected(ctx, [k], names, path) === undefined)) return general();
  return intersect(ctx, u, makeUnion(path, rejectedWithin(ctx, u, keys, o, path)), path);
}

/** The keys an object may have, when that is a finite set. */
function finiteKeys(u: ObjectNode): string[] | undefined {
  if (u.additionalProperties !== false || u.patternProperties.length) return undefined;
  return u.properties.filter((p) => p.schema.kind !== "never").map((p) => p.key);
}

/**
 * Objects with keys among `keys` that `o` rejects: too few or too many members, a required or dependent key absent,
 * a key whose name `o` rejects, or a key whose value `o` rejects (within what `u` allows there).
 */
function rejectedWithin(
  ctx: NormalizeContext,
  u: ObjectNode,
  keys: string[],
  o: ObjectNode,
  path: string,
): SchemaNode[] {
  const parts: SchemaNode[] = [];
  if (o.minProperties > 0) parts.push({ ...plainObject(path), maxProperties: o.minProperties - 1 });
  if (o.maxProperties !== undefined) parts.push({ ...plainObject(path), minProperties: o.maxProperties + 1 });
  for (const [k, ds] of Object.entries(o.dependentRequired))
    for (const d of ds) parts.push(withKeys(path, [[k, anyNode(path)]], [d]));
  for (const p of o.properties) if (p.required) parts.push(withKeys(path, [], [p.key]));
  for (const k of keys) {
    if (o.propertyNames && keepRejected(ctx, [k], o.propertyNames, path)?.kind === "enum") {
      parts.push(withKeys(path, [[k, anyNode(path)]], []));
      continue;
    }
    const s = schemaForKey(ctx, o, k);
    if (s.kind === "any") continue;
    parts.push(withKeys(path, [[k, relativeComplement(ctx, schemaForKey(ctx, u, k), s, path)]], []));
  }
  return parts;
}

/** Objects where each key of `present` is there with its schema and no key of `absent` is. */
function withKeys(path: string, present: [string, SchemaNode][], absent: string[]): ObjectNode {
  return {
    ...plainObject(path),
    properties: [
      ...present.map(([key, schema]) => ({ key, schema, required: true })),
      ...absent.map((key) => ({ key, schema: never(path, `"${key}" absent`), required: false })),
    ],
  };
}
