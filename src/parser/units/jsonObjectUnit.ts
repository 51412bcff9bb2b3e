import { canonicalJson, indentedJson, isJsonObject, type JsonObject, type JsonValue } from "../../json.js";
import type { FormatDescription, JsonObjectUnit } from "../../formats/FormatDescription.js";
import { parseLenientJson, type Repair } from "../lenientJson.js";
import { closeOpenBrackets } from "./closeOpenBrackets.js";
import { isCompactJson } from "./isCompactJson.js";
import type { UnitCall, UnitCodec, UnitResult } from "./UnitCodec.js";

/** `{"name": "f", "arguments": {…}}` with the description's keys (JsonObjectUnit). */
export const jsonObjectUnit: UnitCodec = {
  render(call: UnitCall, d: FormatDescription): string {
    const u = jsonUnit(d);
    if (u.nameKey === null) return canonicalJson({ [call.name]: call.arguments });
    const id = u.idKey !== null && call.id !== undefined ? { [u.idKey]: call.id } : {};
    const position = u.idPosition ?? "after-name";
    const head: JsonObject =
      position === "first"
        ? { ...id, [u.nameKey]: call.name }
        : position === "after-name"
          ? { [u.nameKey]: call.name, ...id }
          : { [u.nameKey]: call.name };
    const tail: JsonObject = position === "last" ? id : {};
    if (u.argumentsEncoding === "single-quoted-json") {
      // \u0027 keeps the quoted text free of the delimiter while staying valid JSON
      const argText = `'${canonicalJson(call.arguments).replaceAll("'", "\\u0027")}'`;
      return (
        canonicalJson(head).slice(0, -1) +
        `, ${canonicalJson(u.argumentsKey)}: ${argText}` +
        (Object.keys(tail).length > 0 ? `, ${canonicalJson(tail).slice(1)}` : "}")
      );
    }
    const unit = { ...head, [u.argumentsKey]: call.arguments, ...tail };
    return u.indent === undefined ? canonicalJson(unit) : indentedJson(unit, u.indent.width, u.indent.depth);
  },

  read(text: string, d: FormatDescription, whole: boolean): UnitResult {
    return readJsonUnit(text, d, whole);
  },

  /**
   * The unit is the canonical rendering except for how the arguments' numbers are spelled (`1e2` for `100`, `1.0`
   * for `1`; strings have one spelling in both) — texts a compiled grammar accepts, since it fixes the layout, not
   * the number spelling. Glaive's quoted arguments are compared with each `\u0027` read as the apostrophe it stands
   * for (and no raw apostrophe).
   */
  isCanonical(text: string, call: UnitCall, d: FormatDescription): boolean {
    const u = jsonUnit(d);
    const pad = (s: string): string => (d.grouping === "block" ? d.afterOpen + s + d.beforeClose : s);
    let empty: string;
    try {
      empty = pad(jsonObjectUnit.render({ ...call, arguments: {} }, d));
    } catch {
      return false;
    }
    // the text around the arguments: the canonical call with empty arguments, cut at its `{}` (the only `": {}`
    // outside a string: inside one, every quote is escaped)
    const quote = u.argumentsEncoding === "single-quoted-json" ? "'" : "";
    const at = empty.indexOf(`": ${quote}{}${quote}`);
    if (at < 0) return false;
    const prefix = empty.slice(0, at + 3 + quote.length);
    const suffix = empty.slice(at + 5 + quote.length);
    if (text.length < prefix.length + suffix.length || !text.startsWith(prefix) || !text.endsWith(suffix)) return false;
    let args = text.slice(prefix.length, text.length - suffix.length);
    if (quote !== "") {
      if (args.includes("'")) return false;
      // escape pairs are consumed left to right, so `\\u0027` (an escaped backslash, then text) stays as it is
      args = args.replace(/\\(u0027|[^])/g, (m, e: string) => (e === "u0027" ? "'" : m));
    }
    // an indented unit's arguments sit one depth deeper than the unit
    return (
      args.startsWith("{") &&
      isCompactJson(args, u.indent === undefined ? undefined : { width: u.indent.width, depth: u.indent.depth + 1 })
    );
  },
};

function jsonUnit(d: FormatDescription): JsonObjectUnit {
  if (d.unit.kind !== "json-object") throw new Error(`internal: ${d.name} has no JSON-object units`);
  return d.unit;
}

