import type { CallUnitKind } from "../../formats/FormatDescription.js";
import { gemma4CallUnitGrammar } from "./gemma4CallUnitGrammar.js";
import { jsonObjectUnitGrammar } from "./jsonObjectUnitGrammar.js";
import { namedJsonUnitGrammar } from "./namedJsonUnitGrammar.js";
import { nameThenJsonUnitGrammar } from "./nameThenJsonUnitGrammar.js";
import { pythonCallUnitGrammar } from "./pythonCallUnitGrammar.js";
import type { UnitGrammar } from "./UnitGrammar.js";
import { xmlElementsUnitGrammar } from "./xmlElementsUnitGrammar.js";
import { xmlParametersUnitGrammar } from "./xmlParametersUnitGrammar.js";

/** The grammar builder of each kind of call unit. */
export const UNIT_GRAMMARS: Readonly<Record<CallUnitKind, UnitGrammar>> = {
  "json-object": jsonObjectUnitGrammar,
  "python-call": pythonCallUnitGrammar,
  "named-json": namedJsonUnitGrammar,
  "xml-parameters": xmlParametersUnitGrammar,
  "name-then-json": nameThenJsonUnitGrammar,
  "gemma4-call": gemma4CallUnitGrammar,
  "xml-elements": xmlElementsUnitGrammar,
};
