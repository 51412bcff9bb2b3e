import type { GExpr } from "../grammar/Grammar.js";
import { alt, NOTHING, ref, seq } from "../grammar/build.js";
import type { JsonValue } from "../json.js";
import { deepEqual } from "../schema/deepEqual.js";
import { isDecimalMultiple } from "../schema/isDecimalMultiple.js";
import type { ArrayNode, ObjectNode, SchemaNode } from "../schema/SchemaNode.js";
import { valueMatches } from "../schema/valueMatches.js";
import { innerStyle } from "./JsonStyle.js";
import type { LowerState } from "./LowerState.js";
import { styledValue } from "./styledValue.js";

/** Values an integer range may contribute to a finite item domain. */
export const MAX_UNIQUE_INTEGER_RANGE = 64;

/**
 * Sets of distinct items a `uniqueItems` array may have used (each one rule of the grammar): C(d, 0) + … + C(d, L)
 * for d possible values and at most L items.
 */
export const MAX_UNIQUE_ITEMS_STATES = 4096;

/**
 * `uniqueItems` over items from a finite domain (enums, consts, booleans, null, integer ranges of at most
 * MAX_UNIQUE_INTEGER_RANGE values): the language of sequences without repeats. A rule per set of values used so far
 * (the position is the set's size): it may close the array when the set satisfies minItems (and `contains`, whose
 * count is then known exactly) and continue with any value not in it. Each value has its one canonical spelling, so
 * two texts of equal values (`0` and `-0`, `1` and `1.0`) cannot both appear. Returns the reason when the items are
 * not such a domain or the sets are too many; the caller refuses with it.
 */
export function lowerUniqueArray(n: ArrayNode, st: LowerState, minL: number, maxL: number | undefined): GExpr | string {
  const domains: JsonValue[][] = [];
  for (const p of n.prefixItems) {
    const d = finiteDomain(p, st.defs);
    if (d === null) return notFinite;
    domains.push(d);
  }
  const itemsDomain = n.items === null ? [] : finiteDomain(n.items, st.defs);
  if (itemsDomain === null) return notFinite;
  // objects are spelled with their keys in declaration order: under propertyOrder "any" the items' other orders
  // would be rejected, so such arrays are refused there
  const ordered = (d: JsonValue[]): boolean => d.every((v) => !isObject(v) || Object.keys(v).length < 2);
  if (st.propertyOrder === "any" && ![...domains, itemsDomain].every(ordered)) return anyOrderObjects;
  // more values than sets allowed: at least one set per value
  if (domains.reduce((a, d) => a + d.length, itemsDomain.length) > 4 * MAX_UNIQUE_ITEMS_STATES) return tooMany;
  // one index per distinct value across positions, by JSON equality (`0` and `-0`, objects in any key order)
  const values: JsonValue[] = [];
  const idOf = (v: JsonValue): number => {
    const i = values.findIndex((w) => deepEqual(v, w));
    if (i >= 0) return i;
    values.push(v);
    return values.length - 1;
  };
  const prefixIds = domains.map((d) => d.map(idOf));
  const itemIds = itemsDomain.map(idOf);
  const allowedAt = (i: number): number[] => (i < prefixIds.length ? prefixIds[i] : n.items === null ? [] : itemIds);
  const longest = Math.min(maxL ?? Number.POSITIVE_INFINITY, values.length);
  if (minL > longest) return NOTHING;
  const c = n.contains;
  const matches = c === undefined ? [] : values.map((v) => valueMatches(c.schema, v, st.defs));
  const closes = (used: number[]): boolean => {
    if (used.length < minL) return false;
    if (c === undefined) return true;
    const count = used.filter((i) => matches[i]).length;
    return count >= c.min && (c.max === undefined || count <= c.max);
  };

  const inner = innerStyle(st.style);
  const spelled = values.map((v) => styledValue(v, inner));
  const s = st.style;
  const rules = new Map<string, GExpr>();
  let states = 0;
  // used: the set of value ids so far, sorted (its key); a rule per set, built on first reference
  const after = (used: number[]): GExpr | string => {
    const key = used.join(",");
    const hit = rules.get(key);
    if (hit !== undefined) return hit;
    if (++states > MAX_UNIQUE_ITEMS_STATES)
      return `${tooMany} (${values.length} possible values, up to ${longest} items)`;
    st.deadline.tick("lowering uniqueItems", n.path);
    const name = st.ruleName(n.path, `u${states}`);
    rules.set(key, ref(name));
    st.rules.set(name, NOTHING); // reserve the name; the body follows
    const parts: GExpr[] = [closes(used) ? s.arrayClose : NOTHING];
    if (used.length < longest) {
      for (const v of allowedAt(used.length)) {
        if (used.includes(v)) continue;
        const next = after([...used, v].sort((a, b) => a - b));
        if (typeof next === "string") return next;
        parts.push(seq(s.itemSeparator, spelled[v], next));
      }
    }
    st.rules.set(name, alt(...parts));
    return ref(name);
  };
  const first: GExpr[] = [];
  if (longest >= 1) {
    for (const v of allowedAt(0)) {
      const next = after([v]);
      if (typeof next === "string") return next;
      first.push(seq(spelled[v], next));
    }
  }
  return alt(closes([]) ? s.emptyArray : NOTHING, first.length ? seq(s.arrayOpen, alt(...first)) : NOTHING);
}