/** Glaive's arguments are a single-quoted JSON text written raw (no escape processing), as in its dataset. */
const GLAIVE_CALL = /^(\s*)\{\s*"name"\s*:\s*("(?:[^"\\]|\\.)*")\s*,\s*"arguments"\s*:\s*'([^]*)'\s*\}(\s*)$/;

/** A Markdown code fence around the whole unit. */
export const CODE_FENCE = /^\s*```[A-Za-z]*[ \t]*\n?([^]*?)\n?[ \t]*```\s*$/;

function readJsonUnit(text: string, d: FormatDescription, whole: boolean): UnitResult {
  const u = jsonUnit(d);
  const repairs: Repair[] = [];
  const glaive = u.argumentsEncoding === "single-quoted-json" ? GLAIVE_CALL.exec(text) : null;
  if (glaive) {
    const args = parseLenientJson(glaive[3]);
    if (!args.ok || glaive[3].slice(args.end).trim() !== "") {
      return {
        ok: false,
        code: args.ok ? "INVALID_JSON" : args.code,
        message: args.ok ? "text after the arguments JSON" : args.message,
      };
    }
    for (const r of args.repairs) repairs.push({ code: r.code, at: -1 });
    let name: unknown;
    try {
      name = JSON.parse(glaive[2]);
    } catch {
      return { ok: false, code: "INVALID_JSON", message: "the name is not a JSON string" };
    }
    if (!isJsonObject(args.value))
      return { ok: false, code: "ARGUMENTS_NOT_OBJECT", message: "the arguments are not a JSON object" };
    checkLayout(text, glaive[1].length, text.length - glaive[4].length, d, repairs);
    return { ok: true, call: { name: String(name), arguments: args.value }, repairs };
  }
  const fence = CODE_FENCE.exec(text);
  if (fence) {
    // a Markdown code fence around the JSON: read what is inside
    const padded = d.grouping === "block" ? d.afterOpen + fence[1] + d.beforeClose : fence[1];
    const inner = readJsonUnit(padded, d, whole);
    if (inner.ok) inner.repairs.unshift({ code: "CODE_FENCE", at: 0 });
    return inner;
  }
  let r = parseLenientJson(text);
  if (!r.ok && r.code === "TRUNCATED" && whole) {
    // a closed block whose JSON lacks its last closing brackets (`{"name": …, "arguments": {…}` + close marker):
    // the text is all there is, so when nothing but closing brackets is missing the reading is unambiguous
    const closers = closeOpenBrackets(text);
    if (closers !== null) {
      const trimmed = text.trimEnd();
      const fixed = parseLenientJson(trimmed + closers + text.slice(trimmed.length));
      if (fixed.ok && fixed.end <= trimmed.length + closers.length) {
        r = {
          ...fixed,
          end: text.trimEnd().length,
          repairs: [{ code: "MISSING_CLOSING_BRACKETS", at: trimmed.length }, ...fixed.repairs],
        };
      }
    }
  }
  if (!r.ok) return { ok: false, code: r.code, message: r.message, at: r.at };
  repairs.push(...r.repairs);
  const valueStart = text.length - text.trimStart().length;
  const valueEnd = Math.min(r.end, text.length);
  const rest = text.slice(valueEnd);
  if (rest.trim() !== "") {
    repairs.push({ code: /^[\s}\]]*$/.test(rest) ? "EXTRA_CLOSING_BRACKETS" : "TRAILING_TEXT_IN_BLOCK", at: valueEnd });
  } else if (d.grouping === "block" && !repairs.some((x) => x.code === "MISSING_CLOSING_BRACKETS")) {
    checkLayout(text, valueStart, valueEnd, d, repairs);
  }
  return interpretCall(r.value, u, repairs);
}

/**
 * [start, end) ranges of two or more JSON objects written one after another (whitespace or commas between), or
 * null when `text` is not that. Models sometimes put several calls in one Qwen3 block.
 */
export function splitObjects(text: string): Array<[number, number]> | null {
  const out: Array<[number, number]> = [];
  let i = 0;
  for (;;) {
    while (i < text.length && /[\s,]/.test(text[i])) i++;
    if (i >= text.length) break;
    if (text[i] !== "{") return null;
    const r = parseLenientJson(text, i);
    if (!r.ok) return null;
    out.push([i, r.end]);
    i = r.end;
  }
  return out.length >= 2 ? out : null;
}

function checkLayout(text: string, valueStart: number, valueEnd: number, d: FormatDescription, repairs: Repair[]) {
  if (text.slice(0, valueStart) !== d.afterOpen || text.slice(valueEnd) !== d.beforeClose) {
    repairs.push({ code: "WHITESPACE_AROUND_TAGS", at: 0 });
  }
}

