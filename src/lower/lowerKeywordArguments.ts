import { UnsupportedSchemaError } from "../errors.js";
import type { GExpr } from "../grammar/Grammar.js";
import { lit } from "../grammar/build.js";
import { PYTHON_IDENTIFIER } from "../formats/pythonNames.js";
import type { SchemaNode } from "../schema/SchemaNode.js";
import { resolveRef } from "./resolveRef.js";
import type { LowerState } from "./LowerState.js";
import { lowerObject, type ObjectSpelling } from "./lowerObject.js";

/** `(k=v, k2=v2)`, `()` when empty: the canonical spelling of `pythonLiteral` calls (src/parser/units/pythonCallUnit.ts). */
const KEYWORD_ARGUMENTS: ObjectSpelling = {
  open: lit("("),
  close: lit(")"),
  empty: lit("()"),
  itemSeparator: lit(", "),
  key: (k) => lit(`${k}=`),
};

/**
 * The arguments object of a tool as Python keyword arguments, for the pythonic format. Only an object whose members
 * are all declared properties with identifier names can be written so: a root that is not an object, undeclared
 * members (additionalProperties / patternProperties) or a property name that is not an identifier throw
 * UnsupportedSchemaError UNSUPPORTED_KEYWORD at that place. Nested values stay Python literals (`{"k": v}` dicts).
 */
export function lowerKeywordArguments(root: SchemaNode, st: LowerState, separator = ", "): GExpr {
  const n = resolveRef(root, st);
  if (n.kind !== "object") {
    throw new UnsupportedSchemaError(
      "UNSUPPORTED_KEYWORD",
      `format pythonic writes the arguments as keyword arguments, so the parameters must be one object schema (this one is ${n.kind === "union" ? "a union (anyOf/oneOf/type list)" : `a ${n.kind} schema`}); use another format or declare an object`,
      n.path,
    );
  }
  if (n.patternProperties.length > 0) {
    throw new UnsupportedSchemaError(
      "UNSUPPORTED_KEYWORD",
      "format pythonic writes the arguments as keyword arguments: only declared properties fit, patternProperties do not; use another format or declare the properties",
      `${n.path}/patternProperties`,
    );
  }
  if (n.additionalProperties !== false && n.additionalProperties.kind !== "never") {
    throw new UnsupportedSchemaError(
      "UNSUPPORTED_KEYWORD",
      'format pythonic writes the arguments as keyword arguments: only declared properties fit; set additionalProperties: false (or compile with additionalProperties: "forbid")',
      `${n.path}/additionalProperties`,
    );
  }
  for (const p of n.properties) {
    if (!PYTHON_IDENTIFIER.test(p.key)) {
      throw new UnsupportedSchemaError(
        "UNSUPPORTED_KEYWORD",
        `format pythonic writes the arguments as keyword arguments, and ${JSON.stringify(p.key)} is not a Python identifier; rename the property or use another format`,
        p.schema.path,
      );
    }
  }
  return lowerObject(
    n,
    st,
    separator === ", " ? KEYWORD_ARGUMENTS : { ...KEYWORD_ARGUMENTS, itemSeparator: lit(separator) },
  );
}
