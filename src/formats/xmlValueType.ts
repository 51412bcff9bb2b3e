import { isJsonObject, type JsonValue } from "../json.js";

/** The JSON types a typed tagged parameter (XmlParametersUnit.valueType) names. */
export const XML_VALUE_TYPES = ["string", "number", "boolean", "null", "object", "array"] as const;
export type XmlValueType = (typeof XML_VALUE_TYPES)[number];

/** The type a value is written with (Kimi K3's template: integers and floats are both `number`). */
export function xmlValueType(v: JsonValue): XmlValueType {
  if (v === null) return "null";
  if (typeof v === "string") return "string";
  if (typeof v === "number") return "number";
  if (typeof v === "boolean") return "boolean";
  if (Array.isArray(v)) return "array";
  if (isJsonObject(v)) return "object";
  throw new Error("internal: not a JSON value");
}

/** A call index as written: digits without a leading zero, at most 6 (as grammars allow). */
export const CALL_INDEX_TEXT = /^(?:0|[1-9][0-9]{0,5})$/;

/** How a unit names value types (XmlParametersUnit.valueType.names). */
export type XmlValueTypeNames = "json-type" | "string-flag";

/**
 * The written name of type `t`: the JSON type itself (`"json-type"`, Kimi K3), or whether the value is a raw string
 * (`"string-flag"`, DeepSeek's DSML `string="true"` / `string="false"`).
 */
export function xmlValueTypeName(t: XmlValueType, names: XmlValueTypeNames = "json-type"): string {
  if (names === "json-type") return t;
  return t === "string" ? "true" : "false";
}

/** How a value whose type is written `name` is spelled: raw (`"string"`), JSON, or undefined for an unknown name. */
export function xmlValueKindOfName(
  name: string,
  names: XmlValueTypeNames = "json-type",
): "string" | "json" | undefined {
  if (names === "string-flag") return name === "true" ? "string" : name === "false" ? "json" : undefined;
  if (name === "string") return "string";
  return (XML_VALUE_TYPES as readonly string[]).includes(name) ? "json" : undefined;
}
