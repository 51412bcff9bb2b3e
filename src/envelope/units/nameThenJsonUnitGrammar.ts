import { ToolgramError } from "../../errors.js";
import type { FormatDescription, NameThenJsonUnit } from "../../formats/FormatDescription.js";
import { lit, seq, token } from "../../grammar/build.js";
import type { UnitGrammar } from "./UnitGrammar.js";

function unitOf(d: FormatDescription): NameThenJsonUnit {
  if (d.unit.kind !== "name-then-json") throw new Error(`internal: ${d.name} has no name-then-JSON units`);
  return d.unit;
}

/** `NAME[ARGS]{…}`: the name, the marker (a token node when the description lists it as a special token), the arguments. */
export const nameThenJsonUnitGrammar: UnitGrammar = {
  ruleNames: [],
  argumentSpelling(d) {
    const u = unitOf(d);
    return {
      checkToolName(name, path) {
        if (!u.namePattern.test(name)) {
          throw new ToolgramError("INVALID_TOOL", `format ${d.name} writes a call as NAME${u.argumentsMarker}{…}, and the tool name ${JSON.stringify(name)} does not match ${u.namePattern}; rename the tool or use another format`, path);
        }
      },
    };
  },
  call(d, t) {
    const u = unitOf(d);
    const marker = d.specialTokens.includes(u.argumentsMarker) ? token(u.argumentsMarker) : lit(u.argumentsMarker);
    return seq(lit(t.name), marker, t.arguments);
  },
};
