import type { ArrayNode, NumberNode, ObjectNode, SchemaNode, StringNode } from "../../../src/schema/SchemaNode.js";

export const str = (path = ""): StringNode => ({
  kind: "string",
  path,
  minLength: 0,
  patterns: [],
  notPatterns: [],
  formats: [],
});
export const num = (p: Partial<NumberNode> = {}): NumberNode => ({ kind: "number", path: "", integer: false, ...p });
export const int = (p: Partial<NumberNode> = {}): NumberNode => num({ integer: true, ...p });
export const any = (path = ""): SchemaNode => ({ kind: "any", path });

export function obj(p: Partial<ObjectNode> = {}): ObjectNode {
  return {
    kind: "object",
    path: "",
    properties: [],
    patternProperties: [],
    additionalProperties: false,
    minProperties: 0,
    dependentRequired: {},
    ...p,
  };
}

export function arr(p: Partial<ArrayNode> = {}): ArrayNode {
  return { kind: "array", path: "", prefixItems: [], items: any(), minItems: 0, ...p };
}
