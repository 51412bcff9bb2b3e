import type { NormalizeContext } from "./NormalizeContext.js";
import type { ArrayNode, NumberNode, ObjectNode, SchemaNode, StringNode } from "./SchemaNode.js";
import { numberEmptyReason, schemaForKey } from "./intersect.js";
import { KINDS } from "./nodes.js";
import { UndecidableValue, valueMatches } from "./valueMatches.js";

const MAX_UNFOLD = 2;

/** The JSON kinds a node's values may have (all six when unknown, e.g. behind a `ref`). */
export function kindsOf(n: SchemaNode): Set<string> {
  switch (n.kind) {
    case "never":
      return new Set();
    case "union":
      return new Set(n.options.flatMap((o) => [...kindsOf(o)]));
    case "enum":
      return new Set(n.values.map((v) => (v === null ? "null" : Array.isArray(v) ? "array" : typeof v)));
    case "any":
    case "ref":
      return new Set(KINDS);
    default:
      return new Set([n.kind]);
  }
}

/**
 * Whether no value satisfies both nodes. Sound, not complete: `true` is a proof (different kinds, disjoint enums or
 * ranges, a key both require with disjoint values, a key one requires and the other forbids...); `false` means
 * "may overlap". Cheaper than intersecting, which matters for `oneOf`s with many large branches.
 */
export function disjoint(ctx: NormalizeContext, a: SchemaNode, b: SchemaNode, unfold = 0): boolean {
  if (a.kind === "never" || b.kind === "never") return true;
  if (a.kind === "any" || b.kind === "any") return false;
  if (a.kind === "ref" || b.kind === "ref") {
    if (unfold >= MAX_UNFOLD) return false;
    const da = a.kind === "ref" ? ctx.defs.get(a.target) : a;
    const db = b.kind === "ref" ? ctx.defs.get(b.target) : b;
    return da !== undefined && db !== undefined && disjoint(ctx, da, db, unfold + 1);
  }
  if (a.kind === "union") return a.options.every((o) => disjoint(ctx, o, b, unfold));
  if (b.kind === "union") return b.options.every((o) => disjoint(ctx, a, o, unfold));
  if (a.kind === "enum" || b.kind === "enum") {
    const [e, other] = a.kind === "enum" ? [a, b] : [b, a];
    if (e.kind !== "enum") return false;
    try {
      return !e.values.some((v) => valueMatches(other, v, ctx.defs));
    } catch (err) {
      if (err instanceof UndecidableValue) return false;
      throw err;
    }
  }
  if (a.kind !== b.kind) return true;
  switch (a.kind) {
    case "number": {
      const n = b as NumberNode;
      if ((a.integer && n.fractional) || (a.fractional && n.integer)) return true;
      const probe: NumberNode = { kind: "number", path: a.path, integer: a.integer || n.integer };
      const lo = [a.minimum, n.minimum]
        .filter((x) => x !== undefined)
        .sort((x, y) => y!.value - x!.value || Number(y!.exclusive) - Number(x!.exclusive))[0];
      const hi = [a.maximum, n.maximum]
        .filter((x) => x !== undefined)
        .sort((x, y) => x!.value - y!.value || Number(y!.exclusive) - Number(x!.exclusive))[0];
      if (lo) probe.minimum = lo;
      if (hi) probe.maximum = hi;
      return numberEmptyReason(probe) !== undefined;
    }
    case "string": {
      const s = b as StringNode;
      const min = Math.max(a.minLength, s.minLength);
      const max = Math.min(a.maxLength ?? Infinity, s.maxLength ?? Infinity);
      return min > max;
    }
    case "array": {
      const t = b as ArrayNode;
      const min = Math.max(a.minItems, t.minItems);
      const max = Math.min(a.maxItems ?? Infinity, t.maxItems ?? Infinity);
      if (min > max) return true;
      // items both must have (positions below both minimums)
      for (let i = 0; i < Math.min(min, Math.max(a.prefixItems.length, t.prefixItems.length)); i++) {
        const x = i < a.prefixItems.length ? a.prefixItems[i] : a.items;
        const y = i < t.prefixItems.length ? t.prefixItems[i] : t.items;
        if (x === null || y === null || disjoint(ctx, x, y, unfold)) return true;
      }
      return false;
    }
    case "object":
      return objectsDisjoint(ctx, a, b as ObjectNode, unfold);
    default:
      return false;
  }
}

function objectsDisjoint(ctx: NormalizeContext, a: ObjectNode, b: ObjectNode, unfold: number): boolean {
  const min = Math.max(a.minProperties, b.minProperties);
  const max = Math.min(a.maxProperties ?? Infinity, b.maxProperties ?? Infinity);
  if (min > max) return true;
  for (const [x, y] of [
    [a, b],
    [b, a],
  ] as const) {
    for (const p of x.properties) {
      if (!p.required) continue;
      const other = y.properties.find((q) => q.key === p.key);
      const os = other ? other.schema : probeKey(ctx, y, p.key);
      if (os === undefined) continue;
      if (disjoint(ctx, p.schema, os, unfold)) return true;
    }
  }
  return false;
}

/** The schema `o` imposes on an undeclared key, when that is cheap to know exactly. */
function probeKey(ctx: NormalizeContext, o: ObjectNode, key: string): SchemaNode | undefined {
  ctx.probing++;
  try {
    return schemaForKey(ctx, o, key);
  } catch {
    return undefined;
  } finally {
    ctx.probing--;
  }
}
