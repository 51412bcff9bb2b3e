import type { FormatDescription, JsonObjectUnit } from "../../formats/FormatDescription.js";
import type { GExpr } from "../../grammar/Grammar.js";
import { cls, lit, opt, rep, seq } from "../../grammar/build.js";
import { quoteJsonString } from "../../json.js";
import type { EnvelopeGrammarInput, EnvelopeTool } from "../Envelope.js";
import { replaceCodePoint } from "../../grammar/passes/replaceCodePoint.js";
import type { UnitGrammar } from "./UnitGrammar.js";

/** Call ids the grammar lets the model write: Mistral's 9 alphanumerics, `call_…` ids and the like (no escapes). */
const ID_CHARS = cls([0x2d, 0x2d, 0x30, 0x39, 0x41, 0x5a, 0x5f, 0x5f, 0x61, 0x7a]);
/** The longest call id a grammar allows (1–64 characters of `[A-Za-z0-9_-]`). */
export const MAX_ID_LENGTH = 64;

function unitOf(d: FormatDescription): JsonObjectUnit {
  if (d.unit.kind !== "json-object") throw new Error(`internal: ${d.name} has no JSON-object units`);
  return d.unit;
}

/**
 * `{"name": "NAME", ["id": "ID", ]"arguments": ARGS}` in the arguments' JSON style. Glaive's single-quoted arguments
 * are the JSON text between apostrophes with each apostrophe inside written `\u0027` (an apostrophe can only occur
 * inside a JSON string, so the rewrite maps the language one to one).
 */
export const jsonObjectUnitGrammar: UnitGrammar = {
  ruleNames: ["call-id"],
  firstCharacter: "{",
  argumentSpelling(d) {
    return unitOf(d).argumentsEncoding === "single-quoted-json" ? { rewrite: (e: GExpr) => replaceCodePoint(e, 0x27, "\\u0027") } : undefined;
  },
  call(d: FormatDescription, t: EnvelopeTool, input: EnvelopeGrammarInput): GExpr {
    const u = unitOf(d);
    const s = input.style;
    const key = (k: string): GExpr => seq(lit(quoteJsonString(k)), s.keySeparator);
    const id = u.idKey === null ? lit("") : opt(input.addRule("call-id", seq(s.itemSeparator, key(u.idKey), lit('"'), rep(ID_CHARS, 1, MAX_ID_LENGTH), lit('"'))));
    const args = u.argumentsEncoding === "single-quoted-json" ? seq(lit("'"), t.arguments, lit("'")) : t.arguments;
    return seq(s.objectOpen, key(u.nameKey), lit(quoteJsonString(t.name)), id, s.itemSeparator, key(u.argumentsKey), args, s.objectClose);
  },
};
