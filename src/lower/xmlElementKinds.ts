import { isJsonObject, type JsonValue } from "../json.js";
import type { SchemaNode } from "../schema/SchemaNode.js";
import type { LowerState } from "./LowerState.js";
import { resolveRef } from "./resolveRef.js";

/**
 * The JSON types of values. In nested elements (lowerXmlElementsArguments) the text of a value does not say its type,
 * so the kinds a place's schema admits decide how each value is written there.
 */
export type Kind = "string" | "number" | "boolean" | "null" | "object" | "array";
export const ALL_KINDS: readonly Kind[] = ["string", "number", "boolean", "null", "object", "array"];

/** The kind an empty element is read as among the kinds of a place: "" first, then {}, [], null. */
export function emptyOwner(k: ReadonlySet<Kind>): Kind | undefined {
  return (["string", "object", "array", "null"] as const).find((x) => k.has(x));
}

/** A set of kinds as a cache key (in ALL_KINDS order). */
export function kindsKey(k: ReadonlySet<Kind>): string {
  return ALL_KINDS.filter((x) => k.has(x)).join(",");
}

/** The kinds `node` admits (a cycle of references admits nothing more). */
export function kindsOf(node: SchemaNode, st: LowerState, seen = new Set<SchemaNode>()): Set<Kind> {
  const n = resolveRef(node, st);
  if (seen.has(n)) return new Set();
  seen.add(n);
  switch (n.kind) {
    case "never":
      return new Set();
    case "any":
      return new Set(ALL_KINDS);
    case "enum":
      return new Set(n.values.map(valueKind));
    case "union":
      return new Set(n.options.flatMap((o) => [...kindsOf(o, st, seen)]));
    case "ref":
      return new Set();
    default:
      return new Set([n.kind]);
  }
}

export function valueKind(v: JsonValue): Kind {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  if (isJsonObject(v)) return "object";
  return typeof v as Kind;
}
