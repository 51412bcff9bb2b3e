import type { JsonObject, JsonValue } from "../../json.js";
import type { FormatDescription } from "../../formats/FormatDescription.js";
import { gemma4Unit, gemma4ValueText, setMember } from "../../formats/gemma4Values.js";
import type { Repair } from "../lenientJson.js";
import type { UnitCall, UnitCodec, UnitResult } from "./UnitCodec.js";

/**
 * Gemma 4's call (Gemma4CallUnit): `call:NAME{k:v,…}` in its own value syntax (src/formats/gemma4Values.ts).
 * Tolerant reading also takes whitespace between tokens (WHITESPACE_AROUND_TAGS, as llama.cpp's reader does) and
 * Python's True / False / None (PYTHON_LITERAL: the template rendered by Python's Jinja writes `None` for null).
 */
export const gemma4CallUnit: UnitCodec = {
  render(call: UnitCall, d: FormatDescription): string {
    const u = gemma4Unit(d);
    return u.namePrefix + call.name + gemma4ValueText(call.arguments, d);
  },

  read(text: string, d: FormatDescription): UnitResult {
    const r = readCall(text, d);
    if (!r.ok) return r;
    return { ok: true, call: { name: r.name, arguments: r.args }, repairs: r.repairs };
  },

  /**
   * The canonical spelling: no repair, nothing between the tokens. Keys may come in any order and numbers in any
   * JSON spelling: a compiled grammar decides those (declared properties in the template's order), as for JSON units.
   */
  isCanonical(text: string, call: UnitCall, d: FormatDescription): boolean {
    const r = readCall(text, d);
    return r.ok && r.repairs.length === 0 && r.name === call.name;
  },
};

type Read =
  | { ok: true; name: string; args: JsonObject; repairs: Repair[] }
  | { ok: false; code: "NOT_A_CALL" | "MISSING_NAME" | "INVALID_JSON"; message: string; at?: number };

function readCall(text: string, d: FormatDescription): Read {
  const u = gemma4Unit(d);
  const repairs: Repair[] = [];
  let i = 0;
  if (text.startsWith(d.afterOpen)) i = d.afterOpen.length;
  const lead = /^\s*/.exec(text.slice(i))?.[0] ?? "";
  if (lead !== "") repairs.push({ code: "WHITESPACE_AROUND_TAGS", at: i });
  i += lead.length;
  if (!text.startsWith(u.namePrefix, i))
    return {
      ok: false,
      code: "NOT_A_CALL",
      message: `the call does not start with ${JSON.stringify(u.namePrefix)}`,
      at: i,
    };
  i += u.namePrefix.length;
  const brace = text.indexOf("{", i);
  if (brace < 0)
    return {
      ok: false,
      code: "MISSING_NAME",
      message: "the call's name is not followed by its arguments ({…})",
      at: i,
    };
  const nameText = text.slice(i, brace);
  const name = nameText.trim();
  if (name === "" || /[\s<>]/.test(name))
    return {
      ok: false,
      code: "MISSING_NAME",
      message: `no function name before the arguments (${JSON.stringify(nameText.slice(0, 40))})`,
      at: i,
    };
  if (name !== nameText) repairs.push({ code: "WHITESPACE_AROUND_TAGS", at: i });
  const p = new ValueReader(text, brace, u.stringDelimiter, repairs);
  let args: JsonValue;
  try {
    args = p.value();
  } catch (e) {
    return { ok: false, code: "INVALID_JSON", message: e instanceof Error ? e.message : String(e), at: p.i };
  }
  if (typeof args !== "object" || args === null || Array.isArray(args))
    return { ok: false, code: "NOT_A_CALL", message: "the arguments are not an object", at: brace };
  let end = text.length;
  if (d.beforeClose !== "" && text.endsWith(d.beforeClose)) end -= d.beforeClose.length;
  const rest = text.slice(p.i, end);
  if (rest.trim() !== "")
    return {
      ok: false,
      code: "NOT_A_CALL",
      message: `unexpected text ${JSON.stringify(rest.slice(0, 40))} after the call`,
      at: p.i,
    };
  if (rest !== "") repairs.push({ code: "WHITESPACE_AROUND_TAGS", at: p.i });
  return { ok: true, name, args, repairs: dedupe(repairs) };
}

