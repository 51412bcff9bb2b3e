import { canonicalJson, isJsonObject, type JsonObject, type JsonValue } from "../../json.js";
import type { IssueCode } from "../issueCodes.js";
import { parseLenientJson, type Repair } from "../lenientJson.js";
import { parsePythonCall, pythonLiteral, PYTHON_IDENTIFIER } from "../pythonCall.js";
import type { ParseMode } from "../types.js";
import type { FormatDescription } from "./FormatDescription.js";
import { isCompactJson, isGrammarNumber } from "./isCompactJson.js";

/** One call as a format carries it. */
export interface UnitCall {
  name: string;
  arguments: JsonObject;
  id?: string;
}

export type UnitResult =
  | { ok: true; call: UnitCall; repairs: Repair[] }
  | { ok: false; code: IssueCode; message: string; at?: number };

/**
 * The canonical text of one call unit: a block's body (between the markers) for object formats, one element
 * for array and python-list formats.
 */
export function renderCallUnit(call: UnitCall, d: FormatDescription): string {
  if (d.body === "python-list") {
    const args = Object.entries(call.arguments).map(([k, v]) => {
      if (!PYTHON_IDENTIFIER.test(k)) throw new TypeError(`argument name ${JSON.stringify(k)} is not a Python identifier`);
      return `${k}=${pythonLiteral(v)}`;
    });
    return `${call.name}(${args.join(", ")})`;
  }
  const obj: JsonObject = { [d.nameKey]: call.name };
  if (d.idKey && call.id !== undefined) obj[d.idKey] = call.id;
  let json: string;
  if (d.argumentsEncoding === "single-quoted-json") {
    // \u0027 keeps the quoted text free of the delimiter while staying valid JSON
    const argText = "'" + canonicalJson(call.arguments).replaceAll("'", "\\u0027") + "'";
    json = canonicalJson(obj).slice(0, -1) + `, ${canonicalJson(d.argumentsKey)}: ${argText}}`;
  } else {
    obj[d.argumentsKey] = call.arguments;
    json = canonicalJson(obj);
  }
  return d.body === "object" ? d.afterOpen + json + d.beforeClose : json;
}

/** Reads one call unit (see renderCallUnit). Strict mode accepts only the canonical text. Never throws. */
export function parseCallUnit(text: string, d: FormatDescription, mode: ParseMode): UnitResult {
  const r = d.body === "python-list" ? parsePythonUnit(text) : parseJsonUnit(text, d);
  if (mode === "tolerant" || !r.ok) return r;
  let canonical: string;
  try {
    canonical = renderCallUnit(r.call, d);
  } catch {
    canonical = "";
  }
  if (r.repairs.length > 0 || (canonical !== text && !canonicalModuloScalars(text, r.call, d))) {
    return { ok: false, code: "NONCANONICAL", message: `not the canonical ${d.name} rendering of the call (expected ${JSON.stringify(canonical.slice(0, 200))})` };
  }
  return r;
}

/**
 * The unit is the canonical rendering except for how the arguments' numbers are spelled (`1e2` for `100`, `1.0` for
 * `1`; strings have one spelling in both) — texts a compiled grammar accepts, since it fixes the layout, not the
 * number spelling. Glaive's quoted arguments are compared with each `\u0027` read as the apostrophe it stands for
 * (and no raw apostrophe); pythonic units token by token, numbers by value.
 */
