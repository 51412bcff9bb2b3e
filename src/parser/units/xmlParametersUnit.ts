import { canonicalJson, isJsonObject, type JsonObject, type JsonValue } from "../../json.js";
import type { FormatDescription, XmlParametersUnit } from "../../formats/FormatDescription.js";
import { rawValueForbidden } from "../../formats/rawValueForbidden.js";
import { parseLenientJson, type Repair } from "../lenientJson.js";
import { isCompactJson, isGrammarNumber } from "./isCompactJson.js";
import { admittedTypes, type JsonTypeName, typeOfValue } from "../valueKind.js";
import type { ToolParameters, UnitCall, UnitCodec, UnitResult, ValueKinds } from "./UnitCodec.js";
import { CALL_INDEX_TEXT, xmlValueKindOfName, xmlValueType, xmlValueTypeName } from "../../formats/xmlValueType.js";

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
    for (const p of s.params) {
      if (Object.hasOwn(args, p.key)) repairs.push({ code: "DUPLICATE_PARAMETER", at: p.at });
      // a written type (Kimi K3's JSON type, DSML's string flag) says how the value is spelled; else the schema, else the text
      const written = p.type === undefined ? undefined : xmlValueKindOfName(p.type, u.valueType?.names);
      const kind = kinds?.(s.name, p.key);
      const schema = parameters?.(s.name);
      const v =
        written !== undefined
          ? readTyped(p.value, written, kind, repairs, p.at)
          : kind === undefined && schema !== undefined
            ? readBySchema(p.value, admittedTypes(schema, p.key), repairs, p.at)
            : readValue(p.value, kind, repairs, p.at);
      const close = u.valueClose.trim();
      if (typeof v === "string" && close !== "" && v.includes(close))
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

/** How a value is taken: raw text, JSON, or by the text (JSON when it parses to a non-string). */
function readValue(text: string, kind: "string" | "json" | undefined, repairs: Repair[], at: number): JsonValue {
  if (kind === "string") return text;
  const t = text.trim();
  if (kind === undefined) {
    try {
      const v = JSON.parse(t) as JsonValue;
      if (typeof v !== "string" && allFinite(v)) return v;
    } catch {
      // not JSON: raw text
    }
    return text;
  }
  const py = PYTHON_KEYWORDS[t];
  if (py !== undefined) {
    repairs.push({ code: "PYTHON_LITERAL", at });
    return py;
  }
  const r = parseLenientJson(t);
  if (r.ok && t.slice(r.end).trim() === "" && allFinite(r.value)) {
    repairs.push(...r.repairs.map((x) => ({ code: x.code, at })));
    return r.value;
  }
  // not JSON where the schema wants JSON: keep the text, validation reports it
  return text;
}

/**
 * A value whose written type says how it is spelled (`typed`): raw text, or JSON. A parameter's schema that admits
 * only one of the two (`kind`) wins over a type that contradicts it (VALUE_TYPE_MISMATCH): a JSON-typed value of a
 * string parameter is its JSON string when it is one (`"Paris"`), else its text; a string-typed value of a non-string
 * parameter is read as JSON, as the schema wants.
 */
function readTyped(
  text: string,
  typed: "string" | "json",
  kind: "string" | "json" | undefined,
  repairs: Repair[],
  at: number,
): JsonValue {
  if (kind !== undefined && kind !== typed) repairs.push({ code: "VALUE_TYPE_MISMATCH", at });
  if (typed === "string") return kind === "json" ? readValue(text, "json", repairs, at) : text;
  const v = readValue(text, "json", repairs, at);
  return kind === "string" && typeof v !== "string" ? text : v;
}

/**
 * A value whose parameter's schema admits strings and other types (`anyOf: [string, null]`, `type: [integer, null]`):
 * read by the types it admits (`admitted`; undefined when the schema does not say). The text's JSON (or Python)
 * value when its type is admitted; else the text itself when strings are admitted (VALUE_READ_BY_SCHEMA: `42` for
 * a string-or-null parameter is the string "42"); else as by the text alone, and validation reports it.
 */
function readBySchema(
  text: string,
  admitted: ReadonlySet<JsonTypeName> | undefined,
  repairs: Repair[],
  at: number,
): JsonValue {
  if (admitted === undefined) return readValue(text, undefined, repairs, at);
  const t = text.trim();
  const own: Repair[] = [];
  const v = readJsonOrPython(t, own, at);
  if (v !== undefined && typeof v !== "string" && admitted.has(typeOfValue(v))) {
    repairs.push(...own);
    return v;
  }
  if (admitted.has("string")) {
    if (v !== undefined && typeof v !== "string") repairs.push({ code: "VALUE_READ_BY_SCHEMA", at });
    return text;
  }
  return readValue(text, undefined, repairs, at);
}

/** The text's JSON value, read leniently (Python's repr of a dict: `{'k': 'v', 'n': None}`), or undefined. */
function readJsonOrPython(t: string, repairs: Repair[], at: number): JsonValue | undefined {
  const r = parseLenientJson(t);
  if (!r.ok || t.slice(r.end).trim() !== "" || !allFinite(r.value)) return undefined;
  repairs.push(...r.repairs.map((x) => ({ code: x.code, at })));
  return r.value;
}

/** Python's spellings, which templates rendering `value | string` in Python's Jinja write. */
const PYTHON_KEYWORDS: Record<string, JsonValue> = { True: true, False: false, None: null };

function allFinite(v: JsonValue): boolean {
  if (typeof v === "number") return Number.isFinite(v);
  if (Array.isArray(v)) return v.every(allFinite);
  if (isJsonObject(v)) return Object.values(v).every(allFinite);
  return true;
}

interface Scanned {
  ok: true;
  name: string;
  /** The message's recipient as written (XmlParametersUnit.recipient). */
  recipient?: string;
  /** The call's index as written (XmlParametersUnit.callIndex). */
  index?: string;
  /** `type`: the value's type as written (XmlParametersUnit.valueType). */
  params: { key: string; value: string; at: number; type?: string }[];
  repairs: Repair[];
}

/** A marker split into its leading whitespace, its core, and its trailing whitespace. */
interface Marker {
  lead: string;
  core: string;
  trail: string;
  /** The core with each whitespace run matching any whitespace (tolerant reading). */
  loose: RegExp;
  /** `loose` matching only where it is tried (sticky). */
  here: RegExp;
}

function marker(m: string): Marker {
  // a marker of whitespace only (GLM's `\n` after the name) is what follows the text before it: all trail
  if (m.trim() === "") return { lead: "", core: "", trail: m, loose: /(?:)/g, here: /(?:)/y };
  const lead = /^\s*/.exec(m)?.[0] ?? "";
  const trail = m.length > lead.length ? (/\s*$/.exec(m)?.[0] ?? "") : "";
  const core = m.slice(lead.length, m.length - trail.length);
  const src = core
    .split(/\s+/)
    .map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
    .join("\\s*");
  return { lead, core, trail, loose: new RegExp(src, "g"), here: new RegExp(src, "y") };
}

type MarkerName =
  | "recipientClose"
  | "nameOpen"
  | "nameClose"
  | "keyOpen"
  | "keyClose"
  | "valueClose"
  | "callClose"
  | "indexClose"
  | "typeClose";
const markers = new WeakMap<XmlParametersUnit, Record<MarkerName, Marker>>();

function markersOf(u: XmlParametersUnit): Record<MarkerName, Marker> {
  let m = markers.get(u);
  if (!m) {
    m = {
      recipientClose: marker(u.recipient?.close ?? ""),
      nameOpen: marker(u.nameOpen),
      nameClose: marker(u.nameClose),
      keyOpen: marker(u.keyOpen),
      keyClose: marker(u.keyClose),
      valueClose: marker(u.valueClose),
      callClose: marker(u.callClose),
      indexClose: marker(u.callIndex?.close ?? ""),
      typeClose: marker(u.valueType?.close ?? ""),
    };
    markers.set(u, m);
  }
  return m;
}

/** The first match of `m`'s core at or after `from` (loosely spaced), or null. */
/** A single word (no markup) on its own line: the only text tolerated before a call's opening tag. */
const LONE_WORD = /^[^\s<>]+\s*$/;

function find(text: string, from: number, m: Marker): { start: number; end: number; exact: boolean } | null {
  if (m.core === "") return null;
  m.loose.lastIndex = from;
  const r = m.loose.exec(text);
  if (!r) return null;
  return { start: r.index, end: r.index + r[0].length, exact: r[0] === m.core };
}

/**
 * The structure of a unit, tolerantly: each drift from the exact markers and padding is a repair
 * (WHITESPACE_AROUND_TAGS). Values are the exact text between a key's closing marker and the value's closing one.
 */
function scan(
  text: string,
  d: FormatDescription,
  parameters?: ToolParameters,
): Scanned | { ok: false; code: "NOT_A_CALL" | "MISSING_NAME"; message: string } {
  const u = xmlUnit(d);
  const m = markersOf(u);
  const repairs: Repair[] = [];
  const ws = (): void => {
    repairs.push({ code: "WHITESPACE_AROUND_TAGS", at: 0 });
  };
  let i = 0;
  if (text.startsWith(d.afterOpen)) i = d.afterOpen.length;
  else ws();
  const skipWs = (expected: string): void => {
    const j = i;
    while (i < text.length && /\s/.test(text[i])) i++;
    if (text.slice(j, i) !== expected) ws();
  };
  function expectTrailOf(t: string): void {
    if (text.startsWith(t, i)) i += t.length;
    else ws();
  }
  let recipient: string | undefined;
  if (u.recipient !== undefined) {
    // a message to the tool (Muse Glimmer): its recipient, the name, up to the recipient's closing marker
    const rc = find(text, i, m.recipientClose);
    if (rc === null)
      return {
        ok: false,
        code: "MISSING_NAME",
        message: `the message's recipient is not closed by ${JSON.stringify(u.recipient.close)}`,
      };
    const written = text.slice(i, rc.start);
    recipient = written.trim();
    if (recipient !== written || !rc.exact) ws();
    i = rc.end;
    expectTrailOf(m.recipientClose.trail);
  }
  skipWs(m.nameOpen.lead);
  const open = m.nameOpen.core === "" ? { start: i, end: i, exact: true } : find(text, i, m.nameOpen);
  // a lone word before the call's own tag (vLLM's Step-3 outputs repeat the name there): skipped, as a repair
  if (open && m.nameOpen.core.startsWith("<") && LONE_WORD.test(text.slice(i, open.start))) {
    repairs.push({ code: "TEXT_BEFORE_CALL", at: i });
    i = open.start;
  }
  if (!open || text.slice(i, open.start).trim() !== "")
    return { ok: false, code: "NOT_A_CALL", message: `the call does not start with ${JSON.stringify(u.nameOpen)}` };
  if (!open.exact) ws();
  i = open.end;
  // the name ends at its closing marker, or where the first parameter or the call's end begins
  const ends = [m.nameClose, m.keyOpen, m.callClose].map((x) => find(text, i, x)).filter((x) => x !== null);
  const nameEnd =
    m.nameClose.core === ""
      ? ends.reduce((a, b) => Math.min(a, b.start), text.length)
      : (find(text, i, m.nameClose)?.start ?? -1);
  if (nameEnd < 0)
    return {
      ok: false,
      code: "MISSING_NAME",
      message: `the function name is not closed by ${JSON.stringify(u.nameClose)}`,
    };
  let nameText = text.slice(i, nameEnd);
  if (m.nameClose.core === "") {
    // the name closes with whitespace only (GLM): take the name's own line
    const nl = /\s/.exec(nameText.trimStart());
    const lead = nameText.length - nameText.trimStart().length;
    if (nl) nameText = nameText.slice(0, lead + nl.index);
  }
  const name = nameText.trim();
  if (name === "") return { ok: false, code: "MISSING_NAME", message: "the call has no function name" };
  // a name is one word: one that runs over a line or into a tag lost its closing marker (`bad_func\n</function`)
  if (/[\s<>]/.test(name))
    return {
      ok: false,
      code: "MISSING_NAME",
      message: `the function name ${JSON.stringify(name)} is broken (not closed by ${JSON.stringify(u.nameClose)})`,
    };
  const placedFrom = placedCloses(text, m);
  const declared = parameters?.(name)?.properties;
  const seen = new Set<string>();
  // a parameter that opens where a value's closing marker was left out: one the tool declares and the call has not
  // written yet (any name when the tool's schema is unknown)
  const isNewKey = (key: string): boolean =>
    !seen.has(key) && (!isJsonObject(declared) || Object.hasOwn(declared, key));
  if (name !== nameText) ws();
  i += nameText.length;
  if (m.nameClose.core !== "") {
    const c = find(text, i, m.nameClose) as { start: number; end: number; exact: boolean };
    if (!c.exact) ws();
    i = c.end;
  }
  const expectTrail = expectTrailOf;
  expectTrail(m.nameClose.trail);
  let index: string | undefined;
  if (u.callIndex !== undefined) {
    // Kimi K3's `index="N"`: digits up to the index's closing marker
    const c = find(text, i, m.indexClose);
    const written = c === null ? "" : text.slice(i, c.start);
    if (c === null || !/^\s*[0-9]+\s*$/.test(written))
      return {
        ok: false,
        code: "NOT_A_CALL",
        message: `the call's index is not digits closed by ${JSON.stringify(u.callIndex.close)}`,
      };
    index = written.trim();
    if (index !== written || !c.exact) ws();
    i = c.end;
    expectTrail(m.indexClose.trail);
  }
  const params: Scanned["params"] = [];
  for (;;) {
    const j = i;
    while (i < text.length && /\s/.test(text[i])) i++;
    const k = find(text, i, m.keyOpen);
    if (!k || k.start !== i) {
      i = j;
      break;
    }
    if (text.slice(j, i) !== m.keyOpen.lead) ws();
    if (!k.exact) ws();
    const kc = find(text, k.end, m.keyClose);
    if (!kc)
      return {
        ok: false,
        code: "NOT_A_CALL",
        message: `a parameter name is not closed by ${JSON.stringify(u.keyClose)}`,
      };
    const key = text.slice(k.end, kc.start);
    if (key.trim() !== key || !kc.exact) ws();
    i = kc.end;
    expectTrail(m.keyClose.trail);
    let type: string | undefined;
    if (u.valueType !== undefined) {
      // Kimi K3's `type="T"` before the value
      const tc = find(text, i, m.typeClose);
      if (!tc)
        return {
          ok: false,
          code: "NOT_A_CALL",
          message: `a parameter's type is not closed by ${JSON.stringify(u.valueType.close)}`,
        };
      type = text.slice(i, tc.start);
      if (type.trim() !== type || !tc.exact) ws();
      type = type.trim();
      i = tc.end;
      expectTrail(m.typeClose.trail);
    }
    const at = i;
    const end = valueEnd(text, i, m, placedFrom, isNewKey);
    const vc = end.kind === "closed" ? end.close : null;
    let value: string;
    if (end.kind === "before-key") {
      // the value's closing marker was left out before the next parameter
      value = text.slice(i, end.at).replace(/\s+$/, "");
      i = end.at;
      repairs.push({ code: "UNCLOSED_PARAMETER", at });
    } else if (!vc) {
      // the value runs to the call's closing marker, or to the end
      const cc = find(text, i, m.callClose);
      value = text.slice(i, cc ? cc.start : text.length).replace(/\s+$/, "");
      i = cc ? cc.start : text.length;
      repairs.push({ code: "UNCLOSED_PARAMETER", at });
    } else {
      value = text.slice(i, vc.start);
      if (value.endsWith(m.valueClose.lead)) value = value.slice(0, value.length - m.valueClose.lead.length);
      else ws();
      if (!vc.exact) ws();
      i = vc.end;
      expectTrail(m.valueClose.trail);
    }
    seen.add(key.trim());
    params.push(type === undefined ? { key: key.trim(), value, at } : { key: key.trim(), value, at, type });
  }
  if (
    params.length === 0 &&
    u.emptyArguments !== undefined &&
    u.emptyArguments !== "" &&
    text.startsWith(u.emptyArguments, i)
  )
    i += u.emptyArguments.length;
  if (m.callClose.core !== "") {
    skipWs(m.callClose.lead);
    const c = find(text, i, m.callClose);
    if (!c || c.start !== i) {
      if (text.slice(i).trim() !== "")
        return {
          ok: false,
          code: "NOT_A_CALL",
          message: `unexpected text ${JSON.stringify(text.slice(i, i + 40))} in the call`,
        };
      repairs.push({ code: "MISSING_CALL_CLOSE", at: i });
    } else {
      if (!c.exact) ws();
      i = c.end;
    }
  }
  if (text.slice(i) !== m.callClose.trail + d.beforeClose) {
    if (text.slice(i).trim() !== "")
      return {
        ok: false,
        code: "NOT_A_CALL",
        message: `unexpected text ${JSON.stringify(text.slice(i, i + 40))} after the call`,
      };
    ws();
  }
  const r: Scanned =
    index === undefined ? { ok: true, name, params, repairs } : { ok: true, name, index, params, repairs };
  if (recipient !== undefined) r.recipient = recipient;
  return r;
}

type Found = { start: number; end: number; exact: boolean };

/**
 * Where the value starting at `from` ends. Its closing marker is the first one the structure goes on after (the next
 * parameter, the call's close, or the end; `placedFrom`): a value may hold the marker itself (a coding model writing a
 * parser or a template), and the marker then counts as text as long as the rest still reads one way. A parameter
 * opening on its own line before the first marker, whose name is a new key (`isNewKey`), ends the value there instead
 * when that marker is where the structure goes on: the value's closing marker was left out. No marker: unclosed.
 */
function valueEnd(
  text: string,
  from: number,
  m: Record<MarkerName, Marker>,
  placedFrom: (from: number) => Found | null,
  isNewKey: (key: string) => boolean,
): { kind: "closed"; close: Found } | { kind: "before-key"; at: number } | { kind: "unclosed" } {
  const first = find(text, from, m.valueClose);
  if (first === null) return { kind: "unclosed" };
  const placed = placedFrom(from);
  if (placed !== null && placed.start === first.start) {
    for (let p = from; ; ) {
      const k = find(text, p, m.keyOpen);
      if (k === null || k.start >= first.start) break;
      const kc = find(text, k.end, m.keyClose);
      const lineStart = k.start > from && /(^|\n)[ \t]*$/.test(text.slice(from, k.start));
      if (lineStart && kc !== null && kc.start < first.start && isNewKey(text.slice(k.end, kc.start).trim()))
        return { kind: "before-key", at: k.start };
      p = k.end;
    }
  }
  return { kind: "closed", close: placed ?? first };
}

/**
 * The first value-closing marker at or after a position that the structure goes on after (structureFollows), or
 * null. Values are read left to right, so one search serves every later value that starts before the marker found:
 * the scan stays linear however many markers the values hold.
 */
function placedCloses(text: string, m: Record<MarkerName, Marker>): (from: number) => Found | null {
  let cached: Found | null | undefined;
  return (from) => {
    if (cached === null || (cached !== undefined && cached.start >= from)) return cached;
    cached = null;
    for (let p = from; ; ) {
      const c = find(text, p, m.valueClose);
      if (c === null || c.end <= p) break;
      if (structureFollows(text, c.end, m)) {
        cached = c;
        break;
      }
      p = c.end;
    }
    return cached;
  };
}

/** After a value's closing marker ending at `at`: the next parameter, the call's close, or the end (spaces aside). */
function structureFollows(text: string, at: number, m: Record<MarkerName, Marker>): boolean {
  let j = at;
  while (j < text.length && /\s/.test(text[j])) j++;
  if (j === text.length) return true;
  // matched where it stands, never searched for further on (a search per marker would make the scan quadratic)
  return [m.keyOpen, m.callClose].some((x) => {
    if (x.core === "") return false;
    x.here.lastIndex = j;
    return x.here.test(text);
  });
}

function dedupe(repairs: Repair[]): Repair[] {
  const seen = new Set<string>();
  return repairs.filter((r) => (seen.has(r.code) ? false : (seen.add(r.code), true)));
}
