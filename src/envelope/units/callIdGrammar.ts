import type { CallIdForm } from "../../formats/FormatDescription.js";
import type { GExpr } from "../../grammar/Grammar.js";
import { cls, opt, rep } from "../../grammar/build.js";

/** Code point ranges of each id alphabet (CallIdForm). */
const ALPHABETS: Record<CallIdForm["alphabet"], number[]> = {
  word: [0x2d, 0x2d, 0x30, 0x39, 0x41, 0x5a, 0x5f, 0x5f, 0x61, 0x7a],
  alphanumeric: [0x30, 0x39, 0x41, 0x5a, 0x61, 0x7a],
  digits: [0x30, 0x39],
};

/** The characters of a call id of form `f` (no quotes: no id alphabet holds a character JSON escapes). */
export function callIdGrammar(f: CallIdForm): GExpr {
  return rep(cls(ALPHABETS[f.alphabet]), f.minLength, f.maxLength);
}

/**
 * A unit's id part `e` as its grammar allows it: required when the unit names an `idForm` (a fixed id shape its
 * templates write in every call, so a call without one does not re-render as the model wrote it, and Mistral's
 * templates refuse it), optional otherwise (formats whose ids are the caller's business).
 */
export function unitIdPart(e: GExpr, idForm: CallIdForm | undefined): GExpr {
  return idForm === undefined ? opt(e) : e;
}