function canonicalModuloScalars(text: string, call: UnitCall, d: FormatDescription): boolean {
  let empty: string;
  try {
    empty = renderCallUnit({ ...call, arguments: d.body === "python-list" ? call.arguments : {} }, d);
  } catch {
    return false;
  }
  if (d.body === "python-list") return samePythonModuloNumbers(text, empty);
  // the arguments come last in the call object: `…, "arguments": {}}` + beforeClose (`'{}'}` for Glaive)
  const quote = d.argumentsEncoding === "single-quoted-json" ? "'" : "";
  const suffix = quote + "}" + (d.body === "object" ? d.beforeClose : "");
  const prefix = empty.slice(0, empty.length - suffix.length - 2);
  if (text.length < prefix.length + suffix.length || !text.startsWith(prefix) || !text.endsWith(suffix)) return false;
  let args = text.slice(prefix.length, text.length - suffix.length);
  if (quote !== "") {
    if (args.includes("'")) return false;
    // escape pairs are consumed left to right, so `\\u0027` (an escaped backslash, then text) stays as it is
    args = args.replace(/\\(u0027|[^])/g, (m, e: string) => (e === "u0027" ? "'" : m));
  }
  return args.startsWith("{") && isCompactJson(args);
}

/** Strings, numbers (JSON spellings), names, and single other characters. */
const PY_TOKEN = /"(?:[^"\\]|\\[^])*"|-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?|[A-Za-z_][A-Za-z0-9_.\-]*|[^]/gy;

/** `text` is `canonical` with numbers spelled differently (same value, a spelling grammars emit). */
function samePythonModuloNumbers(text: string, canonical: string): boolean {
  const a = text.match(PY_TOKEN) ?? [];
  const b = canonical.match(PY_TOKEN) ?? [];
  if (a.join("") !== text || a.length !== b.length) return false;
  return a.every((t, i) => {
    if (t === b[i]) return true;
    const isNumber = (s: string): boolean => /^[-0-9]/.test(s);
    return isNumber(t) && isNumber(b[i]) && isGrammarNumber(t) && Object.is(Number(t), Number(b[i]));
  });
}

function parsePythonUnit(text: string): UnitResult {
  const p = parsePythonCall(text);
  if (!p.ok) return p;
  for (const v of Object.values(p.arguments)) {
    if (!isFiniteJson(v)) return { ok: false, code: "INVALID_JSON", message: "a number is out of range" };
  }
  return { ok: true, call: { name: p.name, arguments: p.arguments }, repairs: p.repairs };
}

function isFiniteJson(v: JsonValue): boolean {
  if (typeof v === "number") return Number.isFinite(v);
  if (Array.isArray(v)) return v.every(isFiniteJson);
  if (isJsonObject(v)) return Object.values(v).every(isFiniteJson);
  return true;
}

/** Glaive's arguments are a single-quoted JSON text written raw (no escape processing), as in its dataset. */
const GLAIVE_CALL = /^(\s*)\{\s*"name"\s*:\s*("(?:[^"\\]|\\.)*")\s*,\s*"arguments"\s*:\s*'([^]*)'\s*\}(\s*)$/;

const CODE_FENCE = /^\s*```[A-Za-z]*[ \t]*\n?([^]*?)\n?[ \t]*```\s*$/;

