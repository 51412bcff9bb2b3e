import { isJsonObject, type JsonValue } from "../../json.js";
import type { FormatDescription } from "../../formats/FormatDescription.js";
import { callSuffixOf } from "../../formats/callSuffixOf.js";
import { PYTHON_IDENTIFIER } from "../../formats/pythonNames.js";
import { parsePythonCall, pythonLiteral } from "../pythonCall.js";
import { isGrammarNumber } from "./isCompactJson.js";
import type { UnitCall, UnitCodec, UnitResult } from "./UnitCodec.js";

/** `name(k=v, ...)` with Python literal values (PythonCallUnit). */
export const pythonCallUnit: UnitCodec = {
  render: renderPythonCall,

  read(text: string, d: FormatDescription): UnitResult {
    const p = parsePythonCall(text);
    if (!p.ok) return p;
    const suffix = callSuffixOf(d);
    // the parser reads `brave_search.call` as one dotted name: the tool's name is what comes before the suffix
    if (suffix !== "" && !(p.name.endsWith(suffix) && p.name.length > suffix.length)) {
      return {
        ok: false,
        code: "INVALID_JSON",
        message: `a call is written NAME${suffix}(…), not ${JSON.stringify(p.name.slice(0, 64))}(…)`,
      };
    }
    const name = p.name.slice(0, p.name.length - suffix.length);
    for (const v of Object.values(p.arguments)) {
      if (!isFiniteJson(v)) return { ok: false, code: "INVALID_JSON", message: "a number is out of range" };
    }
    return { ok: true, call: { name, arguments: p.arguments }, repairs: p.repairs };
  },

  /** Llama 3.1's `NAME.call(…)` as a block without a closing marker: the scanner reads the name up to the suffix. */
  namePrefix(d: FormatDescription) {
    const suffix = callSuffixOf(d);
    return suffix === "" ? undefined : { marker: suffix, nameCharacter: /[A-Za-z0-9_.-]/ };
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
  const u = d.unit.kind === "python-call" ? d.unit : undefined;
  const quote = u?.quote ?? "double";
  const args = Object.entries(call.arguments).map(([k, v]) => {
    if (!PYTHON_IDENTIFIER.test(k))
      throw new TypeError(`argument name ${JSON.stringify(k)} is not a Python identifier`);
    return `${k}=${pythonLiteral(v, quote, u?.literals === "json")}`;
  });
  return `${call.name}${callSuffixOf(d)}(${args.join(u?.argumentSeparator ?? ", ")})`;
}

/** Strings, numbers (JSON spellings), names, and single other characters. */
const PY_TOKEN =
  /"(?:[^"\\]|\\[^])*"|'(?:[^'\\]|\\[^])*'|-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?|[A-Za-z_][A-Za-z0-9_.-]*|[^]/gy;

function isFiniteJson(v: JsonValue): boolean {
  if (typeof v === "number") return Number.isFinite(v);
  if (Array.isArray(v)) return v.every(isFiniteJson);
  if (isJsonObject(v)) return Object.values(v).every(isFiniteJson);
  return true;
}
