import type { NormalizeContext } from "./NormalizeContext.js";
import type { ArrayNode, ObjectNode, SchemaNode } from "./SchemaNode.js";
import { makeUnion, never } from "./nodes.js";
import { UndecidableValue, valueMatches } from "./valueMatches.js";

/**
 * Whether a node admits at least one value, given which definitions do. Conservative in one direction only: `false`
 * means provably empty; `true` may be wrong for nodes whose emptiness depends on patterns or formats.
 */
function satisfiable(n: SchemaNode, defSat: (id: string) => boolean): boolean {
  switch (n.kind) {
    case "never":
      return false;
    case "enum":
      return n.values.length > 0;
    case "union":
      return n.options.some((o) => satisfiable(o, defSat));
    case "ref":
      return defSat(n.target);
    case "array": {
      for (let i = 0; i < n.minItems; i++) {
        const s = i < n.prefixItems.length ? n.prefixItems[i] : n.items;
        if (s === null || !satisfiable(s, defSat)) return false;
        if (i >= n.prefixItems.length) break; // the rest repeat `items`
      }
      if (n.contains && n.contains.min > 0 && !satisfiable(n.contains.schema, defSat)) return false;
      return true;
    }
    case "object": {
      const required = n.properties.filter((p) => p.required);
      const max = n.maxProperties ?? Infinity;
      if (required.length > max || n.minProperties > max) return false;
      if (n.propertyNames && !required.every((p) => keyAllowed(n.propertyNames!, p.key))) return false;
      return required.every((p) => satisfiable(p.schema, defSat));
    }
    default:
      return true;
  }
}

function keyAllowed(names: SchemaNode, key: string): boolean {
  try {
    return valueMatches(names, key, new Map());
  } catch (e) {
    if (e instanceof UndecidableValue) return true;
    throw e;
  }
}

/** Least fixpoint: a recursive definition is satisfiable only if some finite value derives from it. */
function computeDefSat(defs: Map<string, SchemaNode>): Map<string, boolean> {
  const sat = new Map<string, boolean>([...defs.keys()].map((k) => [k, false]));
  for (let changed = true; changed; ) {
    changed = false;
    for (const [id, d] of defs) {
      if (!sat.get(id) && satisfiable(d, (t) => sat.get(t) ?? true)) {
        sat.set(id, true);
        changed = true;
      }
    }
  }
  return sat;
}

/**
 * A `ref` that is a whole value of a definition (`d = X | d | Y`, or `a = X | b`, `b = Y | a`) is an alias: the
 * value is in the union of the non-alias options reachable through such refs (least fixpoint). Inlining them
 * removes left recursion, which grammar engines (llama.cpp among them) reject and naive checkers loop on.
 */
function removeAliasCycles(defs: Map<string, SchemaNode>): void {
  const expand = (n: SchemaNode, seen: Set<string>): SchemaNode[] => {
    if (n.kind === "union") return n.options.flatMap((o) => expand(o, seen));
    if (n.kind !== "ref") return [n];
    const d = defs.get(n.target);
    if (!d) return [n];
    if (seen.has(n.target)) return [];
    seen.add(n.target);
    return expand(d, seen);
  };
  const next = new Map<string, SchemaNode>();
  for (const [id, d] of defs) {
    if (d.kind !== "ref" && d.kind !== "union") continue;
    const opts = expand(d, new Set([id]));
    next.set(
      id,
      opts.length
        ? makeUnion(d.path, opts)
        : never(d.path, `the recursive definition ${id || "#"} has no finite value`),
    );
  }
  for (const [id, d] of next) defs.set(id, d);
}

/**
 * Final pass: definitions with no finite value become `never` (a `$ref` cycle without a base case), empty branches are
 * pruned, items/properties that can never match are closed, and the `additionalProperties: "forbid"` option closes
 * objects that declared properties without saying anything about others.
 */
export function finalize(ctx: NormalizeContext, root: SchemaNode): SchemaNode {
  removeAliasCycles(ctx.defs);
  const sat = computeDefSat(ctx.defs);
  const isSat = (t: string): boolean => sat.get(t) ?? true;
  const done = new Map<SchemaNode, SchemaNode>();
  const forbid = ctx.opts.additionalProperties === "forbid";

  const rw = (n: SchemaNode): SchemaNode => {
    const hit = done.get(n);
    if (hit) return hit;
    let out: SchemaNode;
    if (!satisfiable(n, isSat)) {
      out =
        n.kind === "never"
          ? n
          : never(
              n.path,
              n.kind === "ref"
                ? `the recursive definition ${n.target || "#"} has no finite value`
                : "no value satisfies this schema",
            );
    } else {
      switch (n.kind) {
        case "union":
          out = makeUnion(n.path, n.options.map(rw));
          break;
        case "array":
          out = rwArray(n);
          break;
        case "object":
          out = rwObject(n);
          break;
        default:
          out = n;
      }
    }
    done.set(n, out);
    return out;
  };

  const rwArray = (n: ArrayNode): SchemaNode => {
    const prefix: SchemaNode[] = [];
    let closed = false;
    for (const p of n.prefixItems) {
      const q = rw(p);
      if (q.kind === "never") {
        closed = true;
        break;
      }
      prefix.push(q);
    }
    let items = closed || n.items === null ? null : rw(n.items);
    if (items?.kind === "never") items = null;
    const a: ArrayNode = { ...n, prefixItems: prefix, items };
    if (items === null) a.maxItems = Math.min(n.maxItems ?? Infinity, prefix.length);
    if (n.contains) a.contains = { ...n.contains, schema: rw(n.contains.schema) };
    if (a.maxItems !== undefined && a.minItems > a.maxItems)
      return never(n.path, `minItems ${a.minItems} cannot be met`);
    return a;
  };

  const rwObject = (n: ObjectNode): SchemaNode => {
    const ap = n.additionalProperties === false ? false : rw(n.additionalProperties);
    const o: ObjectNode = {
      ...n,
      properties: n.properties.map((p) => ({ ...p, schema: rw(p.schema) })),
      patternProperties: n.patternProperties.map((p) => ({ ...p, schema: rw(p.schema) })),
      ...(n.patternOverlaps && { patternOverlaps: n.patternOverlaps.map((o) => ({ ...o, schema: rw(o.schema) })) }),
      additionalProperties: ap === false || ap.kind === "never" ? false : ap,
    };
    if (n.propertyNames) o.propertyNames = rw(n.propertyNames);
    if (forbid && ctx.openByDefault.has(n) && n.properties.length > 0) o.additionalProperties = false;
    return o;
  };

  const r = rw(root);
  for (const [id, d] of [...ctx.defs]) ctx.defs.set(id, rw(d));
  return r;
}
