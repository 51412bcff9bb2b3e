import type { FormatDescription } from "../../formats/FormatDescription.js";
import type { GExpr } from "../../grammar/Grammar.js";
import type { ArgumentSpelling, EnvelopeGrammarInput, EnvelopeTool } from "../Envelope.js";

/**
 * The grammar of one kind of call unit (`FormatDescription.unit.kind`). A new unit kind implements this (one small
 * module in this folder) and registers it in `UNIT_GRAMMARS`; the turn around the units (free text, markers,
 * blocks or list, call bounds) is built by describedEnvelope for every kind.
 */
export interface UnitGrammar {
  /** Rule names the unit's grammar may add through `input.addRule` (reserved before the tools are lowered). */
  readonly ruleNames: readonly string[];
  /** How the tools' arguments are lowered for this unit (absent: one JSON object value). */
  argumentSpelling(d: FormatDescription): ArgumentSpelling | undefined;
  /** One call of tool `t`: exactly the codec's canonical text (src/parser/units), up to the number spellings. */
  call(d: FormatDescription, t: EnvelopeTool, input: EnvelopeGrammarInput): GExpr;
  /**
   * The first character of every unit, when the unit can be the whole reply (`open: null` with
   * `grouping: "block"`): free text must not start with it. Absent when a unit cannot open a reply.
   */
  readonly firstCharacter?: string;
}
