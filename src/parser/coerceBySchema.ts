import { isJsonObject, type JsonValue } from "../json.js";
import { parseLenientJson, type Repair } from "./lenientJson.js";
import { type JsonTypeName, typeOfValue } from "./valueKind.js";

/**
 * What is known of how a raw value (a tagged parameter's text) is typed: the type its text writes (`written`: DSML's
 * `string="true|false"`, Kimi K3's `type="…"`), how its schema spells it (`kind`: only strings, no strings, or
 * undefined for both or unknown), the JSON types the schema admits (`admitted`), and whether the tool's schema is
 * known at all (`known`).
 */
interface RawValueTyping {
  written?: "string" | "json" | undefined;
  kind?: "string" | "json" | undefined;
  admitted?: ReadonlySet<JsonTypeName> | undefined;
  known?: boolean;
}

/**
 * The one rule every raw-value format reads its values by (coerce by schema): a written type first; else the
 * parameter's schema (a string where only strings are admitted, `42` kept as "42" for `anyOf: [string, null]`,
 * `None` / `null` as null where null is admitted, a Python dict or list literal as an object or array where the
 * schema wants one, numbers and booleans where it says so); else the text (JSON when it parses to a non-string).
 * Each reading that is not the text's own JSON is recorded in `repairs` (PYTHON_LITERAL, SINGLE_QUOTES,
 * VALUE_READ_BY_SCHEMA, VALUE_TYPE_MISMATCH).
 */
export function coerceRawValue(text: string, typing: RawValueTyping, repairs: Repair[], at: number): JsonValue {
  const { written, kind, admitted } = typing;
  if (written === undefined && kind === undefined && typing.known === true)
    return readBySchema(text, admitted, repairs, at);
  const v = written !== undefined ? readTyped(text, written, kind, repairs, at) : readValue(text, kind, repairs, at);
  // a written type the schema does not admit, where it admits a string (DSML's `string="false">42` for string-or-null)
  if (typeof v !== "string" && admitted?.has("string") === true && !admitted.has(typeOfValue(v))) {
    repairs.push({ code: "VALUE_READ_BY_SCHEMA", at });
    return text;
  }
  return v;
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
