import { ToolgramError } from "../../errors.js";
import type { FormatDescription, NameThenJsonUnit } from "../../formats/FormatDescription.js";
import { callIdForm } from "../../formats/callIdForm.js";
import { lit, seq, token } from "../../grammar/build.js";
import { callIdGrammar, unitIdPart } from "./callIdGrammar.js";
import type { UnitGrammar } from "./UnitGrammar.js";

function unitOf(d: FormatDescription): NameThenJsonUnit {
  if (d.unit.kind !== "name-then-json") throw new Error(`internal: ${d.name} has no name-then-JSON units`);
  return d.unit;
}

/**
 * `NAME[ARGS]{…}`: the name, the marker (a token node when the description lists it as a special token), the
 * arguments; with an id marker, `NAME[CALL_ID]ID[ARGS]{…}`, the id required when the unit has an `idForm` (Mistral
 * Small 3.2's template writes one in every call) and optional otherwise (with `idFirst`,
 * `ID + idMarker + NAME + argumentsMarker + {…}`).
 */
export const nameThenJsonUnitGrammar: UnitGrammar = {
  ruleNames: [],
  argumentSpelling(d) {
    const u = unitOf(d);
    return {
      checkToolName(name, path) {
        if (!u.namePattern.test(name)) {
          throw new ToolgramError(
            "INVALID_TOOL",
            `format ${d.name} writes a call as NAME${u.argumentsMarker}{…}, and the tool name ${JSON.stringify(name)} does not match ${u.namePattern}; rename the tool or use another format`,
            path,
          );
        }
      },
    };
  },
  call(d, t) {
    const u = unitOf(d);
    const marker = (m: string) => (d.specialTokens.includes(m) ? token(m) : lit(m));
    if (u.idFirst === true && u.idMarker !== undefined) {
      // `ID + idMarker + NAME`: the marker always, the id as the unit's `idForm` asks
      return seq(
        unitIdPart(callIdGrammar(callIdForm(u.idForm)), u.idForm),
        marker(u.idMarker),
        lit(t.name),
        marker(u.argumentsMarker),
        t.arguments,
      );
    }
    const id =
      u.idMarker === undefined
        ? lit("")
        : unitIdPart(seq(marker(u.idMarker), callIdGrammar(callIdForm(u.idForm))), u.idForm);
    return seq(lit(t.name), id, marker(u.argumentsMarker), t.arguments);
  },
};
