import { createHash, randomBytes } from "node:crypto";
import { callIdPattern } from "../formats/callIdForm.js";
import { describeFormat } from "../formats/describeFormat.js";
import type { CallIdForm } from "../formats/FormatDescription.js";

const ALPHABETS: Readonly<Record<CallIdForm["alphabet"], string>> = {
  // minted ids need not use every character a form allows
  word: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789",
  alphanumeric: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789",
  digits: "0123456789",
};

/** Characters of an OpenAI-style id after `call_`, and their form. */
const OPENAI_LENGTH = 24;
const OPENAI_FORM: CallIdForm = { alphabet: "alphanumeric", minLength: OPENAI_LENGTH, maxLength: OPENAI_LENGTH };

/**
 * The ids a format writes in its calls (its unit's `idForm`: Mistral's 9 alphanumerics, Command R7B's indices), or
 * undefined when it writes none or takes any word: then OpenAI's `call_…` ids serve. Templates of formats with a
 * fixed id shape check it (Mistral's raise "Tool call IDs should be alphanumeric strings with length 9").
 */
export function callIdFormOf(format: string): CallIdForm | undefined {
  const unit = describeFormat(format).unit;
  return "idForm" in unit ? unit.idForm : undefined;
}

/** `length` characters of the form's alphabet, drawn from `bytes` (one byte each). */
function spell(form: CallIdForm, bytes: Uint8Array, length: number): string {
  const alphabet = ALPHABETS[form.alphabet];
  return [...bytes.subarray(0, length)].map((b) => alphabet[b % alphabet.length]).join("");
}

/** How many characters a minted id of `form` has: as long as it may be, up to OpenAI's 24. */
function lengthOf(form: CallIdForm): number {
  return Math.max(form.minLength, Math.min(form.maxLength, OPENAI_LENGTH));
}

/**
 * A new call id: `call_` and 24 random base-62 characters (OpenAI's shape), or, for a format whose ids have another
 * shape (`form`), random characters of that shape, so the template takes the id when the client sends the turn back.
 */
export function mintCallId(form?: CallIdForm): string {
  const openai = `call_${spell(OPENAI_FORM, randomBytes(OPENAI_LENGTH), OPENAI_LENGTH)}`;
  if (form === undefined || callIdPattern(form).test(openai)) return openai;
  const length = lengthOf(form);
  return spell(form, randomBytes(length), length);
}

/**
 * The id a template sees for a client's id: the id itself when it has the format's shape, else an id of that shape
 * derived from it (a hash), so the same id maps to the same id everywhere it appears (a call and its result, one
 * request and the next) and two ids to different ones but by a hash collision.
 */
export function fitCallId(id: string, form: CallIdForm | undefined): string {
  if (form === undefined || callIdPattern(form).test(id)) return id;
  const length = lengthOf(form);
  return spell(form, createHash("sha256").update(id).digest(), length);
}
