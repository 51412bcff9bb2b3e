import { ToolgramError } from "../../errors.js";
import type { FormatDescription, XmlParametersUnit } from "../../formats/FormatDescription.js";
import { alt, cls, EPSILON, lit, rep, seq } from "../../grammar/build.js";
import { rawValueForbidden } from "../../formats/rawValueForbidden.js";
import type { UnitGrammar } from "./UnitGrammar.js";
import { markerText } from "../markerText.js";

/** A call index: `0` or up to 6 digits without a leading zero (CALL_INDEX_TEXT). */
const CALL_INDEX = alt(lit("0"), seq(cls([0x31, 0x39]), rep(cls([0x30, 0x39]), 0, 5)));

function unitOf(d: FormatDescription): XmlParametersUnit {
  if (d.unit.kind !== "xml-parameters") throw new Error(`internal: ${d.name} has no XML-parameter units`);
  return d.unit;
}

/**
 * `nameOpen NAME nameClose (keyOpen K keyClose V valueClose)* callClose`: the arguments are lowered as tagged
 * parameters (src/lower/lowerXmlParameters.ts), raw strings kept free of the value's closing marker and of the
 * block's markers, since the parser (src/parser/units/xmlParametersUnit.ts) ends a value and a block at the first.
 */
export const xmlParametersUnitGrammar: UnitGrammar = {
  ruleNames: [],
  argumentSpelling(d) {
    const u = unitOf(d);
    const forbidden = rawValueForbidden(d);
    return {
      xmlParameters: {
        format: d.name,
        keyOpen: u.keyOpen,
        keyClose: u.keyClose,
        valueClose: u.valueClose,
        forbidden,
        ...(u.valueType !== undefined ? { valueType: u.valueType } : {}),
        ...(u.emptyArguments !== undefined ? { emptyArguments: u.emptyArguments } : {}),
      },
      checkToolName(name, path) {
        const end = u.nameClose.trim();
        // a message's recipient (Muse Glimmer) ends at its own closing marker
        const recipientEnd = u.recipient?.close.trim() ?? "";
        if (
          /\s/.test(name) ||
          (end !== "" && name.includes(end)) ||
          (recipientEnd !== "" && name.includes(recipientEnd)) ||
          forbidden.some((f) => name.includes(f))
        ) {
          throw new ToolgramError(
            "INVALID_TOOL",
            `format ${d.name} writes the tool name between ${JSON.stringify(u.nameOpen)} and ${JSON.stringify(u.nameClose)}, and ${JSON.stringify(name)} cannot stand there (whitespace or a marker); rename the tool or use another format`,
            path,
          );
        }
      },
    };
  },
  call(d, t) {
    const u = unitOf(d);
    // Kimi K3's `index="N"`: any index (the parser reads it as the call's id), no leading zeros
    const index = u.callIndex === undefined ? EPSILON : seq(CALL_INDEX, lit(u.callIndex.close));
    // a message to the tool (Muse Glimmer) names it as the recipient first
    const recipient =
      u.recipient === undefined ? EPSILON : seq(lit(t.name), markerText(u.recipient.close, d.specialTokens));
    return seq(recipient, lit(u.nameOpen + t.name + u.nameClose), index, t.arguments, lit(u.callClose));
  },
};
