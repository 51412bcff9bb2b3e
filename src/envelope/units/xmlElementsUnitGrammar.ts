import { ToolgramError } from "../../errors.js";
import {
  xmlElementKeyProblem,
  xmlElementsForbidden,
  xmlElementsUnit,
  xmlElementValueText,
} from "../../formats/xmlElementValues.js";
import { lit, seq } from "../../grammar/build.js";
import type { UnitGrammar } from "./UnitGrammar.js";

/**
 * MiniMax M3's `NAME">` followed by the arguments as nested elements, lowered from the schema by
 * src/lower/lowerXmlElements.ts (typed at every depth, exact).
 */
export const xmlElementsUnitGrammar: UnitGrammar = {
  ruleNames: [],
  argumentSpelling(d) {
    const u = xmlElementsUnit(d);
    return {
      xmlElements: {
        format: d.name,
        unit: u,
        forbidden: xmlElementsForbidden(d),
        keyProblem: (key) => xmlElementKeyProblem(key, d),
        valueText: (v) => {
          try {
            return xmlElementValueText(v, d);
          } catch {
            return null;
          }
        },
      },
      checkToolName(name, path) {
        // the reader takes the name up to its closing quote, and the name must not hold the tag prefix
        if (!/^[^\s"<>]+$/u.test(name) || name.includes(u.tagPrefix)) {
          throw new ToolgramError(
            "INVALID_TOOL",
            `format ${d.name} writes the tool name as ${JSON.stringify(`${d.open}NAME${u.nameClose}`)}, and ${JSON.stringify(name)} cannot stand there (whitespace, " < or >); rename the tool or use another format`,
            path,
          );
        }
      },
    };
  },
  call(d, t) {
    const u = xmlElementsUnit(d);
    return seq(lit(t.name + u.nameClose), t.arguments);
  },
};
