import type { FormatDescription } from "./FormatDescription.js";

/** PythonCallUnit.callSuffix (the text between a tool's name and its parenthesis), "" for other units or when absent. */
export function callSuffixOf(d: FormatDescription): string {
  return d.unit.kind === "python-call" ? (d.unit.callSuffix ?? "") : "";
}
