import type { FormatDescription, JsonObjectUnit } from "../../formats/FormatDescription.js";
import type { GExpr } from "../../grammar/Grammar.js";
import { callIdForm } from "../../formats/callIdForm.js";
import { lit, seq } from "../../grammar/build.js";
import { callIdGrammar, unitIdPart } from "./callIdGrammar.js";
import { quoteJsonString } from "../../json.js";
import type { EnvelopeGrammarInput, EnvelopeTool } from "../Envelope.js";
import { replaceCodePoint } from "../../grammar/passes/replaceCodePoint.js";
import type { UnitGrammar } from "./UnitGrammar.js";

function unitOf(d: FormatDescription): JsonObjectUnit {
  if (d.unit.kind !== "json-object") throw new Error(`internal: ${d.name} has no JSON-object units`);
  return d.unit;
}

/**
 * `{"name": "NAME", ["id": "ID", ]"arguments": ARGS}` in the arguments' JSON style, the id where the unit's
 * `idPosition` puts it (first, after the name, last; required when the unit has an `idForm`, else optional), or `{"NAME": ARGS}` for a unit keyed by the name. Glaive's
 * single-quoted arguments are the JSON text between apostrophes with each apostrophe inside written `\u0027` (an
 * apostrophe can only occur inside a JSON string, so the rewrite maps the language one to one).
 */
export const jsonObjectUnitGrammar: UnitGrammar = {
  ruleNames: ["call-id"],
  firstCharacter: "{",
  argumentSpelling(d) {
    return unitOf(d).argumentsEncoding === "single-quoted-json"
      ? { rewrite: (e: GExpr) => replaceCodePoint(e, 0x27, "\\u0027") }
      : undefined;
  },
  call(d: FormatDescription, t: EnvelopeTool, input: EnvelopeGrammarInput): GExpr {
    const u = unitOf(d);
    const s = input.style;
    const key = (k: string): GExpr => seq(lit(quoteJsonString(k)), s.keySeparator);
    if (u.nameKey === null) return seq(s.objectOpen, key(t.name), t.arguments, s.objectClose);
    const name = seq(key(u.nameKey), lit(quoteJsonString(t.name)));
    const args = seq(
      key(u.argumentsKey),
      u.argumentsEncoding === "single-quoted-json" ? seq(lit("'"), t.arguments, lit("'")) : t.arguments,
    );
    if (u.idKey === null) return seq(s.objectOpen, name, s.itemSeparator, args, s.objectClose);
    const idValue = seq(key(u.idKey), lit('"'), callIdGrammar(callIdForm(u.idForm)), lit('"'));
    switch (u.idPosition ?? "after-name") {
      case "first":
        // the id opens the object, so the object's first key may be absent: no separate rule
        return seq(
          s.objectOpen,
          unitIdPart(seq(idValue, s.itemSeparator), u.idForm),
          name,
          s.itemSeparator,
          args,
          s.objectClose,
        );
      case "last":
        return seq(
          s.objectOpen,
          name,
          s.itemSeparator,
          args,
          unitIdPart(input.addRule("call-id", seq(s.itemSeparator, idValue)), u.idForm),
          s.objectClose,
        );
      default:
        return seq(
          s.objectOpen,
          name,
          unitIdPart(input.addRule("call-id", seq(s.itemSeparator, idValue)), u.idForm),
          s.itemSeparator,
          args,
          s.objectClose,
        );
    }
  },
};