function parseJsonUnit(text: string, d: FormatDescription): UnitResult {
  const repairs: Repair[] = [];
  const glaive = d.argumentsEncoding === "single-quoted-json" ? GLAIVE_CALL.exec(text) : null;
  if (glaive) {
    const args = parseLenientJson(glaive[3]);
    if (!args.ok || glaive[3].slice(args.end).trim() !== "") {
      return { ok: false, code: args.ok ? "INVALID_JSON" : args.code, message: args.ok ? "text after the arguments JSON" : args.message };
    }
    for (const r of args.repairs) repairs.push({ code: r.code, at: -1 });
    let name: unknown;
    try {
      name = JSON.parse(glaive[2]);
    } catch {
      return { ok: false, code: "INVALID_JSON", message: "the name is not a JSON string" };
    }
    if (!isJsonObject(args.value)) return { ok: false, code: "ARGUMENTS_NOT_OBJECT", message: "the arguments are not a JSON object" };
    checkLayout(text, glaive[1].length, text.length - glaive[4].length, d, repairs);
    return { ok: true, call: { name: String(name), arguments: args.value }, repairs };
  }
  const fence = CODE_FENCE.exec(text);
  if (fence) {
    // a Markdown code fence around the JSON: read what is inside
    const inner = parseJsonUnit(d.afterOpen + fence[1] + d.beforeClose, d);
    if (inner.ok) inner.repairs.unshift({ code: "CODE_FENCE", at: 0 });
    return inner;
  }
  const r = parseLenientJson(text);
  if (!r.ok) return { ok: false, code: r.code, message: r.message, at: r.at };
  repairs.push(...r.repairs);
  const value = r.value;
  const valueStart = text.length - text.trimStart().length;
  const valueEnd = r.end;
  const rest = text.slice(valueEnd);
  if (rest.trim() !== "") {
    repairs.push({ code: /^[\s}\]]*$/.test(rest) ? "EXTRA_CLOSING_BRACKETS" : "TRAILING_TEXT_IN_BLOCK", at: valueEnd });
  } else if (d.body === "object") {
    checkLayout(text, valueStart, valueEnd, d, repairs);
  }
  return interpretCall(value, d, repairs);
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
export function interpretCall(value: JsonValue, d: FormatDescription, repairs: Repair[]): UnitResult {
  if (!isJsonObject(value)) return { ok: false, code: "NOT_A_CALL", message: "the value is not a JSON object" };
  const name = value[d.nameKey];
  if (typeof name !== "string") return { ok: false, code: "MISSING_NAME", message: `the call has no string "${d.nameKey}"` };
  const keys = Object.keys(value);
  const has = (k: string) => Object.hasOwn(value, k);
  let argKey: string | undefined = has(d.argumentsKey) ? d.argumentsKey : undefined;
  if (argKey === undefined) {
    argKey = d.argumentsAliases.find(has);
    if (argKey !== undefined) repairs.push({ code: "ARGUMENTS_KEY_ALIAS", at: -1 });
  }
  const known = new Set<string>([d.nameKey, d.argumentsKey, ...d.argumentsAliases, ...(d.idKey ? [d.idKey] : ["id"])]);
  if (keys.some((k) => !known.has(k)) || (argKey !== undefined && argKey !== d.argumentsKey && has(d.argumentsKey))) {
    repairs.push({ code: "EXTRA_KEYS", at: -1 });
  }
  if (!d.idKey && has("id")) repairs.push({ code: "EXTRA_KEYS", at: -1 });
  let args: JsonValue = {};
  if (argKey === undefined) {
    repairs.push({ code: "MISSING_ARGUMENTS", at: -1 });
  } else {
    if (keys.indexOf(argKey) < keys.indexOf(d.nameKey)) repairs.push({ code: "ARGUMENTS_BEFORE_NAME", at: -1 });
    args = value[argKey];
    if (typeof args === "string") {
      const inner = parseLenientJson(args);
      if (!inner.ok || args.slice(inner.end).trim() !== "") {
        return { ok: false, code: "ARGUMENTS_NOT_OBJECT", message: "the arguments are a string that is not JSON" };
      }
      if (d.argumentsEncoding !== "single-quoted-json") repairs.push({ code: "ARGUMENTS_AS_STRING", at: -1 });
      repairs.push(...inner.repairs.map((x) => ({ code: x.code, at: -1 })));
      args = inner.value;
    } else if (d.argumentsEncoding === "single-quoted-json") {
      repairs.push({ code: "ARGUMENTS_NOT_STRING", at: -1 });
    }
  }
  if (!isJsonObject(args)) return { ok: false, code: "ARGUMENTS_NOT_OBJECT", message: "the arguments are not a JSON object" };
  const call: UnitCall = { name, arguments: args };
  const id = value["id"];
  if (typeof id === "string") call.id = id;
  return { ok: true, call, repairs: dedupe(repairs) };
}

function dedupe(repairs: Repair[]): Repair[] {
  const seen = new Set<string>();
  return repairs.filter((r) => (seen.has(r.code) ? false : (seen.add(r.code), true)));
}
