import moo from "moo";
import { quoteJsonString, type JsonObject, type JsonValue } from "../json.js";
import { PYTHON_NAME } from "../formats/pythonNames.js";
import { MAX_JSON_DEPTH, type Repair } from "./lenientJson.js";

const lexer = moo.compile({
  ws: { match: /\s+/, lineBreaks: true },
  string: /"(?:\\[^]|[^"\\])*"|'(?:\\[^]|[^'\\])*'/,
  number: /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/,
  name: PYTHON_NAME,
  punct: ["(", ")", "[", "]", "{", "}", ",", "=", ":"],
  bad: moo.error,
});

interface Tok {
  type: string;
  text: string;
  offset: number;
}

export type PythonCallResult =
  | { ok: true; name: string; arguments: JsonObject; repairs: Repair[] }
  | { ok: false; code: "INVALID_JSON" | "TRUNCATED" | "NESTING_TOO_DEEP"; message: string };

class Fail {
  constructor(
    readonly code: "INVALID_JSON" | "TRUNCATED" | "NESTING_TOO_DEEP",
    readonly message: string,
  ) {}
}

/** Decodes a Python string literal's body (the escapes Python and JSON share, plus \' and \x). */
function decodePythonString(lit: string, repairs: Repair[], at: number): string {
  const body = lit.slice(1, -1);
  return body.replace(/\\(u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|[^])/g, (_m, e: string) => {
    if (e.length > 1) return String.fromCharCode(parseInt(e.slice(1), 16));
    const map: Record<string, string> = {
      n: "\n",
      t: "\t",
      r: "\r",
      b: "\b",
      f: "\f",
      "\\": "\\",
      '"': '"',
      "'": "'",
      "\n": "",
    };
    if (map[e] === undefined && !repairs.some((r) => r.code === "INVALID_ESCAPE"))
      repairs.push({ code: "INVALID_ESCAPE", at });
    return map[e] ?? e;
  });
}

/**
 * Reads one Python call `name(k=v, ...)` with literal keyword arguments (strings, numbers, True/False/None, lists,
 * tuples, dicts), as Llama 3.2's pythonic tool-call format writes them. Never throws.
 */
export function parsePythonCall(text: string): PythonCallResult {
  const toks: Tok[] = [];
  lexer.reset(text);
  for (let t = lexer.next(); t; t = lexer.next()) {
    if (t.type === "bad") {
      const quoteOpen = /^["']/.test(t.text);
      return {
        ok: false,
        code: quoteOpen ? "TRUNCATED" : "INVALID_JSON",
        message: `unexpected ${JSON.stringify(t.text.slice(0, 12))}`,
      };
    }
    if (t.type !== "ws") toks.push({ type: t.type ?? "", text: t.text, offset: t.offset });
  }
  const repairs: Repair[] = [];
  let k = 0;
  const peek = () => toks[k];
  const expect = (text: string): void => {
    const t = toks[k];
    if (!t) throw new Fail("TRUNCATED", `input ends where ${JSON.stringify(text)} was expected`);
    if (t.text !== text)
      throw new Fail("INVALID_JSON", `expected ${JSON.stringify(text)}, found ${JSON.stringify(t.text)}`);
    k++;
  };
  const value = (depth: number): JsonValue => {
    if (depth > MAX_JSON_DEPTH) throw new Fail("NESTING_TOO_DEEP", `nesting deeper than ${MAX_JSON_DEPTH}`);
    const t = toks[k++];
    if (!t) throw new Fail("TRUNCATED", "input ends where a value was expected");
    if (t.type === "string") return decodePythonString(t.text, repairs, t.offset);
    if (t.type === "number") return Number(t.text);
    if (t.type === "name") {
      const lit: Record<string, JsonValue> = {
        True: true,
        False: false,
        None: null,
        true: true,
        false: false,
        null: null,
      };
      if (t.text in lit) return lit[t.text];
      throw new Fail("INVALID_JSON", `not a literal: ${t.text.slice(0, 30)}`);
    }
    if (t.text === "[" || t.text === "(") {
      const close = t.text === "[" ? "]" : ")";
      const out: JsonValue[] = [];
      while (peek()?.text !== close) {
        out.push(value(depth + 1));
        if (peek()?.text === ",") k++;
        else break;
      }
      expect(close);
      return out;
    }
    if (t.text === "{") {
      const out: JsonObject = {};
      while (peek()?.text !== "}") {
        const key = value(depth + 1);
        if (typeof key !== "string") throw new Fail("INVALID_JSON", "dict keys must be strings");
        expect(":");
        Object.defineProperty(out, key, {
          value: value(depth + 1),
          enumerable: true,
          writable: true,
          configurable: true,
        });
        if (peek()?.text === ",") k++;
        else break;
      }
      expect("}");
      return out;
    }
    throw new Fail("INVALID_JSON", `unexpected ${JSON.stringify(t.text)}`);
  };
  try {
    const head = toks[k++];
    if (head?.type !== "name") throw new Fail(head ? "INVALID_JSON" : "TRUNCATED", "expected a function name");
    expect("(");
    const args: JsonObject = {};
    while (peek()?.text !== ")") {
      const key = toks[k++];
      if (!key) throw new Fail("TRUNCATED", "input ends inside the argument list");
      if (key.type !== "name")
        throw new Fail("INVALID_JSON", `expected a keyword argument, found ${JSON.stringify(key.text)}`);
      expect("=");
      Object.defineProperty(args, key.text, { value: value(1), enumerable: true, writable: true, configurable: true });
      if (peek()?.text === ",") k++;
      else break;
    }
    expect(")");
    if (k !== toks.length) throw new Fail("INVALID_JSON", `unexpected ${JSON.stringify(toks[k].text)} after the call`);
    return { ok: true, name: head.text, arguments: args, repairs };
  } catch (e) {
    if (e instanceof Fail) return { ok: false, code: e.code, message: e.message };
    return { ok: false, code: "INVALID_JSON", message: String(e) };
  }
}

/**
 * A JSON value as a Python literal in the canonical spelling (JSON's, with True/False/None). `quote: "single"`: strings
 * between apostrophes, an apostrophe inside written `\u0027` (PythonCallUnit.quote); `jsonKeywords`: true / false /
 * null as JSON spells them (PythonCallUnit.literals).
 */
export function pythonLiteral(v: JsonValue, quote: "double" | "single" = "double", jsonKeywords = false): string {
  const str = (s: string): string =>
    quote === "double" ? quoteJsonString(s) : `'${quoteJsonString(s).slice(1, -1).replaceAll("'", "\\u0027")}'`;
  const lit = (x: JsonValue): string => {
    if (x === null) return jsonKeywords ? "null" : "None";
    if (x === true) return jsonKeywords ? "true" : "True";
    if (x === false) return jsonKeywords ? "false" : "False";
    if (typeof x === "string") return str(x);
    if (typeof x === "number") return Object.is(x, -0) ? "-0" : String(x);
    if (Array.isArray(x)) return `[${x.map(lit).join(", ")}]`;
    return (
      "{" +
      Object.entries(x)
        .map(([k, y]) => `${str(k)}: ${lit(y)}`)
        .join(", ") +
      "}"
    );
  };
  return lit(v);
}
