import type { FormatDescription } from "../FormatDescription.js";
import { jsonCallUnit, PLAIN_FIELDS } from "./plainFields.js";

/**
 * FireFunction v2 (Fireworks' Llama 3 70B tune), as its chat template writes calls: after the turn's text (trimmed),
 * ` functools[{"name": "f", "arguments": {…}}, …]`, the list's JSON spelled as the template joins it (`", "` between
 * calls, the arguments through `tojson`). Phi-4-mini's `functools[…]` without the leading space is `phi4-mini`.
 */
export const firefunctionV2: FormatDescription = {
  ...PLAIN_FIELDS,
  name: "firefunction-v2",
  family: "FireFunction v2 (` functools[…]` after the text)",
  // llama.cpp's former chat-format name
  aliases: ["FireFunction v2", "firefunction_v2"],
  open: " functools",
  close: null,
  grouping: "list",
  unit: jsonCallUnit("arguments"),
};
