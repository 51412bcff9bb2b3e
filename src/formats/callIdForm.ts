import type { CallIdForm } from "./FormatDescription.js";

/** The default call id: `call_…` ids, Mistral's 9 alphanumerics and the like (1–64 of `[A-Za-z0-9_-]`). */
export const WORD_ID: CallIdForm = { alphabet: "word", minLength: 1, maxLength: 64 };

/** The regular expression of a whole id of form `f`. */
export function callIdPattern(f: CallIdForm): RegExp {
  const chars = f.alphabet === "word" ? "A-Za-z0-9_-" : f.alphabet === "alphanumeric" ? "A-Za-z0-9" : "0-9";
  return new RegExp(`^[${chars}]{${f.minLength},${f.maxLength}}$`);
}

/** The form of the ids of a unit that does not name one. */
export function callIdForm(f: CallIdForm | undefined): CallIdForm {
  return f ?? WORD_ID;
}
