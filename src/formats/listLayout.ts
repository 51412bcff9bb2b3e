import type { FormatDescription, ListLayout } from "./FormatDescription.js";

/** A JSON-style list: `[`, `, `, `]`. */
const BRACKETS: ListLayout = { open: "[", separator: ", ", close: "]" };

/**
 * The text around and between the calls of a `grouping: "list"` format (FormatDescription.list, default `[…, …]`).
 * A list without brackets is only described for JSON-object units, and Python-call units inside a closing marker:
 * throws otherwise.
 */
export function listLayout(d: FormatDescription): ListLayout {
  const l = d.list ?? BRACKETS;
  // a unit must end on its own (a Python call's parenthesis, a JSON object's brace); a Python call's list needs a
  // closing marker, a JSON object's ends where no separator and `{` follow its last unit
  if (l.open === "" && !(d.unit.kind === "json-object" || (d.unit.kind === "python-call" && d.close !== null))) {
    throw new Error(
      `internal: format ${d.name}: a list without brackets needs JSON-object units, or Python-call units and a closing marker`,
    );
  }
  return l;
}

/** True when the list's calls stand without brackets around them (OLMo 3). */
export function bracketlessList(d: FormatDescription): boolean {
  return d.grouping === "list" && listLayout(d).open === "";
}
