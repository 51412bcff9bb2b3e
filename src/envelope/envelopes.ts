import { ToolgramError } from "../errors.js";
import { FORMAT_DESCRIPTIONS } from "../parser/formats/descriptions.js";
import { PYTHON_CALL_NAME } from "../parser/pythonCall.js";
import type { FormatName } from "../parser/types.js";
import { describedEnvelope } from "./describedEnvelope.js";
import type { Envelope } from "./Envelope.js";
import { qwen3Envelope } from "./qwen3.js";
import { replaceCodePoint } from "./replaceCodePoint.js";

/**
 * The wire formats `compileTools` can build grammars for: every format the parser reads, each from the parser's own
 * description. Glaive quotes the arguments JSON in apostrophes, so an apostrophe inside it is written `\u0027`;
 * pythonic writes the arguments as keyword arguments with Python's True / False / None.
 */
export const ENVELOPES = {
  qwen3: qwen3Envelope,
  "tools-array": describedEnvelope(FORMAT_DESCRIPTIONS["tools-array"]),
  "llama3-json": describedEnvelope(FORMAT_DESCRIPTIONS["llama3-json"]),
  mistral: describedEnvelope(FORMAT_DESCRIPTIONS.mistral),
  glaive: describedEnvelope(FORMAT_DESCRIPTIONS.glaive, { rewrite: (e) => replaceCodePoint(e, 0x27, "\\u0027") }),
  pythonic: describedEnvelope(FORMAT_DESCRIPTIONS.pythonic, {
    keywords: { true: "True", false: "False", null: "None" },
    keywordArguments: true,
    checkToolName(name, path) {
      if (!PYTHON_CALL_NAME.test(name)) {
        throw new ToolgramError("INVALID_TOOL", `format pythonic writes a call as name(...), and the tool name ${JSON.stringify(name)} is not a Python-style name ([A-Za-z_][A-Za-z0-9_.-]*); rename the tool or use another format`, path);
      }
    },
  }),
} as const satisfies Record<FormatName, Envelope>;

export type EnvelopeFormat = keyof typeof ENVELOPES;

/** The envelope of a format name; INVALID_OPTION for an unknown one. */
export function envelopeFor(format: string): Envelope {
  if (!Object.hasOwn(ENVELOPES, format)) {
    throw new ToolgramError("INVALID_OPTION", `unknown format ${JSON.stringify(format)}; supported: ${Object.keys(ENVELOPES).join(", ")}`);
  }
  return ENVELOPES[format as EnvelopeFormat];
}
