import { canonicalJson, isJsonObject } from "../../json.js";
import type { FormatDescription, NameThenJsonUnit } from "../../formats/FormatDescription.js";
import { parseLenientJson, type Repair } from "../lenientJson.js";
import { isCompactJson } from "./isCompactJson.js";
import type { UnitCall, UnitCodec, UnitResult } from "./UnitCodec.js";

/** `NAME[ARGS]{…}` (NameThenJsonUnit): the tool's name, a marker, then the arguments as JSON. */
export const nameThenJsonUnit: UnitCodec = {
  render(call: UnitCall, d: FormatDescription): string {
    const u = unitOf(d);
    if (!u.namePattern.test(call.name)) throw new TypeError(`the tool name ${JSON.stringify(call.name)} does not match ${u.namePattern}`);
    return call.name + u.argumentsMarker + canonicalJson(call.arguments);
  },

  read(text: string, d: FormatDescription): UnitResult {
    const u = unitOf(d);
    const k = text.indexOf(u.argumentsMarker);
    if (k < 0) return { ok: false, code: "INVALID_JSON", message: `no ${JSON.stringify(u.argumentsMarker)} after the tool name` };
    const repairs: Repair[] = [];
    const name = text.slice(0, k).trim();
    if (name !== text.slice(0, k)) repairs.push({ code: "WHITESPACE_AROUND_TAGS", at: 0 });
    if (name === "") return { ok: false, code: "MISSING_NAME", message: "the call has no tool name" };
    const from = k + u.argumentsMarker.length;
    const r = parseLenientJson(text, from);
    if (!r.ok) return { ok: false, code: r.code, message: r.message, at: r.at };
    repairs.push(...r.repairs);
    if (text.slice(r.end).trim() !== "") repairs.push({ code: "TRAILING_TEXT_IN_BLOCK", at: r.end });
    else if ((text.slice(r.end) !== "" || /^\s/.test(text.slice(from))) && repairs.length === 0) repairs.push({ code: "WHITESPACE_AROUND_TAGS", at: from });
    if (!isJsonObject(r.value)) return { ok: false, code: "ARGUMENTS_NOT_OBJECT", message: "the arguments are not a JSON object" };
    return { ok: true, call: { name, arguments: r.value }, repairs };
  },

  namePrefix(d: FormatDescription) {
    // what the scanner lets through as a name: tolerant reading judges it (strict mode checks namePattern)
    return { marker: unitOf(d).argumentsMarker, nameCharacter: /[^\s{}[\]()<>"']/ };
  },

  isCanonical(text: string, call: UnitCall, d: FormatDescription): boolean {
    const u = unitOf(d);
    const head = call.name + u.argumentsMarker;
    if (!u.namePattern.test(call.name) || !text.startsWith(head)) return false;
    const args = text.slice(head.length);
    return args.startsWith("{") && isCompactJson(args);
  },
};

function unitOf(d: FormatDescription): NameThenJsonUnit {
  if (d.unit.kind !== "name-then-json") throw new Error(`internal: ${d.name} has no name-then-JSON units`);
  return d.unit;
}
