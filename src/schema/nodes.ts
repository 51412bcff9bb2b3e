import type {
  AnyNode,
  ArrayNode,
  NeverNode,
  NumberNode,
  ObjectNode,
  SchemaNode,
  StringNode,
  UnionNode,
} from "./SchemaNode.js";

/** The six JSON kinds, in the order unions list them. */
export const KINDS = ["object", "array", "string", "number", "boolean", "null"] as const;
export type Kind = (typeof KINDS)[number];

export function never(path: string, reason: string): NeverNode {
  return { kind: "never", path, reason };
}

export function anyNode(path: string): AnyNode {
  return { kind: "any", path };
}

export function plainString(path: string): StringNode {
  return { kind: "string", path, minLength: 0, patterns: [], notPatterns: [], formats: [] };
}

export function plainNumber(path: string, integer = false): NumberNode {
  return { kind: "number", path, integer };
}

export function plainArray(path: string): ArrayNode {
  return { kind: "array", path, prefixItems: [], items: anyNode(path), minItems: 0 };
}

export function plainObject(path: string): ObjectNode {
  return {
    kind: "object",
    path,
    properties: [],
    patternProperties: [],
    additionalProperties: anyNode(path),
    minProperties: 0,
    dependentRequired: {},
  };
}

/** An unconstrained node of one kind. */
export function plainKind(kind: Kind, path: string): SchemaNode {
  switch (kind) {
    case "object":
      return plainObject(path);
    case "array":
      return plainArray(path);
    case "string":
      return plainString(path);
    case "number":
      return plainNumber(path);
    case "boolean":
      return { kind: "boolean", path };
    case "null":
      return { kind: "null", path };
  }
}

/** True when the node is an unconstrained node of its kind (so a union of all six of them is `any`). */
export function isPlainKind(n: SchemaNode): boolean {
  switch (n.kind) {
    case "null":
    case "boolean":
      return true;
    case "number":
      return !n.integer && !n.fractional && !n.minimum && !n.maximum && !n.multipleOf?.length;
    case "string":
      return (
        n.minLength === 0 &&
        n.maxLength === undefined &&
        !n.patterns.length &&
        !n.notPatterns.length &&
        !n.formats.length &&
        !n.notValues?.length
      );
    case "array":
      return (
        !n.prefixItems.length &&
        n.items !== null &&
        n.items.kind === "any" &&
        n.minItems === 0 &&
        n.maxItems === undefined &&
        !n.contains &&
        !n.uniqueItems
      );
    case "object":
      return (
        !n.properties.length &&
        !n.patternProperties.length &&
        n.additionalProperties !== false &&
        n.additionalProperties.kind === "any" &&
        n.propertyNames === undefined &&
        n.minProperties === 0 &&
        n.maxProperties === undefined &&
        !Object.keys(n.dependentRequired).length
      );
    default:
      return false;
  }
}

/** Kind of a node's values when it has exactly one JSON kind. */
export function kindOf(n: SchemaNode): Kind | undefined {
  return (KINDS as readonly string[]).includes(n.kind) ? (n.kind as Kind) : undefined;
}

/**
 * A union, simplified: nested unions flattened, `never` options dropped, `any` absorbs everything, a plain kind
 * absorbs other options of the same kind, six plain kinds become `any`, one option is returned as is.
 */
export function makeUnion(path: string, options: SchemaNode[]): SchemaNode {
  const flat: SchemaNode[] = [];
  const push = (o: SchemaNode): void => {
    if (o.kind === "union") o.options.forEach(push);
    else if (o.kind !== "never") flat.push(o);
  };
  options.forEach(push);
  if (flat.some((o) => o.kind === "any")) return anyNode(path);
  const plain = new Set<string>();
  for (const o of flat) if (isPlainKind(o)) plain.add(o.kind);
  const kept: SchemaNode[] = [];
  for (const o of flat) {
    const k = kindOf(o);
    if (k && plain.has(k) && !isPlainKind(o)) continue; // subsumed by the plain node of its kind
    if (k && isPlainKind(o) && kept.some((x) => x.kind === k && isPlainKind(x))) continue;
    if (o.kind === "enum" && o.values.length === 0) continue;
    kept.push(o);
  }
  if (plain.size === KINDS.length) return anyNode(path);
  if (kept.length === 0) {
    const reasons = options.filter((o): o is NeverNode => o.kind === "never").map((o) => o.reason);
    return never(path, reasons.length ? `no option can match: ${reasons.join("; ")}` : "no option can match");
  }
  if (kept.length === 1) return kept[0];
  const u: UnionNode = { kind: "union", path, options: kept };
  return u;
}
