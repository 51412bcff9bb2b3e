import type { FormatDescription, ListLayout } from "./FormatDescription.js";

/** A JSON-style list: `[`, `, `, `]`. */
const BRACKETS: ListLayout = { open: "[", separator: ", ", close: "]" };

/**
 * The text around and between the calls of a `grouping: "list"` format (FormatDescription.list, default `[…, …]`).
 * A list without brackets is only described for Python-call units inside a closing marker: throws otherwise.
 */
export function listLayout(d: FormatDescription): ListLayout {
  const l = d.list ?? BRACKETS;
  if (l.open === "" && (d.unit.kind !== "python-call" || d.close === null)) {
    throw new Error(`internal: format ${d.name}: a list without brackets needs Python-call units and a closing marker`);
  }
  return l;
}

/** True when the list's calls stand without brackets around them (OLMo 3). */
export function bracketlessList(d: FormatDescription): boolean {
  return d.grouping === "list" && listLayout(d).open === "";
}
