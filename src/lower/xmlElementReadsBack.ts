import { readXmlElements, readXmlElementValue, type XmlElementNode } from "../formats/xmlElementValues.js";
import { canonicalJson, type JsonValue } from "../json.js";
import { ALL_KINDS, type Kind } from "./xmlElementKinds.js";
import type { XmlElementsSpelling } from "./XmlElementsSpelling.js";

/** The text written for `v` when the reader, at a place of kinds `k`, reads it back as `v`; else null. */
export function xmlElementReadsBack(v: JsonValue, k: ReadonlySet<Kind>, sp: XmlElementsSpelling): string | null {
  let text: string | null;
  try {
    text = sp.valueText(v);
  } catch {
    text = null;
  }
  if (text === null) return null;
  let node: XmlElementNode;
  try {
    node = text.includes(sp.unit.tagPrefix)
      ? { kind: "elements", children: readXmlElements(text, 0, text.length, sp.unit, []) }
      : { kind: "text", text };
  } catch {
    return null;
  }
  const schema = { type: ALL_KINDS.filter((x) => k.has(x)) };
  const back = readXmlElementValue(node, schema, schema, sp.unit, []);
  return canonicalJson(back) === canonicalJson(v) ? text : null;
}
