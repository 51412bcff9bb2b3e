import { ToolgramError } from "../../errors.js";
import type { FormatDescription, XmlParametersUnit } from "../../formats/FormatDescription.js";
import { lit, seq } from "../../grammar/build.js";
import { rawValueForbidden } from "../../formats/rawValueForbidden.js";
import type { UnitGrammar } from "./UnitGrammar.js";

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
        ...(u.valueTypes !== undefined ? { valueTypes: u.valueTypes } : {}),
        ...(u.emptyArguments !== undefined ? { emptyArguments: u.emptyArguments } : {}),
      },
      checkToolName(name, path) {
        const end = u.nameClose.trim();
        if (/\s/.test(name) || (end !== "" && name.includes(end)) || forbidden.some((f) => name.includes(f))) {
          throw new ToolgramError("INVALID_TOOL", `format ${d.name} writes the tool name between ${JSON.stringify(u.nameOpen)} and ${JSON.stringify(u.nameClose)}, and ${JSON.stringify(name)} cannot stand there (whitespace or a marker); rename the tool or use another format`, path);
        }
      },
    };
  },
  call(d, t) {
    const u = unitOf(d);
    return seq(lit(u.nameOpen + t.name + u.nameClose), t.arguments, lit(u.callClose));
  },
};
