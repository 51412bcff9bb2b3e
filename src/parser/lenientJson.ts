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

/** The cursor of a lenient read of `s` up to `end`, and the repairs made so far. */
class LenientReader {
  readonly repairs: Repair[] = [];
  i: number;

  constructor(
    readonly s: string,
    start: number,
    readonly end: number,
  ) {
    this.i = start;
  }

  repair(code: IssueCode, at: number): void {
    if (!this.repairs.some((r) => r.code === code)) this.repairs.push({ code, at });
  }

  skipWs(): void {
    while (this.i < this.end) {
      const c = this.s.charCodeAt(this.i);
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) this.i++;
      else break;
    }
  }

  need(what: string): never {
    if (this.i >= this.end) throw new Fail("TRUNCATED", this.i, `input ends where ${what} was expected`);
    throw new Fail(
      "INVALID_JSON",
      this.i,
      `expected ${what} at offset ${this.i}, found ${JSON.stringify(this.s.slice(this.i, this.i + 12))}`,
    );
  }

  readString(): string {
    const open = this.s[this.i];
    const close = CLOSING_QUOTE[open];
    if (open === "'") this.repair("SINGLE_QUOTES", this.i);
    else if (open !== '"') this.repair("SMART_QUOTES", this.i);
    this.i++;
    let out = "";
    let runStart = this.i;
    while (this.i < this.end) {
      const ch = this.s[this.i];
      if (ch === close) {
        out += this.s.slice(runStart, this.i);
        this.i++;
        return out;
      }
      if (ch === "\\") {
        out += this.s.slice(runStart, this.i);
        if (this.i + 1 >= this.end) break;
        const e = this.s[this.i + 1];
        if (e === "u") {
          const hex = this.s.slice(this.i + 2, this.i + 6);
          if (/^[0-9a-fA-F]{4}$/.test(hex)) {
            out += String.fromCharCode(parseInt(hex, 16));
            this.i += 6;
          } else if (this.i + 6 > this.end) {
            break;
          } else {
            this.repair("INVALID_ESCAPE", this.i);
            out += "u";
            this.i += 2;
          }
        } else {
          const rep = ESCAPES[e];
          if (rep === undefined) this.repair("INVALID_ESCAPE", this.i);
          out += rep ?? e;
          this.i += 2;
        }
        runStart = this.i;
        continue;
      }
      if (ch.charCodeAt(0) < 0x20) this.repair("UNESCAPED_CONTROL", this.i);
      this.i++;
    }
    throw new Fail("TRUNCATED", this.end, "input ends inside a string");
  }

  readValue(depth: number): JsonValue {
    if (depth > MAX_JSON_DEPTH) throw new Fail("NESTING_TOO_DEEP", this.i, `JSON nests deeper than ${MAX_JSON_DEPTH}`);
    this.skipWs();
    if (this.i >= this.end) this.need("a value");
    const ch = this.s[this.i];
    if (ch === "{") {
      this.i++;
      const obj: JsonObject = {};
      this.skipWs();
      if (this.s[this.i] === "}") {
        this.i++;
        return obj;
      }
      for (;;) {
        this.skipWs();
        if (this.i >= this.end) this.need("a key");
        if (!(this.s[this.i] in CLOSING_QUOTE)) this.need("a quoted key");
        const key = this.readString();
        this.skipWs();
        if (this.s[this.i] !== ":") this.need('":"');
        this.i++;
        const v = this.readValue(depth + 1);
        // defineProperty keeps "__proto__" an ordinary key
        Object.defineProperty(obj, key, { value: v, enumerable: true, writable: true, configurable: true });
        this.skipWs();
        if (this.s[this.i] === ",") {
          const comma = this.i;
          this.i++;
          this.skipWs();
          if (this.s[this.i] === "}") {
            this.repair("TRAILING_COMMA", comma);
            this.i++;
            return obj;
          }
          continue;
        }
        if (this.s[this.i] === "}") {
          this.i++;
          return obj;
        }
        this.need('"," or "}"');
      }
    }
    if (ch === "[") {
      this.i++;
      const arr: JsonValue[] = [];
      this.skipWs();
      if (this.s[this.i] === "]") {
        this.i++;
        return arr;
      }
      for (;;) {
        arr.push(this.readValue(depth + 1));
        this.skipWs();
        if (this.s[this.i] === ",") {
          const comma = this.i;
          this.i++;
          this.skipWs();
          if (this.s[this.i] === "]") {
            this.repair("TRAILING_COMMA", comma);
            this.i++;
            return arr;
          }
          continue;
        }
        if (this.s[this.i] === "]") {
          this.i++;
          return arr;
        }
        this.need('"," or "]"');
      }
    }
    if (ch in CLOSING_QUOTE) return this.readString();
    for (const [word, value, python] of LITERALS) {
      if (this.s.startsWith(word, this.i) && this.i + word.length <= this.end) {
        if (python) this.repair("PYTHON_LITERAL", this.i);
        this.i += word.length;
        return value;
      }
    }
    NUMBER.lastIndex = this.i;
    const m = NUMBER.exec(this.s);
    if (m && m[0].length > 0 && this.i + m[0].length <= this.end) {
      const n = Number(m[0]);
      // a number cut by the this.end of input may be a prefix of a longer one
      this.i += m[0].length;
      if (Number.isFinite(n)) return n;
      throw new Fail("INVALID_JSON", this.i, `number out of range: ${m[0].slice(0, 20)}`);
    }
    if (this.end - this.i < 6 && isPrefixOfLiteral(this.s.slice(this.i, this.end)))
      throw new Fail("TRUNCATED", this.end, "input ends inside a literal");
    return this.need("a value");
  }
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
  const r = new LenientReader(s, start, end);
  try {
    const value = r.readValue(0);
    return { ok: true, value, end: r.i, repairs: r.repairs };
  } catch (e) {
    if (e instanceof Fail) return { ok: false, code: e.code, at: e.at, message: e.message };
    return { ok: false, code: "INVALID_JSON", at: r.i, message: String(e) };
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
