import type { FormatDescription, XmlParametersUnit } from "../FormatDescription.js";
import { PLAIN_FIELDS } from "./plainFields.js";

/** DeepSeek's DSML markers are written with this tag prefix (the fullwidth bars are part of the text). */
const DSML = "｜DSML｜";

/**
 * One DSML call, as DeepSeek V3.2's and V4's templates render it:
 * `<｜DSML｜invoke name="NAME">\n` + per argument `<｜DSML｜parameter name="K" string="true">V</｜DSML｜parameter>\n`
 * (a string raw, `string="true"`) or `… string="false">JSON</｜DSML｜parameter>\n` (any other value as JSON), then
 * `</｜DSML｜invoke>`. The block's markers are the `invoke` tags, so the unit starts at the name.
 */
const DSML_UNIT: XmlParametersUnit = {
  kind: "xml-parameters",
  nameOpen: "",
  nameClose: '">\n',
  keyOpen: `<${DSML}parameter name="`,
  // the value's type: `string="true">` before a raw string, `string="false">` before JSON
  keyClose: '" string="',
  valueType: { close: '">', names: "string-flag" },
  valueClose: `</${DSML}parameter>\n`,
  callClose: "",
};

/**
 * DeepSeek V3.2 (DSML): every call of a turn in one section,
 * `<｜DSML｜function_calls>\n<｜DSML｜invoke name="NAME">\n…</｜DSML｜invoke>\n…</｜DSML｜function_calls>`. The template
 * writes `\n\n` before the section, after the content if any (read as the end of the content: llama.cpp's tests show
 * the model starting a reply with the section itself). In thinking mode the generation prompt opens `<think>` and
 * the model closes it with a bare `</think>`, as DeepSeek V3.1 does. The markers are plain text in the DeepSeek V3
 * vocabulary (no `｜DSML｜` token there), so grammars write them as text.
 */
export const deepseekV32: FormatDescription = {
  ...PLAIN_FIELDS,
  name: "deepseek-v3.2",
  family: 'DeepSeek V3.2 (DSML `function_calls`, parameters marked `string="true"` or `"false"`)',
  // vLLM: deepseek_v32 (llama.cpp's parser has no chat-format name of its own for it)
  aliases: ["deepseek_v32"],
  grouping: "block",
  section: { open: `<${DSML}function_calls>\n`, close: `\n</${DSML}function_calls>` },
  open: `<${DSML}invoke name="`,
  close: `</${DSML}invoke>`,
  blockSeparator: "\n",
  unit: DSML_UNIT,
  reasoning: { open: "<think>", close: "</think>", defaultMode: "none" },
};

/**
 * DeepSeek V4 (and V4 Flash): V3.2's calls in a `<｜DSML｜tool_calls>` section; a call without arguments is written
 * with an empty line (`<｜DSML｜invoke name="NAME">\n\n</｜DSML｜invoke>`), as its template renders it. Its non-thinking
 * generation prompt ends with `</think>` (V3.2's with `<think></think>`): the turn after it is the same.
 */
export const deepseekV4: FormatDescription = {
  ...deepseekV32,
  name: "deepseek-v4",
  family: "DeepSeek V4, V4 Flash (DSML `tool_calls`)",
  // the name vLLM-style configurations and toolgram's template reader use for it
  aliases: ["deepseek_v4"],
  section: { open: `<${DSML}tool_calls>\n`, close: `\n</${DSML}tool_calls>` },
  unit: { ...DSML_UNIT, emptyArguments: "\n" },
};
