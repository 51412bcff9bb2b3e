import type { JsonValue } from "../json.js";
import type { SchemaNode } from "../schema/SchemaNode.js";
import { KINDS, type Kind } from "../schema/nodes.js";
import { valueMatches } from "../schema/valueMatches.js";

/** The JSON kinds a node's values can have (a superset: `ref` is read as any kind). */
export function kindsOf(n: SchemaNode): Set<Kind> {
  switch (n.kind) {
    case "never":
      return new Set();
    case "any":
    case "ref":
      return new Set(KINDS);
    case "enum":
      return new Set(n.values.map(kindOfValue));
    case "union": {
      const s = new Set<Kind>();
      for (const o of n.options) for (const k of kindsOf(o)) s.add(k);
      return s;
    }
    default:
      return new Set([n.kind]);
  }
}

function kindOfValue(v: JsonValue): Kind {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  const t = typeof v;
  return t === "object" ? "object" : (t as Kind);
}

/** The node without its source paths, for structural equality. */
export function shape(n: SchemaNode): string {
  return JSON.stringify(n, (k, v: unknown) => (k === "path" ? undefined : v));
}

/**
 * How the values of `s` relate to `c`: "all" (every value of s matches c), "none" (no value does) or "mixed"
 * (unknown or both). Conservative: "mixed" whenever it cannot tell.
 */
export function relation(s: SchemaNode, c: SchemaNode, defs: Map<string, SchemaNode>): "all" | "none" | "mixed" {
  if (s.kind === "never") return "none";
  if (c.kind === "any") return "all";
  if (c.kind === "never") return "none";
  const ks = kindsOf(s);
  const kc = kindsOf(c);
  if (![...ks].some((k) => kc.has(k))) return "none";
  if (shape(s) === shape(c)) return "all";
  if (s.kind === "enum") {
    try {
      const m = s.values.map((v) => valueMatches(c, v, defs));
      if (m.every(Boolean)) return "all";
      if (!m.some(Boolean)) return "none";
    } catch {
      return "mixed";
    }
  }
  if (s.kind === "union") {
    const rs = s.options.map((o) => relation(o, c, defs));
    if (rs.every((r) => r === "all")) return "all";
    if (rs.every((r) => r === "none")) return "none";
  }
  // a plain kind contained in c's kinds where c is the plain node of that kind
  if (c.kind === "union" && c.options.some((o) => relation(s, o, defs) === "all")) return "all";
  return "mixed";
}
