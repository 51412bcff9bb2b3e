import { canonicalJson, type JsonObject, type JsonValue } from "../../json.js";
import type { FormatDescription, XmlParametersUnit } from "../../formats/FormatDescription.js";
import { rawValueForbidden } from "../../formats/rawValueForbidden.js";
import type { Repair } from "../lenientJson.js";
import { coerceRawValue } from "../coerceBySchema.js";
import { isCompactJson, isGrammarNumber } from "./isCompactJson.js";
import { admittedTypes } from "../valueKind.js";
import type { ToolParameters, UnitCall, UnitCodec, UnitResult, ValueKinds } from "./UnitCodec.js";
import { CALL_INDEX_TEXT, xmlValueKindOfName, xmlValueType, xmlValueTypeName } from "../../formats/xmlValueType.js";
import { type ScanFailure, type Scanned, XmlParametersScanner } from "./XmlParametersScanner.js";

/**
 * Tagged parameters (XmlParametersUnit): `nameOpen NAME nameClose (keyOpen K keyClose T V valueClose)* callClose`.
 * Strings are written raw, other values as canonical JSON. How a value is read: by its type marker T when the format
 * writes one (DeepSeek's `string="true|false"`), else by the parameter's schema when the tools are known (`kinds`),
 * else by the text (JSON when it parses as a JSON value that is not a string).
 */
export const xmlParametersUnit: UnitCodec = {
  render(call: UnitCall, d: FormatDescription): string {
    const u = xmlUnit(d);
    const entries = Object.entries(call.arguments);
    // the reader ends a name at its closing marker (MiniMax M2's and MiniCPM 5's quoted `name="…">`), as compiling does
    refuseMarker("the tool name", call.name, u.nameClose);
    refuseRecipient(call.name, d);
    // a call index (Kimi K3): renderToolCalls gives each call its position as id unless it has an index of its own
    let out = recipientText(u, call.name) + u.nameOpen + call.name + u.nameClose + indexText(u, call.id);
    for (const [k, v] of entries) {
      refuseMarker(`the parameter name ${JSON.stringify(k)}`, k, u.keyClose);
      out += u.keyOpen + k + u.keyClose + typeText(u, v) + renderValue(k, v, d) + u.valueClose;
    }
    if (entries.length === 0) out += u.emptyArguments ?? "";
    return out + u.callClose;
  },

  read(
    text: string,
    d: FormatDescription,
    _whole: boolean,
    kinds?: ValueKinds,
    parameters?: ToolParameters,
  ): UnitResult {
    const s = scan(text, d, parameters);
    if (!s.ok) return s;
    const u = xmlUnit(d);
    const args: JsonObject = {};
    const repairs = s.repairs;
    const forbidden = rawValueForbidden(d);
    for (const p of s.params) {
      if (Object.hasOwn(args, p.key)) repairs.push({ code: "DUPLICATE_PARAMETER", at: p.at });
      // a written type (Kimi K3's JSON type, DSML's string flag) says how the value is spelled; else the schema, else the text
      const written = p.type === undefined ? undefined : xmlValueKindOfName(p.type, u.valueType?.names);
      const kind = kinds?.(s.name, p.key);
      const schema = parameters?.(s.name);
      const admitted = schema === undefined ? undefined : admittedTypes(schema, p.key);
      const v = coerceRawValue(p.value, { written, kind, admitted, known: schema !== undefined }, repairs, p.at);
      // a marker no grammar writes in a value (its closing one, a block's): read whole, as the rest still reads
      if (typeof v === "string" && forbidden.some((x) => v.includes(x)))
        repairs.push({ code: "RAW_VALUE_HOLDS_MARKER", at: p.at });
      args[p.key] = v;
    }
    // the message's recipient names the tool too (Muse Glimmer): the invoked name is the call's
    if (s.recipient !== undefined && s.recipient !== s.name) repairs.push({ code: "RECIPIENT_MISMATCH", at: 0 });
    const call: UnitCall = { name: s.name, arguments: args };
    if (s.index !== undefined) call.id = s.index;
    return { ok: true, call, repairs: dedupe(repairs) };
  },

  /**
   * `nameOpen` when it is a tag of its own (`<function=`, `<invoke name="`), not bare text. Not in a turn of messages
   * whose calls are addressed (Muse Glimmer): there a call is a message to its tool, and the tag in a text message is
   * quoted text (as llama.cpp reads it).
   */
  bareStart(d: FormatDescription): string | null {
    if (xmlUnit(d).recipient !== undefined) return null;
    const open = xmlUnit(d).nameOpen.trim();
    return open.startsWith("<") && open.length >= 4 ? open : null;
  },

  /**
   * The canonical rendering of the call, except that a JSON value may be written in any number spelling a grammar
   * emits (as for JSON units); raw strings are compared byte for byte.
   */
  isCanonical(text: string, call: UnitCall, d: FormatDescription): boolean {
    const s = scan(text, d);
    if (!s.ok || s.repairs.length > 0) return false;
    const u = xmlUnit(d);
    const entries = Object.entries(call.arguments);
    if (entries.length !== s.params.length) return false;
    if (u.callIndex !== undefined && (call.id === undefined || !CALL_INDEX_TEXT.test(call.id) || call.id !== s.index))
      return false;
    let out = recipientText(u, call.name) + u.nameOpen + call.name + u.nameClose + indexText(u, call.id);
    for (let i = 0; i < entries.length; i++) {
      const [k, v] = entries[i];
      const written = s.params[i].value;
      let value: string;
      if (typeof v === "string") value = v;
      else if (isGrammarNumber(written) || (!written.includes("<") && isCompactJson(unescapeAngles(written))))
        value = written;
      else value = jsonValueText(v);
      out += u.keyOpen + k + u.keyClose + typeText(u, v) + value + u.valueClose;
    }
    if (entries.length === 0) out += u.emptyArguments ?? "";
    out += u.callClose;
    return d.afterOpen + out + d.beforeClose === text;
  },
};

