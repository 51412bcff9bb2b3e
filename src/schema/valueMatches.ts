import type { JsonValue } from "../json.js";
import type { SchemaNode } from "./SchemaNode.js";
import { deepEqual } from "./deepEqual.js";
import { checkFormat } from "./stringFormats.js";
import { isDecimalMultiple } from "./isDecimalMultiple.js";

/** Thrown when a value cannot be judged (a `ref` whose definition is still being built). */
export class UndecidableValue extends Error {}

const regexCache = new Map<string, RegExp>();
export function compilePattern(p: string): RegExp {
  let r = regexCache.get(p);
  if (!r) {
    r = new RegExp(p, "u");
    if (regexCache.size > 10_000) regexCache.clear();
    regexCache.set(p, r);
  }
  return r;
}

function codePointLength(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

const hasOwn = (o: object, k: string): boolean => Object.hasOwn(o, k);

/** Whether `value` is valid under the IR node, exactly as ajv would judge the schema the node came from
 * (`multipleOf` excepted: in decimal arithmetic, as the spec says; see isDecimalMultiple). */
export function valueMatches(node: SchemaNode, value: JsonValue, defs: Map<string, SchemaNode>): boolean {
  switch (node.kind) {
    case "never":
      return false;
    case "any":
      return true;
    case "enum":
      return node.values.some((x) => deepEqual(x, value));
    case "null":
      return value === null;
    case "boolean":
      return typeof value === "boolean";
    case "union":
      return node.options.some((o) => valueMatches(o, value, defs));
    case "ref": {
      const d = defs.get(node.target);
      if (!d) throw new UndecidableValue(node.target);
      return valueMatches(d, value, defs);
    }
    case "number": {
      if (typeof value !== "number") return false;
      if (node.integer && !Number.isInteger(value)) return false;
      if (node.fractional && Number.isInteger(value)) return false;
      if (node.minimum && (node.minimum.exclusive ? !(value > node.minimum.value) : !(value >= node.minimum.value)))
        return false;
      if (node.maximum && (node.maximum.exclusive ? !(value < node.maximum.value) : !(value <= node.maximum.value)))
        return false;
      return (node.multipleOf ?? []).every((m) => isDecimalMultiple(value, m));
    }
    case "string": {
      if (typeof value !== "string") return false;
      const len = codePointLength(value);
      if (len < node.minLength || (node.maxLength !== undefined && len > node.maxLength)) return false;
      if (!node.patterns.every((p) => compilePattern(p).test(value))) return false;
      if (node.notPatterns.some((p) => compilePattern(p).test(value))) return false;
      if (node.notValues?.includes(value)) return false;
      return node.formats.every((f) => checkFormat(f, value));
    }
    case "array": {
      if (!Array.isArray(value)) return false;
      if (value.length < node.minItems || (node.maxItems !== undefined && value.length > node.maxItems)) return false;
      for (let i = 0; i < value.length; i++) {
        const s = i < node.prefixItems.length ? node.prefixItems[i] : node.items;
        if (s === null || !valueMatches(s, value[i], defs)) return false;
      }
      if (node.contains) {
        const n = value.filter((x) => valueMatches(node.contains!.schema, x, defs)).length;
        if (n < node.contains.min || (node.contains.max !== undefined && n > node.contains.max)) return false;
      }
      if (node.uniqueItems)
        for (let i = 1; i < value.length; i++)
          for (let j = 0; j < i; j++) if (deepEqual(value[i], value[j])) return false;
      return true;
    }
    case "object": {
      if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
      const keys = Object.keys(value);
      if (keys.length < node.minProperties || (node.maxProperties !== undefined && keys.length > node.maxProperties))
        return false;
      for (const p of node.properties) {
        if (p.required && !hasOwn(value, p.key)) return false;
      }
      for (const k of keys) {
        if (node.propertyNames && !valueMatches(node.propertyNames, k, defs)) return false;
        const decl = node.properties.find((p) => p.key === k);
        if (decl) {
          if (!valueMatches(decl.schema, value[k], defs)) return false;
        }
        let matched = false;
        for (const pp of node.patternProperties) {
          if (compilePattern(pp.pattern).test(k)) {
            matched = true;
            if (!valueMatches(pp.schema, value[k], defs)) return false;
          }
        }
        if (!decl && !matched) {
          if (node.additionalProperties === false || !valueMatches(node.additionalProperties, value[k], defs))
            return false;
        }
        const deps = hasOwn(node.dependentRequired, k) ? node.dependentRequired[k] : undefined;
        if (deps && !deps.every((d) => hasOwn(value, d))) return false;
      }
      return true;
    }
  }
}
