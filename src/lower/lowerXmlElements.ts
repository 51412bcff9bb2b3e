import { UnsupportedSchemaError } from "../errors.js";
import type { GExpr } from "../grammar/Grammar.js";
import type { SchemaNode } from "../schema/SchemaNode.js";
import type { LowerState } from "./LowerState.js";
import { resolveRef } from "./resolveRef.js";
import type { Kind } from "./xmlElementKinds.js";
import { XmlElementsLowering } from "./XmlElementsLowering.js";
import type { XmlElementsSpelling } from "./XmlElementsSpelling.js";

/**
 * The arguments of a tool as MiniMax M3's nested elements (XmlElementsUnit), typed by its schema, exact: every text
 * reads back (src/formats/xmlElementValues.ts, readXmlElementValue, with the same schema) into a valid value.
 * The text of a value does not say its type, so at each place (a member, an item) the kinds the place's schema admits
 * decide, and each kind is written only in texts the reader gives to it:
 * - an empty element is "" when strings are admitted, else {}, else [], else null: the later ones are written
 *   non-empty (minProperties / minItems at least 1) or not at all;
 * - a string beside numbers (booleans) never spells a JSON number (`true` / `false`); no string holds a forbidden
 *   text (the tag prefix, hence no marker);
 * - an object beside arrays has no property named like the item tag (refused: its one-member form reads as an array).
 * What the template cannot write is left out or refused: null members (the template drops them; a required property
 * admitting only null is refused with UNSUPPORTED_KEYWORD at its path), undeclared keys (a closing tag repeats its
 * key: only declared properties are written, with the warning NARROWED), keys that cannot be tags (refused).
 * The root must be an object schema.
 */
export function lowerXmlElementsArguments(root: SchemaNode, st: LowerState, sp: XmlElementsSpelling): GExpr {
  const top = resolveRef(root, st);
  if (top.kind !== "object") {
    throw new UnsupportedSchemaError(
      "UNSUPPORTED_KEYWORD",
      `format ${sp.format} writes the arguments as one element per parameter, so the parameters must be one object schema (this one is ${top.kind === "union" ? "a union (anyOf/oneOf/type list)" : `a ${top.kind} schema`}); use another format or declare an object`,
      top.path,
    );
  }
  return new XmlElementsLowering(st, sp).lowerIn(top, new Set<Kind>(["object"]));
}
