import { mistral } from "../../formats/descriptions.js";
import type { FormatDescription } from "../../formats/FormatDescription.js";
import { mistralV11CallId } from "../../formats/families/mistral.js";

/** Formats whose family wrote its calls another way after the same opening marker, in an earlier or later generation. */
const GENERATIONS: Readonly<Record<string, "list" | "named">> = {
  mistral: "list",
  "mistral-nemo": "list",
  "mistral-v11": "named",
  "mistral-v11-call-id": "named",
};

/** A character that can start a tool's name written right after the marker (`[TOOL_CALLS]get_weather[ARGS]…`). */
const NAME_START = /[A-Za-z0-9_.-]/;

/**
 * Tolerant reading of a block opened by `d.open` whose body starts with `first` (its first non-space character, ""
 * at the end of input): the description to read it with when the family's other generation wrote it — Mistral's
 * `[TOOL_CALLS][{…}, …]` list (v0.3, Nemo) and its `[TOOL_CALLS]NAME[ARGS]{…}` calls (v11+, one marker a call, with
 * or without `[CALL_ID]`), which models of either generation write after the same special token. Null: the
 * format's own reading.
 */
export function otherGeneration(d: FormatDescription, first: string): FormatDescription | null {
  const own = GENERATIONS[d.name];
  if (own === undefined || first === "") return null;
  const named = NAME_START.test(first);
  if (own === "list" && named) return mistralV11CallId;
  if (own === "named" && (first === "[" || first === "{")) return mistral;
  return null;
}

/** Whether `d` has another generation that tolerant reading may meet after its opening marker. */
export function hasOtherGeneration(d: FormatDescription): boolean {
  return GENERATIONS[d.name] !== undefined;
}