const tooMany = `the arrays of distinct items need more than ${MAX_UNIQUE_ITEMS_STATES} sets of used values (MAX_UNIQUE_ITEMS_STATES), one grammar rule each; lower maxItems or narrow the items`;
const notFinite = `the items are not from a finite domain (enum, const, boolean, null, an integer range of at most ${MAX_UNIQUE_INTEGER_RANGE} values, or a closed object of such properties), so item uniqueness cannot be enforced by a grammar`;

/** The values a node allows when they are few and known, else null. */
export function finiteDomain(node: SchemaNode, defs: Map<string, SchemaNode>): JsonValue[] | null {
  switch (node.kind) {
    case "never":
      return [];
    case "enum":
      return node.values;
    case "boolean":
      return [false, true];
    case "null":
      return [null];
    case "number": {
      if (!node.integer || node.minimum === undefined || node.maximum === undefined) return null;
      const lo = node.minimum.exclusive ? Math.floor(node.minimum.value) + 1 : Math.ceil(node.minimum.value);
      const hi = node.maximum.exclusive ? Math.ceil(node.maximum.value) - 1 : Math.floor(node.maximum.value);
      if (hi - lo + 1 > MAX_UNIQUE_INTEGER_RANGE) return null;
      const out: JsonValue[] = [];
      for (let i = lo; i <= hi; i++)
        if ((node.multipleOf ?? []).every((m) => isDecimalMultiple(i, m))) out.push(i === 0 ? 0 : i);
      return out;
    }
    case "union": {
      const out: JsonValue[] = [];
      for (const o of node.options) {
        const d = finiteDomain(o, defs);
        if (d === null) return null;
        out.push(...d);
      }
      return out;
    }
    case "ref": {
      // a reference to a scalar definition (no recursion can pass through these kinds)
      const target = defs.get(node.target);
      const scalar = target !== undefined && ["enum", "boolean", "null", "number", "never"].includes(target.kind);
      return scalar ? finiteDomain(target, defs) : null;
    }
    case "object":
      return objectDomain(node, defs);
    default:
      return null;
  }
}

function isObject(v: JsonValue): v is { [key: string]: JsonValue } {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

const anyOrderObjects =
  'the items are objects of several keys, which the array of distinct items spells in declaration order only; compile with propertyOrder "declared"';

/** Objects a finite domain may hold at most (their product is enumerated). */
const MAX_OBJECT_DOMAIN = 4 * MAX_UNIQUE_ITEMS_STATES;

/**
 * The objects of a closed object schema whose every declared property draws from a finite domain (a discriminator
 * `const` beside booleans, enums, small integer ranges), keys in declaration order: each present or, when optional,
 * absent, within minProperties/maxProperties and `dependentRequired`. Null when the object is open (additional or
 * pattern properties, `propertyNames`), a property is not finite, or there are more than MAX_OBJECT_DOMAIN objects.
 * Objects with a property of an infinite domain are left out: two items with the same discriminator may differ only
 * there, so distinct discriminators would reject valid arrays, and equal ones cannot be told apart by a grammar.
 */
function objectDomain(node: ObjectNode, defs: Map<string, SchemaNode>): JsonValue[] | null {
  const closed = node.additionalProperties === false || node.additionalProperties.kind === "never";
  if (!closed || node.patternProperties.length > 0 || node.propertyNames !== undefined) return null;
  let objects: { [key: string]: JsonValue }[] = [{}];
  for (const p of node.properties) {
    const d = finiteDomain(p.schema, defs);
    if (d === null) return null;
    const next: { [key: string]: JsonValue }[] = [];
    for (const o of objects) {
      if (!p.required) next.push(o);
      for (const v of d) next.push({ ...o, [p.key]: v });
      if (next.length > MAX_OBJECT_DOMAIN) return null;
    }
    objects = next;
  }
  return objects.filter((o) => {
    const keys = Object.keys(o);
    if (keys.length < node.minProperties || (node.maxProperties !== undefined && keys.length > node.maxProperties))
      return false;
    return keys.every((k) => (node.dependentRequired[k] ?? []).every((r) => r in o));
  });
}
