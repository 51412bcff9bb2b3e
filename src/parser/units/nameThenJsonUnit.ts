import { canonicalJson, isJsonObject } from "../../json.js";
import { callIdForm, callIdPattern } from "../../formats/callIdForm.js";
import type { FormatDescription, NameThenJsonUnit } from "../../formats/FormatDescription.js";
import { parseLenientJson, type Repair } from "../lenientJson.js";
import { isCompactJson } from "./isCompactJson.js";
import type { UnitCall, UnitCodec, UnitResult } from "./UnitCodec.js";

/**
 * `NAME[ARGS]{…}` (NameThenJsonUnit): the tool's name, a marker, then the arguments as JSON; with an id marker,
 * `NAME[CALL_ID]ID[ARGS]{…}` when the call has an id.
 */
export const nameThenJsonUnit: UnitCodec = {
  render(call: UnitCall, d: FormatDescription): string {
    const u = unitOf(d);
    if (!u.namePattern.test(call.name))
      throw new TypeError(`the tool name ${JSON.stringify(call.name)} does not match ${u.namePattern}`);
    return headText(call, u) + u.argumentsMarker + canonicalJson(call.arguments);
  },

  read(text: string, d: FormatDescription): UnitResult {
    const u = unitOf(d);
    const repairs: Repair[] = [];
    let k = text.indexOf(u.argumentsMarker);
    let marker = u.argumentsMarker.length;
    if (k < 0) {
      // `NAME{…}`: the arguments right after the name (Mistral's other spelling), without the marker
      const brace = text.indexOf("{");
      if (brace < 0 || !/^\s*[^\s{}[\]()<>"']+\s*$/.test(text.slice(0, brace)))
        return {
          ok: false,
          code: "INVALID_JSON",
          message: `no ${JSON.stringify(u.argumentsMarker)} after the tool name`,
        };
      repairs.push({ code: "NAME_SEPARATOR", at: brace });
      k = brace;
      marker = 0;
    }
    let head = text.slice(0, k);
    let id: string | undefined;
    const m = u.idMarker === undefined ? -1 : head.indexOf(u.idMarker);
    if (u.idFirst === true) {
      // `ID + idMarker + NAME`: without the marker, the head is read as the name
      if (m >= 0) {
        id = head.slice(0, m).trim();
        head = head.slice(m + (u.idMarker as string).length);
        if (text.slice(0, k) !== id + u.idMarker + head) repairs.push({ code: "WHITESPACE_AROUND_TAGS", at: 0 });
      } else repairs.push({ code: "NAME_SEPARATOR", at: 0 });
    } else if (m >= 0) {
      id = head.slice(m + (u.idMarker as string).length).trim();
      head = head.slice(0, m);
      if (text.slice(0, k) !== head + u.idMarker + id) repairs.push({ code: "WHITESPACE_AROUND_TAGS", at: 0 });
    }
    const name = head.trim();
    if (name !== head) repairs.push({ code: "WHITESPACE_AROUND_TAGS", at: 0 });
    if (name === "") return { ok: false, code: "MISSING_NAME", message: "the call has no tool name" };
    const from = k + marker;
    const r = parseLenientJson(text, from);
    if (!r.ok) return { ok: false, code: r.code, message: r.message, at: r.at };
    repairs.push(...r.repairs);
    if (text.slice(r.end).trim() !== "") repairs.push({ code: "TRAILING_TEXT_IN_BLOCK", at: r.end });
    else if ((text.slice(r.end) !== "" || /^\s/.test(text.slice(from))) && repairs.length === 0)
      repairs.push({ code: "WHITESPACE_AROUND_TAGS", at: from });
    if (!isJsonObject(r.value))
      return { ok: false, code: "ARGUMENTS_NOT_OBJECT", message: "the arguments are not a JSON object" };
    const call: UnitCall = { name, arguments: r.value };
    if (id !== undefined && id !== "") call.id = id;
    return { ok: true, call, repairs };
  },

  namePrefix(d: FormatDescription) {
    // what the scanner lets through as a name: tolerant reading judges it (strict mode checks namePattern)
    const u = unitOf(d);
    return {
      marker: u.argumentsMarker,
      nameCharacter: /[^\s{}[\]()<>"']/,
      ...(u.idMarker !== undefined ? { idMarker: u.idMarker } : {}),
      ...(u.idFirst === true ? { idFirst: true } : {}),
    };
  },

  isCanonical(text: string, call: UnitCall, d: FormatDescription): boolean {
    const u = unitOf(d);
    if (call.id !== undefined && (u.idMarker === undefined || !callIdPattern(callIdForm(u.idForm)).test(call.id)))
      return false;
    const before = headText(call, u) + u.argumentsMarker;
    if (!u.namePattern.test(call.name) || !text.startsWith(before)) return false;
    const args = text.slice(before.length);
    return args.startsWith("{") && isCompactJson(args);
  },
};

/**
 * `[CALL_ID]ID` when the format carries ids and the call has one, else "". Any id the reader reads back is written
 * (as JSON units write any id); strict parsing and grammars hold ids to the unit's `idForm`.
 */
function idPart(call: UnitCall, u: NameThenJsonUnit): string {
  if (u.idMarker === undefined || call.id === undefined) return "";
  // before the name marker (idFirst), an id cannot hold a marker's `<` either
  const writable = u.idFirst === true ? /^[^\s[\]{}<>]+$/ : /^[^\s[\]{}]+$/;
  if (!writable.test(call.id))
    throw new TypeError(
      `the call id ${JSON.stringify(call.id)} cannot be written beside ${u.idMarker} (empty, whitespace, brackets${u.idFirst === true ? " or a marker" : ""})`,
    );
  return u.idMarker + call.id;
}

/** What comes before the arguments' marker: `NAME[CALL_ID]ID`, or with `idFirst` `ID + idMarker + NAME`. */
function headText(call: UnitCall, u: NameThenJsonUnit): string {
  if (u.idFirst !== true) return call.name + idPart(call, u);
  return idPart(call, u).slice((u.idMarker as string).length) + u.idMarker + call.name;
}

function unitOf(d: FormatDescription): NameThenJsonUnit {
  if (d.unit.kind !== "name-then-json") throw new Error(`internal: ${d.name} has no name-then-JSON units`);
  return d.unit;
}
