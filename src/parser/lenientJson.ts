import type { JsonObject, JsonValue } from "../json.js";
import type { IssueCode } from "./issueCodes.js";

/** A repair made while reading, at an offset of the input. */
export interface Repair {
  code: IssueCode;
  at: number;
}

export type LenientJsonResult =
  | { ok: true; value: JsonValue; end: number; repairs: Repair[] }
  | { ok: false; code: "INVALID_JSON" | "TRUNCATED" | "NESTING_TOO_DEEP"; at: number; message: string };

/** Deeper nesting than this is refused (as data), so adversarial `[[[[…` cannot overflow the stack. */
export const MAX_JSON_DEPTH = 512;

/** String delimiters tolerated: ASCII double (JSON), ASCII single, and typographic pairs. */
const CLOSING_QUOTE: Record<string, string> = { '"': '"', "'": "'", "\u201c": "\u201d", "\u2018": "\u2019" };
const ESCAPES: Record<string, string> = { '"': '"', "\\": "\\", "/": "/", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" };
const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;

class Fail {
  constructor(
    readonly code: "INVALID_JSON" | "TRUNCATED" | "NESTING_TOO_DEEP",
    readonly at: number,
    readonly message: string,
  ) {}
}

/**
 * Reads one JSON value from `s[start, end)`, tolerating the drifts models make (trailing commas, single and
 * typographic quotes, raw control characters in strings, unknown escapes, Python's True/False/None). Each tolerance
 * used is returned as a repair. Leading whitespace is skipped; `end` of the result is just after the value.
 * Never throws.
 */
export function parseLenientJson(s: string, start = 0, end = s.length): LenientJsonResult {
  if (start === 0 && end === s.length) {
    // most model output is plain JSON: the native parser reads it several times faster
    const fast = parsePlainJson(s);
    if (fast !== undefined) return { ok: true, value: fast, end: s.trimEnd().length, repairs: [] };
  }
  const repairs: Repair[] = [];
  let i = start;
  const repair = (code: IssueCode, at: number) => {
    if (!repairs.some((r) => r.code === code)) repairs.push({ code, at });
  };
  const skipWs = () => {
    while (i < end) {
      const c = s.charCodeAt(i);
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) i++;
      else break;
    }
  };
  const need = (what: string): never => {
    if (i >= end) throw new Fail("TRUNCATED", i, `input ends where ${what} was expected`);
    throw new Fail("INVALID_JSON", i, `expected ${what} at offset ${i}, found ${JSON.stringify(s.slice(i, i + 12))}`);
  };

  const readString = (): string => {
    const open = s[i];
    const close = CLOSING_QUOTE[open];
    if (open === "'") repair("SINGLE_QUOTES", i);
    else if (open !== '"') repair("SMART_QUOTES", i);
    i++;
    let out = "";
    let runStart = i;
    while (i < end) {
      const ch = s[i];
      if (ch === close) {
        out += s.slice(runStart, i);
        i++;
        return out;
      }
      if (ch === "\\") {
        out += s.slice(runStart, i);
        if (i + 1 >= end) break;
        const e = s[i + 1];
        if (e === "u") {
          const hex = s.slice(i + 2, i + 6);
          if (/^[0-9a-fA-F]{4}$/.test(hex)) {
            out += String.fromCharCode(parseInt(hex, 16));
            i += 6;
          } else if (i + 6 > end) {
            break;
          } else {
            repair("INVALID_ESCAPE", i);
            out += "u";
            i += 2;
          }
        } else {
          const rep = ESCAPES[e];
          if (rep === undefined) repair("INVALID_ESCAPE", i);
          out += rep ?? e;
          i += 2;
        }
        runStart = i;
        continue;
      }
      if (ch.charCodeAt(0) < 0x20) repair("UNESCAPED_CONTROL", i);
      i++;
    }
    throw new Fail("TRUNCATED", end, "input ends inside a string");
  };

  const readValue = (depth: number): JsonValue => {
    if (depth > MAX_JSON_DEPTH) throw new Fail("NESTING_TOO_DEEP", i, `JSON nests deeper than ${MAX_JSON_DEPTH}`);
    skipWs();
    if (i >= end) need("a value");
    const ch = s[i];
    if (ch === "{") {
      i++;
      const obj: JsonObject = {};
      skipWs();
      if (s[i] === "}") {
        i++;
        return obj;
      }
      for (;;) {
        skipWs();
        if (i >= end) need("a key");
        if (!(s[i] in CLOSING_QUOTE)) need("a quoted key");
        const key = readString();
        skipWs();
        if (s[i] !== ":") need('":"');
        i++;
        const v = readValue(depth + 1);
        // defineProperty keeps "__proto__" an ordinary key
        Object.defineProperty(obj, key, { value: v, enumerable: true, writable: true, configurable: true });
        skipWs();
        if (s[i] === ",") {
          const comma = i;
          i++;
          skipWs();
          if (s[i] === "}") {
            repair("TRAILING_COMMA", comma);
            i++;
            return obj;
          }
          continue;
        }
        if (s[i] === "}") {
          i++;
          return obj;
        }
        need('"," or "}"');
      }
    }
    if (ch === "[") {
      i++;
      const arr: JsonValue[] = [];
      skipWs();
      if (s[i] === "]") {
        i++;
        return arr;
      }
      for (;;) {
        arr.push(readValue(depth + 1));
        skipWs();
        if (s[i] === ",") {
          const comma = i;
          i++;
          skipWs();
          if (s[i] === "]") {
            repair("TRAILING_COMMA", comma);
            i++;
            return arr;
          }
          continue;
        }
        if (s[i] === "]") {
          i++;
          return arr;
        }
        need('"," or "]"');
      }
    }
    if (ch in CLOSING_QUOTE) return readString();
    for (const [word, value, python] of LITERALS) {
      if (s.startsWith(word, i) && i + word.length <= end) {
        if (python) repair("PYTHON_LITERAL", i);
        i += word.length;
        return value;
      }
    }
    NUMBER.lastIndex = i;
    const m = NUMBER.exec(s);
    if (m && m[0].length > 0 && i + m[0].length <= end) {
      const n = Number(m[0]);
      // a number cut by the end of input may be a prefix of a longer one
      i += m[0].length;
      if (Number.isFinite(n)) return n;
      throw new Fail("INVALID_JSON", i, `number out of range: ${m[0].slice(0, 20)}`);
    }
    if (end - i < 6 && isPrefixOfLiteral(s.slice(i, end)))
      throw new Fail("TRUNCATED", end, "input ends inside a literal");
    return need("a value");
  };

  try {
    const value = readValue(0);
    return { ok: true, value, end: i, repairs };
  } catch (e) {
    if (e instanceof Fail) return { ok: false, code: e.code, at: e.at, message: e.message };
    return { ok: false, code: "INVALID_JSON", at: i, message: String(e) };
  }
}

