import type { JsonValue } from "../json.js";
import type { NormalizeContext } from "./NormalizeContext.js";
import type { ArrayNode, NumberNode, ObjectNode, SchemaNode, StringNode } from "./SchemaNode.js";
import { intersect } from "./intersect.js";
import {
  KINDS,
  type Kind,
  anyNode,
  isPlainKind,
  kindOf,
  makeUnion,
  never,
  plainArray,
  plainKind,
  plainNumber,
  plainObject,
  plainString,
} from "./nodes.js";

/** The complement of a node cannot be expressed in the IR. */
export class NotRepresentable extends Error {}

/** How often a recursive definition is unfolded before its complement is given up on. */
const MAX_UNFOLD = 3;
/** Most `enum` numbers whose complement is spelled out as intervals. */
const MAX_NUMBER_HOLES = 256;

/**
 * The node of every JSON value NOT valid under `node` (`not`, the `else` side of `if`). Throws NotRepresentable where
 * the IR cannot express it (the caller refuses or over-approximates).
 */
export function complement(ctx: NormalizeContext, node: SchemaNode, path: string, unfold = 0): SchemaNode {
  if (node.kind === "any") return never(path, "`not` of a schema that accepts everything");
  if (node.kind === "never") return anyNode(path);
  if (node.kind === "ref") {
    const d = ctx.defs.get(node.target);
    if (!d || unfold >= MAX_UNFOLD || ctx.inexact.has(node.target))
      throw new NotRepresentable(`the complement of the recursive definition ${node.target || "#"}`);
    return complement(ctx, d, path, unfold + 1);
  }
  const options = node.kind === "union" ? node.options : [node];
  const byKind = new Map<Kind, SchemaNode[]>();
  const valuesByKind = new Map<Kind, JsonValue[]>();
  for (const o of options) {
    if (o.kind === "enum") {
      for (const v of o.values) {
        const k = valueKind(v);
        valuesByKind.set(k, [...(valuesByKind.get(k) ?? []), v]);
      }
      continue;
    }
    const k = kindOf(o);
    if (!k) throw new NotRepresentable(`the complement of a ${o.kind} inside a union`);
    byKind.set(k, [...(byKind.get(k) ?? []), o]);
  }
  const out: SchemaNode[] = [];
  for (const k of KINDS) {
    let acc: SchemaNode = plainKind(k, path);
    for (const r of byKind.get(k) ?? []) acc = intersect(ctx, acc, complementWithin(ctx, r, path, unfold), path);
    const vals = valuesByKind.get(k);
    if (vals) acc = intersect(ctx, acc, complementValues(k, vals, path), path);
    out.push(acc);
  }
  return makeUnion(path, out);
}

function valueKind(v: JsonValue): Kind {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  const t = typeof v;
  return t === "object" ? "object" : (t as Kind);
}

function complementValues(k: Kind, vals: JsonValue[], path: string): SchemaNode {
  switch (k) {
    case "null":
      return never(path, "not null");
    case "boolean": {
      const left = [true, false].filter((b) => !vals.includes(b));
      return left.length ? { kind: "enum", path, values: left } : never(path, "neither true nor false");
    }
    case "string":
      return { ...plainString(path), notValues: vals as string[] };
    case "number": {
      const nums = [...new Set(vals as number[])].sort((x, y) => x - y);
      if (nums.length > MAX_NUMBER_HOLES) throw new NotRepresentable(`excluding more than ${MAX_NUMBER_HOLES} numbers`);
      const parts: SchemaNode[] = [];
      for (let i = 0; i <= nums.length; i++) {
        const n: NumberNode = plainNumber(path);
        if (i > 0) n.minimum = { value: nums[i - 1], exclusive: true };
        if (i < nums.length) n.maximum = { value: nums[i], exclusive: true };
        parts.push(n);
      }
      return makeUnion(path, parts);
    }
    default:
      throw new NotRepresentable(`excluding specific ${k} values`);
  }
}

/** Values of `r`'s kind that `r` rejects. */
function complementWithin(ctx: NormalizeContext, r: SchemaNode, path: string, unfold: number): SchemaNode {
  if (isPlainKind(r)) return never(path, `not ${r.kind}`);
  switch (r.kind) {
    case "number":
      return complementNumber(r, path);
    case "string":
      return complementString(r, path);
    case "array":
      return complementArray(ctx, r, path, unfold);
    case "object":
      return complementObject(ctx, r, path, unfold);
    default:
      throw new NotRepresentable(`the complement of ${r.kind}`);
  }
}

