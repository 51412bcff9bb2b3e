import type { JsonValue } from "../json.js";

/**
 * The schema IR: a JSON Schema after normalization. `$ref`s are resolved (recursive ones become `ref` nodes pointing
 * into `SchemaIR.defs`), `allOf` is merged, `type` arrays and `anyOf`/`oneOf` become `union`, non-standard types are
 * canonical, annotations are gone, and what can never match is a `never` node carrying the reason (so a union branch
 * can be pruned instead of failing the compile). Every node carries `path`, the JSON Pointer of the schema location it
 * came from, which lowering turns into rule names and errors report.
 *
 * Semantics are exactly JSON Schema's (draft 2020-12) for the instance *value*; how the value is spelled as text
 * (separators, escapes, number syntax) is decided later by lowering.
 */
export type SchemaNode =
  | NeverNode
  | AnyNode
  | EnumNode
  | NullNode
  | BooleanNode
  | NumberNode
  | StringNode
  | ArrayNode
  | ObjectNode
  | UnionNode
  | RefNode;

interface NodeBase {
  /** JSON Pointer of the source schema location ("" = root of the schema being compiled). */
  path: string;
}

/** Matches nothing. `reason` says why (shown when the whole schema turns out unsatisfiable). */
export interface NeverNode extends NodeBase {
  kind: "never";
  reason: string;
}

/** Any JSON value (`true`, `{}`). */
export interface AnyNode extends NodeBase {
  kind: "any";
}

/** `const` / `enum`: exactly these values (deduplicated by JSON equality, already filtered by sibling keywords). */
export interface EnumNode extends NodeBase {
  kind: "enum";
  values: JsonValue[];
}

export interface NullNode extends NodeBase {
  kind: "null";
}

export interface BooleanNode extends NodeBase {
  kind: "boolean";
}

/** A bound on a number; `value` is the JSON number as the schema wrote it (a double, like ajv compares). */
export interface NumberBound {
  value: number;
  exclusive: boolean;
}

/** `type: number` or `type: integer` (integer = a number with no fractional part, as in the spec). */
export interface NumberNode extends NodeBase {
  kind: "number";
  integer: boolean;
  /** The value is NOT an integer (from the complement of `integer`, e.g. `not: {type: "integer"}`). */
  fractional?: true;
  minimum?: NumberBound;
  maximum?: NumberBound;
  /** All `multipleOf` values that apply (allOf merging may collect several). */
  multipleOf?: number[];
}

/**
 * What a string's value must satisfy: the one description of string constraints, shared by `StringNode` (values),
 * object-key languages (`propertyNames`, `patternProperties`, excluded keys) and the string lowering.
 */
export interface StringConstraints {
  /** In Unicode code points, as the spec and ajv count. */
  minLength: number;
  maxLength?: number;
  /** ECMAScript regex sources; the value must match every one (unanchored search semantics, `u` flag). */
  patterns: string[];
  /** ECMAScript regex sources the value must NOT match (from `not: {pattern}` and key exclusion). */
  notPatterns: string[];
  /** `format` names the value must satisfy (asserted, as ajv-formats does in full mode); see STRING_FORMATS. */
  formats: string[];
  /** Values the string must not equal (from `not: {const}` and similar). */
  notValues?: string[];
}

export interface StringNode extends NodeBase, StringConstraints {
  kind: "string";
}

export interface ArrayNode extends NodeBase {
  kind: "array";
  /** Schemas of the first items, in order (`prefixItems`, or draft-7 array-form `items`). */
  prefixItems: SchemaNode[];
  /** Schema of every item after the prefix; `null` means no further items are allowed. */
  items: SchemaNode | null;
  minItems: number;
  maxItems?: number;
  /** `contains` with its bounds (`minContains` default 1). */
  contains?: { schema: SchemaNode; min: number; max?: number };
  /** `uniqueItems: true`: no two items are equal (JSON equality). Absent when at most one item is allowed. */
  uniqueItems?: true;
}

export interface PropertyNode {
  key: string;
  /** `never` on an optional property means the key must be absent (e.g. allOf with additionalProperties: false). */
  schema: SchemaNode;
  required: boolean;
}

export interface ObjectNode extends NodeBase {
  kind: "object";
  /** Declared properties in declaration order (the order the grammar emits them in). */
  properties: PropertyNode[];
  /** `patternProperties`: a key matching `pattern` (ECMAScript, unanchored) has a value matching `schema`. */
  patternProperties: { pattern: string; schema: SchemaNode }[];
  /**
   * Keys matching several patterns: per subset of two or more `patternProperties` (`members`, a bit set of their
   * indices), the intersection of their schemas (src/schema/patternOverlaps.ts). A subset not listed (or no list at
   * all) has no expressible intersection: its keys are left out of the grammar.
   */
  patternOverlaps?: { members: number; schema: SchemaNode }[];
  /** Schema of keys that are neither declared nor match a pattern; `false` forbids them. */
  additionalProperties: SchemaNode | false;
  /** Constraint on every key (a string-like node: `string`, `enum`, `union` of those, or `never`/`any`). */
  propertyNames?: SchemaNode;
  minProperties: number;
  maxProperties?: number;
  /** `dependentRequired`: when key K is present, these keys must be too. */
  dependentRequired: Record<string, string[]>;
}

/** A value matching at least one option (`type` arrays, `anyOf`, `oneOf` with provably disjoint branches). */
export interface UnionNode extends NodeBase {
  kind: "union";
  options: SchemaNode[];
}

/** A reference to a definition in `SchemaIR.defs` (used where inlining would not terminate: recursion). */
export interface RefNode extends NodeBase {
  kind: "ref";
  target: string;
}

export interface SchemaIR {
  root: SchemaNode;
  /** Definitions reachable through `ref` nodes, keyed by a stable id derived from the resolved pointer. */
  defs: Map<string, SchemaNode>;
}
