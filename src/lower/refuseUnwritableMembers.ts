import { UnsupportedSchemaError } from "../errors.js";
import type { SchemaNode } from "../schema/SchemaNode.js";
import type { LowerState } from "./LowerState.js";
import { type Kind, kindsOf } from "./xmlElementKinds.js";
import type { XmlElementsSpelling } from "./XmlElementsSpelling.js";

/**
 * Refuses, with UNSUPPORTED_KEYWORD at the property's path, the members of an object at a place of kinds `k` that
 * nested elements cannot write: a key that cannot be a tag, a key named like the item tag where arrays may stand too
 * (its one-member form reads as an array), a required property admitting only null (the template drops null members).
 */
export function refuseUnwritableMembers(
  n: Extract<SchemaNode, { kind: "object" }>,
  k: ReadonlySet<Kind>,
  st: LowerState,
  sp: XmlElementsSpelling,
): void {
  for (const p of n.properties) {
    const problem = sp.keyProblem(p.key);
    if (problem !== undefined) {
      throw new UnsupportedSchemaError(
        "UNSUPPORTED_KEYWORD",
        `format ${sp.format} writes each member as an element named by its key, and ${JSON.stringify(p.key)} cannot be one (${problem}); rename the property or use another format`,
        p.schema.path,
      );
    }
    if (k.has("array") && p.key === sp.unit.itemTag) {
      throw new UnsupportedSchemaError(
        "UNSUPPORTED_KEYWORD",
        `format ${sp.format} writes an array's items as ${JSON.stringify(sp.unit.itemTag)} elements, and this object, which stands where arrays may too, has a property of that name: its elements would read as an array; rename the property or use another format`,
        p.schema.path,
      );
    }
    const pk = kindsOf(p.schema, st);
    pk.delete("null");
    if (p.required && pk.size === 0) {
      throw new UnsupportedSchemaError(
        "UNSUPPORTED_KEYWORD",
        `format ${sp.format} cannot write the required property ${JSON.stringify(p.key)}: it admits only null, and the chat template leaves null members out; make it optional or give it another type`,
        p.schema.path,
      );
    }
  }
}
