import { isJsonObject, type JsonValue } from "../../json.js";
import type { FormatDescription } from "../../formats/FormatDescription.js";
import { PYTHON_IDENTIFIER } from "../../formats/pythonNames.js";
import { parsePythonCall, pythonLiteral } from "../pythonCall.js";
import { isGrammarNumber } from "./isCompactJson.js";
import type { UnitCall, UnitCodec, UnitResult } from "./UnitCodec.js";

/** `name(k=v, ...)` with Python literal values (PythonCallUnit). */
export const pythonCallUnit: UnitCodec = {
  render: renderPythonCall,

  read(text: string): UnitResult {
    const p = parsePythonCall(text);
    if (!p.ok) return p;
    for (const v of Object.values(p.arguments)) {
      if (!isFiniteJson(v)) return { ok: false, code: "INVALID_JSON", message: "a number is out of range" };
    }
    return { ok: true, call: { name: p.name, arguments: p.arguments }, repairs: p.repairs };
  },

  /** Token by token, numbers by value in a spelling grammars emit. */
  isCanonical(text: string, call: UnitCall, d: FormatDescription): boolean {
    let canonical: string;
    try {
      canonical = renderPythonCall(call, d);
    } catch {
      return false;
    }
    const a = text.match(PY_TOKEN) ?? [];
    const b = canonical.match(PY_TOKEN) ?? [];
    if (a.join("") !== text || a.length !== b.length) return false;
    return a.every((t, i) => {
      if (t === b[i]) return true;
      const isNumber = (s: string): boolean => /^[-0-9]/.test(s);
      return isNumber(t) && isNumber(b[i]) && isGrammarNumber(t) && Object.is(Number(t), Number(b[i]));
    });
  },
};

function renderPythonCall(call: UnitCall, d: FormatDescription): string {
  const quote = d.unit.kind === "python-call" ? (d.unit.quote ?? "double") : "double";
  const args = Object.entries(call.arguments).map(([k, v]) => {
    if (!PYTHON_IDENTIFIER.test(k)) throw new TypeError(`argument name ${JSON.stringify(k)} is not a Python identifier`);
    return `${k}=${pythonLiteral(v, quote)}`;
  });
  return `${call.name}(${args.join(", ")})`;
}

/** Strings, numbers (JSON spellings), names, and single other characters. */
const PY_TOKEN = /"(?:[^"\\]|\\[^])*"|'(?:[^'\\]|\\[^])*'|-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?|[A-Za-z_][A-Za-z0-9_.\-]*|[^]/gy;

function isFiniteJson(v: JsonValue): boolean {
  if (typeof v === "number") return Number.isFinite(v);
  if (Array.isArray(v)) return v.every(isFiniteJson);
  if (isJsonObject(v)) return Object.values(v).every(isFiniteJson);
  return true;
}