function complementNumber(r: NumberNode, path: string): SchemaNode {
  if (r.integer) throw new NotRepresentable("non-integer numbers (the complement of `integer`)");
  if (r.multipleOf?.length) throw new NotRepresentable("the complement of `multipleOf`");
  const parts: SchemaNode[] = [];
  if (r.minimum)
    parts.push({ ...plainNumber(path), maximum: { value: r.minimum.value, exclusive: !r.minimum.exclusive } });
  if (r.maximum)
    parts.push({ ...plainNumber(path), minimum: { value: r.maximum.value, exclusive: !r.maximum.exclusive } });
  return makeUnion(path, parts);
}

function complementString(r: StringNode, path: string): SchemaNode {
  if (r.formats.length) throw new NotRepresentable("the complement of `format`");
  const parts: SchemaNode[] = [];
  if (r.minLength > 0) parts.push({ ...plainString(path), maxLength: r.minLength - 1 });
  if (r.maxLength !== undefined) parts.push({ ...plainString(path), minLength: r.maxLength + 1 });
  for (const p of r.patterns) parts.push({ ...plainString(path), notPatterns: [p] });
  for (const p of r.notPatterns) parts.push({ ...plainString(path), patterns: [p] });
  if (r.notValues?.length) parts.push({ kind: "enum", path, values: r.notValues });
  return makeUnion(path, parts);
}

function complementArray(ctx: NormalizeContext, r: ArrayNode, path: string, unfold: number): SchemaNode {
  const parts: SchemaNode[] = [];
  if (r.minItems > 0) parts.push({ ...plainArray(path), maxItems: r.minItems - 1 });
  if (r.maxItems !== undefined) parts.push({ ...plainArray(path), minItems: r.maxItems + 1 });
  if (r.prefixItems.length) throw new NotRepresentable("the complement of `prefixItems`");
  // arrays with a repeated item: no grammar over items tells equal ones apart
  if (r.uniqueItems) throw new NotRepresentable("the complement of `uniqueItems`");
  if (r.items === null) {
    parts.push({ ...plainArray(path), minItems: 1 });
  } else if (r.items.kind !== "any") {
    if (r.contains) throw new NotRepresentable("the complement of `items` together with `contains`");
    parts.push({
      ...plainArray(path),
      minItems: 1,
      contains: { schema: complement(ctx, r.items, path, unfold), min: 1 },
    });
  }
  if (r.contains) {
    if (r.contains.min !== 1 || r.contains.max !== undefined)
      throw new NotRepresentable("the complement of `minContains`/`maxContains`");
    parts.push({ ...plainArray(path), items: complement(ctx, r.contains.schema, path, unfold) });
  }
  return makeUnion(path, parts);
}

function complementObject(ctx: NormalizeContext, r: ObjectNode, path: string, unfold: number): SchemaNode {
  if (
    r.patternProperties.length ||
    r.propertyNames ||
    Object.keys(r.dependentRequired).length ||
    r.additionalProperties === false ||
    r.additionalProperties.kind !== "any"
  ) {
    throw new NotRepresentable(
      "the complement of patternProperties, propertyNames, dependentRequired or additionalProperties",
    );
  }
  const parts: SchemaNode[] = [];
  if (r.minProperties > 0) parts.push({ ...plainObject(path), maxProperties: r.minProperties - 1 });
  if (r.maxProperties !== undefined) parts.push({ ...plainObject(path), minProperties: r.maxProperties + 1 });
  for (const p of r.properties) {
    const lacking: ObjectNode = {
      ...plainObject(path),
      properties: [{ key: p.key, schema: never(path, `"${p.key}" absent`), required: false }],
    };
    const s = p.schema;
    if (s.kind === "any") {
      if (p.required) parts.push(lacking);
      continue;
    }
    const bad: ObjectNode = {
      ...plainObject(path),
      properties: [{ key: p.key, schema: complement(ctx, s, s.path, unfold), required: true }],
    };
    if (p.required) parts.push(lacking);
    parts.push(bad);
  }
  return makeUnion(path, parts);
}