const LITERALS: ReadonlyArray<readonly [string, JsonValue, boolean]> = [
  ["true", true, false],
  ["false", false, false],
  ["null", null, false],
  ["True", true, true],
  ["False", false, true],
  ["None", null, true],
];

function isPrefixOfLiteral(rest: string): boolean {
  return LITERALS.some(([w]) => w.startsWith(rest)) || rest === "-";
}

/**
 * `JSON.parse` of the whole text when it is standard JSON that the lenient reader would read the same way (finite
 * numbers, nesting within the cap); undefined otherwise, and the lenient reader decides.
 */
function parsePlainJson(s: string): JsonValue | undefined {
  // only bracketed values are worth a try: a failing JSON.parse costs far more than a successful one
  const t = s.trim();
  const first = t[0];
  const last = t[t.length - 1];
  if (!((first === "{" && last === "}") || (first === "[" && last === "]"))) return undefined;
  let v: JsonValue;
  // the SyntaxError's stack trace is most of that cost; no code runs between here and the restore
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    v = JSON.parse(t) as JsonValue;
  } catch {
    return undefined;
  } finally {
    Error.stackTraceLimit = limit;
  }
  return plainEnough(v, 0) ? v : undefined;
}

function plainEnough(v: JsonValue, depth: number): boolean {
  if (typeof v === "number") return Number.isFinite(v);
  if (v === null || typeof v !== "object") return true;
  if (depth >= MAX_JSON_DEPTH) return false;
  if (Array.isArray(v)) {
    for (const x of v) if (!plainEnough(x, depth + 1)) return false;
    return true;
  }
  for (const k in v) if (!plainEnough(v[k], depth + 1)) return false;
  return true;
}