const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
const KEYWORDS: Record<string, JsonValue> = { true: true, false: false, null: null };
const PYTHON: Record<string, JsonValue> = { True: true, False: false, None: null };

/** A recursive-descent reader of one value; throws an Error saying what it met where a value was due. */
class ValueReader {
  constructor(
    private readonly s: string,
    public i: number,
    private readonly delim: string,
    private readonly repairs: Repair[],
  ) {}

  private ws(): void {
    const j = this.i;
    while (this.i < this.s.length && /\s/.test(this.s[this.i])) this.i++;
    if (this.i > j) this.repairs.push({ code: "WHITESPACE_AROUND_TAGS", at: j });
  }

  private fail(what: string): never {
    throw new Error(`${what} at ${this.i} (${JSON.stringify(this.s.slice(this.i, this.i + 30))})`);
  }

  value(): JsonValue {
    this.ws();
    const s = this.s;
    if (s.startsWith(this.delim, this.i)) {
      const from = this.i + this.delim.length;
      const end = s.indexOf(this.delim, from);
      if (end < 0) this.fail("a string without its closing delimiter");
      this.i = end + this.delim.length;
      return s.slice(from, end);
    }
    const c = s[this.i];
    if (c === "{") return this.object();
    if (c === "[") return this.array();
    NUMBER.lastIndex = this.i;
    const n = NUMBER.exec(s);
    if (n) {
      const v = Number(n[0]);
      if (!Number.isFinite(v)) this.fail("a number out of range");
      this.i += n[0].length;
      return v;
    }
    const word = /^[A-Za-z]+/.exec(s.slice(this.i, this.i + 8))?.[0] ?? "";
    if (Object.hasOwn(KEYWORDS, word)) {
      this.i += word.length;
      return KEYWORDS[word];
    }
    if (Object.hasOwn(PYTHON, word)) {
      this.repairs.push({ code: "PYTHON_LITERAL", at: this.i });
      this.i += word.length;
      return PYTHON[word];
    }
    return this.fail(this.i >= s.length ? "the text ends where a value is due" : "no value");
  }

  private object(): JsonObject {
    const o: JsonObject = {};
    this.i++;
    this.ws();
    if (this.s[this.i] === "}") {
      this.i++;
      return o;
    }
    for (;;) {
      this.ws();
      const colon = this.s.indexOf(":", this.i);
      if (colon < 0) this.fail("a key without its colon");
      const keyText = this.s.slice(this.i, colon);
      const key = keyText.trim();
      if (key === "" || /[<>,{}[\]]/.test(key)) this.fail("no key");
      if (key !== keyText) this.repairs.push({ code: "WHITESPACE_AROUND_TAGS", at: this.i });
      this.i = colon + 1;
      // the last member written wins, as with JSON.parse
      setMember(o, key, this.value());
      this.ws();
      const c = this.s[this.i];
      this.i++;
      if (c === "}") return o;
      if (c !== ",") {
        this.i--;
        this.fail("an object member not followed by , or }");
      }
    }
  }

  private array(): JsonValue[] {
    const a: JsonValue[] = [];
    this.i++;
    this.ws();
    if (this.s[this.i] === "]") {
      this.i++;
      return a;
    }
    for (;;) {
      a.push(this.value());
      this.ws();
      const c = this.s[this.i];
      this.i++;
      if (c === "]") return a;
      if (c !== ",") {
        this.i--;
        this.fail("an array item not followed by , or ]");
      }
    }
  }
}

function dedupe(repairs: Repair[]): Repair[] {
  const seen = new Set<string>();
  return repairs.filter((r) => (seen.has(r.code) ? false : (seen.add(r.code), true)));
}