/** The message's recipient and its closing marker (XmlParametersUnit.recipient), or "" when the unit has none. */
function recipientText(u: XmlParametersUnit, name: string): string {
  return u.recipient === undefined ? "" : name + u.recipient.close;
}

/**
 * A name written as a message's recipient (XmlParametersUnit.recipient) ends at the recipient's closing marker and
 * must not be the text's recipient (`user`), nor start like the reasoning message.
 */
function refuseRecipient(name: string, d: FormatDescription): void {
  const u = xmlUnit(d);
  if (u.recipient === undefined) return;
  refuseMarker("the tool name", name, u.recipient.close);
  if (d.messages !== undefined && name + u.recipient.close === d.messages.text) {
    throw new TypeError(`the tool name ${JSON.stringify(name)} is the recipient of text in format ${d.name}`);
  }
}

/** The call's index and its closing marker (XmlParametersUnit.callIndex), or "" when the unit has none. */
function indexText(u: XmlParametersUnit, id: string | undefined): string {
  if (u.callIndex === undefined) return "";
  return (id !== undefined && CALL_INDEX_TEXT.test(id) ? id : String(u.callIndex.base)) + u.callIndex.close;
}

/** A value's type and its closing marker (XmlParametersUnit.valueType), or "" when the unit writes none. */
function typeText(u: XmlParametersUnit, v: JsonValue): string {
  return u.valueType === undefined ? "" : xmlValueTypeName(xmlValueType(v), u.valueType.names) + u.valueType.close;
}

function xmlUnit(d: FormatDescription): XmlParametersUnit {
  if (d.unit.kind !== "xml-parameters") throw new Error(`internal: ${d.name} has no XML-parameter units`);
  return d.unit;
}

/**
 * `text` with each `\u003c` escape (not itself escaped) written `<`: a JSON value as jsonValueText writes it, back in
 * `canonicalJson`'s spelling, so that isCompactJson can tell whether only its numbers are spelled otherwise.
 */
function unescapeAngles(text: string): string {
  return text.replace(/(?<!\\)((?:\\\\)*)\\u003c/g, "$1<");
}

/**
 * A non-string value's JSON, with `<` written `\u003c`: in JSON text `<` can only stand inside a string, and there
 * the escape keeps every marker of the format (`</parameter>`, `</tool_call>`, all opening with `<`) out of the
 * value, so the reader can never be cut inside it. The grammar spells JSON values the same way (lowerXmlParameters).
 */
export function jsonValueText(v: JsonValue): string {
  return canonicalJson(v).replaceAll("<", "\\u003c");
}

function refuseMarker(what: string, text: string, close: string): void {
  const core = close.trim();
  if (core !== "" && text.includes(core))
    throw new TypeError(`${what} contains ${JSON.stringify(core)}, which ends it in this format`);
}

function renderValue(key: string, v: JsonValue, d: FormatDescription): string {
  const text = typeof v === "string" ? v : jsonValueText(v);
  const bad = rawValueForbidden(d).find((m) => text.includes(m));
  // a JSON value holding a marker would be cut there by the reader just as a raw one
  if (bad !== undefined)
    throw new TypeError(
      `the value of ${JSON.stringify(key)} contains ${JSON.stringify(bad)}, which a ${d.name} value cannot hold`,
    );
  return text;
}

/** The structure of a unit, tolerantly (XmlParametersScanner). */
function scan(text: string, d: FormatDescription, parameters?: ToolParameters): Scanned | ScanFailure {
  return new XmlParametersScanner(text, d, xmlUnit(d)).scan(parameters);
}

function dedupe(repairs: Repair[]): Repair[] {
  const seen = new Set<string>();
  return repairs.filter((r) => (seen.has(r.code) ? false : (seen.add(r.code), true)));
}
