import type { FormatDescription } from "../FormatDescription.js";
import { jsonCallUnit, PLAIN_FIELDS } from "./plainFields.js";

/** Phi-4-mini: `functools[{"name": "f", "arguments": {…}}, …]` (vLLM's `phi4_mini_json` parser). */
export const phi4Mini: FormatDescription = {
  ...PLAIN_FIELDS,
  name: "phi4-mini",
  family: "Phi-4-mini (`functools[…]`)",
  aliases: ["phi4_mini_json"],
  open: "functools",
  close: null,
  grouping: "list",
  unit: jsonCallUnit("arguments"),
};
