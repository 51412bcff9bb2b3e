import type { JsonObject, JsonValue } from "../../json.js";
import type { FormatDescription } from "../../formats/FormatDescription.js";
import {
  readXmlElements,
  readXmlElementValue,
  xmlElementsArgumentsText,
  xmlElementsUnit as elementsUnit,
  type XmlElementsReadIssue,
} from "../../formats/xmlElementValues.js";
import type { Repair } from "../lenientJson.js";
import type { ToolParameters, UnitCall, UnitCodec, UnitResult } from "./UnitCodec.js";

/**
 * MiniMax M3's call (XmlElementsUnit): `NAME">` then one element per argument, nested elements for objects and arrays
 * (src/formats/xmlElementValues.ts). Values are typed by the tool's schema when the tools are given (`parameters`),
 * else by their text. Tolerant reading also takes whitespace between elements (WHITESPACE_AROUND_TAGS) and a repeated
 * key (DUPLICATE_PARAMETER, the last one kept).
 */
export const xmlElementsUnit: UnitCodec = {
  render(call: UnitCall, d: FormatDescription): string {
    const u = elementsUnit(d);
    return call.name + u.nameClose + xmlElementsArgumentsText(call.arguments, d);
  },

  read(text: string, d: FormatDescription, _whole: boolean, _kinds?: unknown, parameters?: ToolParameters): UnitResult {
    const r = readCall(text, d, parameters);
    if (!r.ok) return r;
    return { ok: true, call: { name: r.name, arguments: r.args }, repairs: r.repairs };
  },

  /** The tag that opens every call's name (`]<]minimax[>[<invoke name="`) is the block's own opening marker. */
  bareStart(): string | null {
    return null;
  },

  /**
   * The canonical spelling: read without a repair (nothing between the tags, no repeated key). Numbers may be written
   * in any JSON spelling: a compiled grammar decides those, as for JSON units.
   */
  isCanonical(text: string, call: UnitCall, d: FormatDescription): boolean {
    const r = readCall(text, d, undefined);
    return r.ok && r.repairs.length === 0 && r.name === call.name;
  },
};

type Read =
  | { ok: true; name: string; args: JsonObject; repairs: Repair[] }
  | { ok: false; code: "NOT_A_CALL" | "MISSING_NAME" | "INVALID_JSON"; message: string; at?: number };

function readCall(text: string, d: FormatDescription, parameters: ToolParameters | undefined): Read {
  const u = elementsUnit(d);
  const repairs: Repair[] = [];
  let i = 0;
  if (text.startsWith(d.afterOpen)) i = d.afterOpen.length;
  const close = text.indexOf(u.nameClose, i);
  if (close < 0)
    return {
      ok: false,
      code: "MISSING_NAME",
      message: `the call's name is not closed by ${JSON.stringify(u.nameClose)}`,
      at: i,
    };
  const nameText = text.slice(i, close);
  const name = nameText.trim();
  if (name === "" || /[\s<>"]/.test(name))
    return {
      ok: false,
      code: "MISSING_NAME",
      message: `no function name before ${JSON.stringify(u.nameClose)} (${JSON.stringify(nameText.slice(0, 40))})`,
      at: i,
    };
  if (name !== nameText) repairs.push({ code: "WHITESPACE_AROUND_TAGS", at: i });
  let end = text.length;
  if (d.beforeClose !== "" && text.endsWith(d.beforeClose)) end -= d.beforeClose.length;
  const issues: XmlElementsReadIssue[] = [];
  const root: JsonValue | undefined = parameters?.(name);
  const args: JsonObject = {};
  try {
    const children = readXmlElements(text, close + u.nameClose.length, end, u, issues);
    for (const c of children) {
      if (Object.hasOwn(args, c.tag)) issues.push({ code: "DUPLICATE_PARAMETER", at: c.at });
      const schema = root === undefined ? undefined : memberSchema(root, c.tag);
      const v = readXmlElementValue(c.value, schema, root, u, issues, c.at);
      Object.defineProperty(args, c.tag, { value: v, enumerable: true, writable: true, configurable: true });
    }
  } catch (e) {
    return { ok: false, code: "INVALID_JSON", message: e instanceof Error ? e.message : String(e) };
  }
  for (const x of issues) repairs.push({ code: x.code, at: x.at });
  return { ok: true, name, args, repairs: dedupe(repairs) };
}

/** The schema of a top-level argument: the parameters' declared property (the grammar writes no others). */
function memberSchema(root: JsonValue, key: string): JsonValue | undefined {
  if (root === null || typeof root !== "object" || Array.isArray(root)) return undefined;
  const props = root.properties;
  if (props === null || typeof props !== "object" || Array.isArray(props) || !Object.hasOwn(props, key))
    return undefined;
  return props[key];
}

function dedupe(repairs: Repair[]): Repair[] {
  const seen = new Set<string>();
  return repairs.filter((r) => (seen.has(r.code) ? false : (seen.add(r.code), true)));
}
