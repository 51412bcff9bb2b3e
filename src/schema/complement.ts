import type { JsonObject, JsonValue } from "../json.js";
import { type NormalizeContext, refuse } from "./NormalizeContext.js";
import type { ArrayNode, NumberNode, ObjectNode, SchemaNode, StringNode } from "./SchemaNode.js";
import { intersect } from "./intersect.js";
import { derivedRef } from "./derivedDefs.js";
import { ajvFormatLanguage } from "./formatComplements.js";
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

/**
 * The body of a recursive definition's complement. Built after normalization when the definition was still in
 * progress: what has no exact complement is then refused (or, non-strict, over-approximated by any value).
 */
function complementOfDefinition(ctx: NormalizeContext, target: string, def: SchemaNode): SchemaNode {
  if (ctx.inexact.has(target))
    throw new NotRepresentable(`the complement of the over-approximated definition ${target || "#"}`);
  if (ctx.probing > 0) return complement(ctx, def, def.path, MAX_UNFOLD);
  try {
    return complement(ctx, def, def.path, MAX_UNFOLD);
  } catch (e) {
    if (!(e instanceof NotRepresentable)) throw e;
    refuse(ctx, "not", def.path, `the complement of the recursive definition ${target || "#"}: ${e.message}`);
    return anyNode(def.path);
  }
}

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
    if (ctx.inexact.has(node.target))
      throw new NotRepresentable(`the complement of the over-approximated definition ${node.target || "#"}`);
    const key = `not\u0000${node.target}`;
    if (d && unfold < MAX_UNFOLD && !ctx.derived.has(key)) return complement(ctx, d, path, unfold + 1);
    // deeper, or while the definition is still being built: the complement's own definition, one level per use
    return derivedRef(
      ctx,
      key,
      node.target,
      path,
      (def) => complementOfDefinition(ctx, node.target, def),
      anyNode(path),
    );
  }
  const options = node.kind === "union" ? node.options : [node];
  // ¬(A ∪ ref) = ¬A ∩ ¬ref: each recursive option's complement is intersected with the rest's
  const refs = options.filter((o) => o.kind === "ref");
  if (refs.length && refs.length < options.length) {
    const rest = makeUnion(
      path,
      options.filter((o) => o.kind !== "ref"),
    );
    return refs.reduce(
      (acc, r) => intersect(ctx, acc, complement(ctx, r, path, unfold), path),
      complement(ctx, rest, path, unfold),
    );
  }
  if (refs.length > 1)
    return refs
      .slice(1)
      .reduce(
        (acc, r) => intersect(ctx, acc, complement(ctx, r, path, unfold), path),
        complement(ctx, refs[0], path, unfold),
      );
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
    if (vals) acc = intersect(ctx, acc, complementValues(ctx, k, vals, path), path);
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

function complementValues(ctx: NormalizeContext, k: Kind, vals: JsonValue[], path: string): SchemaNode {
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
    default: {
      if (vals.length > MAX_EXCLUDED_VALUES)
        throw new NotRepresentable(`excluding more than ${MAX_EXCLUDED_VALUES} ${k} values`);
      let acc: SchemaNode = plainKind(k, path);
      for (const v of vals)
        acc = intersect(
          ctx,
          acc,
          k === "object" ? notThisObject(ctx, v as JsonObject, path) : notThisArray(ctx, v as JsonValue[], path),
          path,
        );
      return acc;
    }
  }
}

/** Most object or array values an `enum` complement excludes (each one is a union of a few parts). */
const MAX_EXCLUDED_VALUES = 8;

/**
 * Objects other than `v`: a key of `v` absent, or present with another value, or another key present (all of `v`'s
 * keys there and more members than `v` has).
 */
function notThisObject(ctx: NormalizeContext, v: JsonObject, path: string): SchemaNode {
  const keys = Object.keys(v);
  const parts: SchemaNode[] = [objectWith(path, keys, [], keys.length + 1)];
  for (const k of keys) {
    parts.push({
      ...plainObject(path),
      properties: [{ key: k, schema: never(path, `"${k}" absent`), required: false }],
    });
    const other = complement(ctx, { kind: "enum", path, values: [v[k]] }, path);
    parts.push({ ...plainObject(path), properties: [{ key: k, schema: other, required: true }] });
  }
  return makeUnion(path, parts);
}

/** Arrays other than `v`: another length, or another value at some position. */
function notThisArray(ctx: NormalizeContext, v: JsonValue[], path: string): SchemaNode {
  const parts: SchemaNode[] = [{ ...plainArray(path), minItems: v.length + 1 }];
  if (v.length > 0) parts.push({ ...plainArray(path), maxItems: v.length - 1 });
  v.forEach((item, i) => {
    const other = complement(ctx, { kind: "enum", path, values: [item] }, path);
    const prefixItems: SchemaNode[] = v.slice(0, i).map(() => anyNode(path));
    parts.push({ ...plainArray(path), prefixItems: [...prefixItems, other], minItems: i + 1 });
  });
  return makeUnion(path, parts);
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
  if (r.multipleOf?.length) throw new NotRepresentable("the complement of `multipleOf`");
  const parts: SchemaNode[] = [];
  // numbers with a fraction part, or integers: whichever `r` is not
  if (r.integer) parts.push({ ...plainNumber(path), fractional: true });
  if (r.fractional) parts.push(plainNumber(path, true));
  if (r.minimum)
    parts.push({ ...plainNumber(path), maximum: { value: r.minimum.value, exclusive: !r.minimum.exclusive } });
  if (r.maximum)
    parts.push({ ...plainNumber(path), minimum: { value: r.maximum.value, exclusive: !r.maximum.exclusive } });
  return makeUnion(path, parts);
}

