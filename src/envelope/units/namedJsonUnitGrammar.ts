import { ToolgramError } from "../../errors.js";
import type { FormatDescription, NamedJsonUnit } from "../../formats/FormatDescription.js";
import type { GExpr } from "../../grammar/Grammar.js";
import { alt, cls, lit, rep, seq } from "../../grammar/build.js";
import { checkName } from "../../formats/namedJsonName.js";
import { markerText } from "../markerText.js";
import type { EnvelopeGrammarInput, EnvelopeTool } from "../Envelope.js";
import type { UnitGrammar } from "./UnitGrammar.js";

/** A call index: `0` or up to 6 digits without a leading zero (isCanonicalIndex). */
const CALL_INDEX = alt(lit("0"), seq(cls([0x31, 0x39]), rep(cls([0x30, 0x39]), 0, 5)));

function unitOf(d: FormatDescription): NamedJsonUnit {
  if (d.unit.kind !== "named-json") throw new Error(`internal: ${d.name} has no named-JSON units`);
  return d.unit;
}

/**
 * `NAME + nameClose + ARGS + argumentsClose`: the name as its literal text, the separators with the family's special
 * tokens as token nodes (harmony's `<|channel|>`, `<|message|>`), the arguments as the tool's JSON object.
 */
export const namedJsonUnitGrammar: UnitGrammar = {
  ruleNames: [],
  argumentSpelling(d) {
    return {
      checkToolName(name: string, path: string) {
        try {
          checkName(name, d);
        } catch (e) {
          throw new ToolgramError("INVALID_INPUT", (e as Error).message, path);
        }
      },
    };
  },
  call(d: FormatDescription, t: EnvelopeTool, _input: EnvelopeGrammarInput): GExpr {
    const u = unitOf(d);
    const c = u.callIndex;
    // Kimi K2's `functions.NAME:IDX`: any index (the parser reads it as the call's id), no leading zeros
    const head = c === undefined ? lit(t.name) : seq(lit(c.namePrefix + t.name + c.indexSeparator), CALL_INDEX);
    return seq(
      head,
      markerText(u.nameClose, d.specialTokens),
      t.arguments,
      markerText(u.argumentsClose, d.specialTokens),
    );
  },
};
