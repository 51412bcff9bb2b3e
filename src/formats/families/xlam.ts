import type { FormatDescription } from "../FormatDescription.js";
import { jsonCallUnit, PLAIN_FIELDS } from "./plainFields.js";

/** Salesforce xLAM: the whole reply is the JSON list `[{"name": "f", "arguments": {…}}, …]`. */
export const xlam: FormatDescription = {
  ...PLAIN_FIELDS,
  name: "xlam",
  family: "Salesforce xLAM (a bare JSON list of calls)",
  open: null,
  close: null,
  grouping: "list",
  unit: jsonCallUnit("arguments"),
};
