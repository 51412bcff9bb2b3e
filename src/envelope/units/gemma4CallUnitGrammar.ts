import { ToolgramError } from "../../errors.js";
import { gemma4StringForbidden, gemma4Unit, gemma4ValueText } from "../../formats/gemma4Values.js";
import { lit, seq } from "../../grammar/build.js";
import { markerText } from "../markerText.js";
import type { UnitGrammar } from "./UnitGrammar.js";

/**
 * Gemma 4's `call:NAME{…}`: the arguments are lowered in Gemma 4's value syntax (src/lower/lowerGemma4.ts), typed by
 * the schema; the string delimiter is a token node when it is one of the format's special tokens.
 */
export const gemma4CallUnitGrammar: UnitGrammar = {
  ruleNames: [],
  argumentSpelling(d) {
    const u = gemma4Unit(d);
    const forbidden = gemma4StringForbidden(d);
    return {
      gemma4: {
        format: d.name,
        delimiter: markerText(u.stringDelimiter, d.specialTokens),
        forbidden,
        valueText: (v) => {
          try {
            return gemma4ValueText(v, d);
          } catch {
            return null;
          }
        },
        text: (t) => markerText(t, d.specialTokens),
      },
      checkToolName(name, path) {
        // the reader takes the name up to the arguments' `{`
        if (!/^[^\s<>{}]+$/u.test(name)) {
          throw new ToolgramError(
            "INVALID_TOOL",
            `format ${d.name} writes the tool name between ${JSON.stringify(u.namePrefix)} and "{", and ${JSON.stringify(name)} cannot stand there (whitespace, < > { or }); rename the tool or use another format`,
            path,
          );
        }
      },
    };
  },
  call(d, t) {
    const u = gemma4Unit(d);
    return seq(lit(u.namePrefix + t.name), t.arguments);
  },
};