function complementString(r: StringNode, path: string): SchemaNode {
  const parts: SchemaNode[] = [];
  // strings ajv's format check rejects: exact only where toolgram has ajv's own language (not its narrowing)
  for (const f of r.formats) {
    const ajvLanguage = ajvFormatLanguage(f);
    if (ajvLanguage === undefined) throw new NotRepresentable(`the complement of \`format: ${f}\``);
    parts.push({ ...plainString(path), notPatterns: [ajvLanguage] });
  }
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
  if (r.prefixItems.length) {
    if (r.contains || (r.items !== null && r.items.kind !== "any"))
      throw new NotRepresentable("the complement of `prefixItems` together with `items` or `contains`");
    // some prefix position present with a value its schema rejects
    r.prefixItems.forEach((p, i) => {
      if (p.kind === "any") return;
      const before: SchemaNode[] = r.prefixItems.slice(0, i).map(() => anyNode(path));
      const bad = complement(ctx, p, path, unfold);
      parts.push({ ...plainArray(path), prefixItems: [...before, bad], minItems: i + 1 });
    });
    if (r.items === null) parts.push({ ...plainArray(path), minItems: r.prefixItems.length + 1 });
    if (r.uniqueItems) throw new NotRepresentable("the complement of `uniqueItems`");
    return makeUnion(path, parts);
  }
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

/**
 * Objects `r` rejects, with `bad(key, schema)` for "a value the declared property's schema rejects": the plain
 * complement by default; relativeComplement narrows it to what another object allows at that key.
 */
export function complementObject(
  ctx: NormalizeContext,
  r: ObjectNode,
  path: string,
  unfold = 0,
  bad: (key: string, s: SchemaNode) => SchemaNode = (_, s) => complement(ctx, s, s.path, unfold),
): SchemaNode {
  if (r.patternProperties.length)
    throw new NotRepresentable("the complement of `patternProperties` (a key matching a pattern with a bad value)");
  if (r.additionalProperties !== false && r.additionalProperties.kind !== "any")
    throw new NotRepresentable(
      "the complement of an `additionalProperties` schema (an undeclared key with a bad value)",
    );
  const parts: SchemaNode[] = [];
  if (r.minProperties > 0) parts.push({ ...plainObject(path), maxProperties: r.minProperties - 1 });
  if (r.maxProperties !== undefined) parts.push({ ...plainObject(path), minProperties: r.maxProperties + 1 });
  const declared = r.properties.map((p) => p.key);
  if (r.additionalProperties === false) parts.push(...keyOutside(declared, path));
  if (r.propertyNames) parts.push(...badKeyName(ctx, r.propertyNames, declared, path, unfold));
  for (const [k, ds] of Object.entries(r.dependentRequired)) for (const d of ds) parts.push(objectWith(path, [k], [d]));
  for (const p of r.properties) {
    const s = p.schema;
    if (p.required) parts.push(objectWith(path, [], [p.key]));
    if (s.kind === "any") continue;
    parts.push({ ...plainObject(path), properties: [{ key: p.key, schema: bad(p.key, s), required: true }] });
  }
  return makeUnion(path, parts);
}

/** Objects where every key of `present` is there (any value) and no key of `absent` is. */
function objectWith(path: string, present: string[], absent: string[], minProperties = 0): ObjectNode {
  return {
    ...plainObject(path),
    properties: [
      ...present.map((key) => ({ key, schema: anyNode(path), required: true })),
      ...absent.map((key) => ({ key, schema: never(path, `"${key}" absent`), required: false })),
    ],
    minProperties,
  };
}

/** Most keys whose presence combinations are spelled out to say "some other key is there". */
export const MAX_COMPLEMENT_KEYS = 6;

/**
 * Objects with a key outside the finite set `keys`. No IR node says "some undeclared key exists", but counting does:
 * for each subset S of `keys` that is present (and the rest absent), more than |S| members means another key.
 */
function keyOutside(keys: string[], path: string): ObjectNode[] {
  if (keys.length > MAX_COMPLEMENT_KEYS)
    throw new NotRepresentable(
      `"some key other than these ${keys.length}" (at most ${MAX_COMPLEMENT_KEYS} declared keys; additionalProperties: false or propertyNames)`,
    );
  const out: ObjectNode[] = [];
  for (let mask = 0; mask < 1 << keys.length; mask++) {
    const present = keys.filter((_, i) => mask & (1 << i));
    out.push(
      objectWith(
        path,
        present,
        keys.filter((_, i) => !(mask & (1 << i))),
        present.length + 1,
      ),
    );
  }
  return out;
}

/** Objects with a key `names` rejects: a finite set of bad names is required one at a time. */
function badKeyName(
  ctx: NormalizeContext,
  names: SchemaNode,
  declared: string[],
  path: string,
  unfold: number,
): SchemaNode[] {
  if (names.kind === "any") return [];
  if (names.kind === "enum" || names.kind === "never") {
    const allowed = names.kind === "enum" ? names.values.filter((v): v is string => typeof v === "string") : [];
    // a declared key outside the names is itself a bad key; other keys: one outside the allowed set
    const bad = declared.filter((k) => !allowed.includes(k)).map((k) => objectWith(path, [k], []));
    return [...bad, ...keyOutside(allowed, path)];
  }
  const c = complement(ctx, names, path, unfold);
  const strings = c.kind === "union" ? c.options : [c];
  const badNames: string[] = [];
  for (const o of strings) {
    if (o.kind === "enum") badNames.push(...o.values.filter((v): v is string => typeof v === "string"));
    else if (o.kind === "string")
      throw new NotRepresentable("the complement of `propertyNames` (some key from an infinite set of names)");
  }
  return badNames.map((k) => objectWith(path, [k], []));
}
