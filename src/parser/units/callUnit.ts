import type { CallUnitKind, FormatDescription } from "../../formats/FormatDescription.js";
import type { ParseMode } from "../types.js";
import { gemma4CallUnit } from "./gemma4CallUnit.js";
import { jsonObjectUnit } from "./jsonObjectUnit.js";
import { namedJsonUnit } from "./namedJsonUnit.js";
import { nameThenJsonUnit } from "./nameThenJsonUnit.js";
import { pythonCallUnit } from "./pythonCallUnit.js";
import type { ToolParameters, UnitCall, UnitCodec, UnitResult, ValueKinds } from "./UnitCodec.js";
import { xmlElementsUnit } from "./xmlElementsUnit.js";
import { xmlParametersUnit } from "./xmlParametersUnit.js";

export type { ToolParameters, UnitCall, UnitResult, ValueKinds } from "./UnitCodec.js";

/** The reader/writer of each kind of call unit. */
export const UNIT_CODECS: Readonly<Record<CallUnitKind, UnitCodec>> = {
  "json-object": jsonObjectUnit,
  "python-call": pythonCallUnit,
  "named-json": namedJsonUnit,
  "xml-parameters": xmlParametersUnit,
  "name-then-json": nameThenJsonUnit,
  "gemma4-call": gemma4CallUnit,
  "xml-elements": xmlElementsUnit,
};

/**
 * The canonical text of one call unit: a block's body (between the markers, padding included) for
 * `grouping: "block"`, one element for `grouping: "list"`.
 */
export function renderCallUnit(call: UnitCall, d: FormatDescription): string {
  const text = UNIT_CODECS[d.unit.kind].render(call, d);
  return d.grouping === "block" ? d.afterOpen + text + d.beforeClose : text;
}

/**
 * Reads one call unit (see renderCallUnit). Strict mode accepts only the canonical text (up to the number spellings a
 * grammar emits). `whole`: the unit's block was closed by its marker (see UnitCodec.read). Never throws.
 */
export function parseCallUnit(
  text: string,
  d: FormatDescription,
  mode: ParseMode,
  whole = true,
  kinds?: ValueKinds,
  parameters?: ToolParameters,
): UnitResult {
  const codec = UNIT_CODECS[d.unit.kind];
  const r = codec.read(text, d, whole, kinds, parameters);
  if (mode === "tolerant" || !r.ok) return r;
  if (r.repairs.length > 0 || !codec.isCanonical(text, r.call, d)) {
    let canonical: string;
    try {
      canonical = renderCallUnit(r.call, d);
    } catch {
      canonical = "";
    }
    return {
      ok: false,
      code: "NONCANONICAL",
      message: `not the canonical ${d.name} rendering of the call (expected ${JSON.stringify(canonical.slice(0, 200))})`,
    };
  }
  return r;
}