/** Reads a parsed value as a call object, repairing key drifts. */
export function interpretCall(value: JsonValue, u: JsonObjectUnit, repairs: Repair[]): UnitResult {
  if (!isJsonObject(value)) return { ok: false, code: "NOT_A_CALL", message: "the value is not a JSON object" };
  if (u.nameKey === null) return interpretKeyedCall(value, repairs);
  const name = value[u.nameKey];
  if (typeof name !== "string")
    return { ok: false, code: "MISSING_NAME", message: `the call has no string "${u.nameKey}"` };
  const keys = Object.keys(value);
  const has = (k: string) => Object.hasOwn(value, k);
  let argKey: string | undefined = has(u.argumentsKey) ? u.argumentsKey : undefined;
  if (argKey === undefined) {
    argKey = u.argumentsAliases.find(has);
    if (argKey !== undefined) repairs.push({ code: "ARGUMENTS_KEY_ALIAS", at: -1 });
  }
  const known = new Set<string>([u.nameKey, u.argumentsKey, ...u.argumentsAliases, ...(u.idKey ? [u.idKey] : ["id"])]);
  if (keys.some((k) => !known.has(k)) || (argKey !== undefined && argKey !== u.argumentsKey && has(u.argumentsKey))) {
    repairs.push({ code: "EXTRA_KEYS", at: -1 });
  }
  if (!u.idKey && has("id")) repairs.push({ code: "EXTRA_KEYS", at: -1 });
  let args: JsonValue = {};
  if (argKey === undefined) {
    repairs.push({ code: "MISSING_ARGUMENTS", at: -1 });
  } else {
    if (keys.indexOf(argKey) < keys.indexOf(u.nameKey)) repairs.push({ code: "ARGUMENTS_BEFORE_NAME", at: -1 });
    args = value[argKey];
    if (typeof args === "string") {
      const inner = parseLenientJson(args);
      if (!inner.ok || args.slice(inner.end).trim() !== "") {
        return { ok: false, code: "ARGUMENTS_NOT_OBJECT", message: "the arguments are a string that is not JSON" };
      }
      if (u.argumentsEncoding !== "single-quoted-json") repairs.push({ code: "ARGUMENTS_AS_STRING", at: -1 });
      repairs.push(...inner.repairs.map((x) => ({ code: x.code, at: -1 })));
      args = inner.value;
    } else if (u.argumentsEncoding === "single-quoted-json") {
      repairs.push({ code: "ARGUMENTS_NOT_STRING", at: -1 });
    }
  }
  if (!isJsonObject(args))
    return { ok: false, code: "ARGUMENTS_NOT_OBJECT", message: "the arguments are not a JSON object" };
  const call: UnitCall = { name, arguments: args };
  const id = value[u.idKey ?? "id"];
  if (typeof id === "string") call.id = id;
  return { ok: true, call, repairs: dedupe(repairs) };
}

/** `{"NAME": {…}}`: one key, the tool's name, holding the arguments (JsonObjectUnit with `nameKey: null`). */
function interpretKeyedCall(value: JsonObject, repairs: Repair[]): UnitResult {
  const keys = Object.keys(value);
  if (keys.length !== 1)
    return {
      ok: false,
      code: keys.length === 0 ? "MISSING_NAME" : "NOT_A_CALL",
      message: `the call object must have one key, the tool's name (got ${keys.length})`,
    };
  let args: JsonValue = value[keys[0]];
  if (typeof args === "string") {
    const inner = parseLenientJson(args);
    if (!inner.ok || args.slice(inner.end).trim() !== "")
      return { ok: false, code: "ARGUMENTS_NOT_OBJECT", message: "the arguments are a string that is not JSON" };
    repairs.push({ code: "ARGUMENTS_AS_STRING", at: -1 }, ...inner.repairs.map((x) => ({ code: x.code, at: -1 })));
    args = inner.value;
  }
  if (!isJsonObject(args))
    return { ok: false, code: "ARGUMENTS_NOT_OBJECT", message: "the arguments are not a JSON object" };
  return { ok: true, call: { name: keys[0], arguments: args }, repairs: dedupe(repairs) };
}

function dedupe(repairs: Repair[]): Repair[] {
  const seen = new Set<string>();
  return repairs.filter((r) => (seen.has(r.code) ? false : (seen.add(r.code), true)));
}
