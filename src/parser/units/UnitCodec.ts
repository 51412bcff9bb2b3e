import type { JsonObject } from "../../json.js";
import type { FormatDescription } from "../../formats/FormatDescription.js";
import type { IssueCode } from "../issueCodes.js";
import type { Repair } from "../lenientJson.js";

/** One call as a format carries it. */
export interface UnitCall {
  name: string;
  arguments: JsonObject;
  id?: string;
}

export type UnitResult =
  | { ok: true; call: UnitCall; repairs: Repair[] }
  | { ok: false; code: IssueCode; message: string; at?: number };

/**
 * How the value of parameter `key` of tool `tool` is written, from the tool's schema: `"string"` (only strings: raw
 * text), `"json"` (no strings: JSON), undefined (unknown or both: decided by the text). Units that write arguments as
 * one JSON object ignore it.
 */
export type ValueKinds = (tool: string, key: string) => "string" | "json" | undefined;

/**
 * The declared `parameters` schema of tool `tool` (undefined for an undeclared tool): units whose text does not say a
 * value's type at any depth (MiniMax M3's nested elements) type every value by it.
 */
export type ToolParameters = (tool: string) => JsonObject | undefined;

/**
 * Reading and writing one kind of call unit (`FormatDescription.unit.kind`). A new unit kind implements this (one
 * small module in this folder) and registers it in `UNIT_CODECS`; the scanner, the assembler and the renderer
 * around it are shared by every kind.
 */
export interface UnitCodec {
  /** The canonical text of one call (a block's value without its padding, or one list element). */
  render(call: UnitCall, d: FormatDescription): string;
  /**
   * Reads one unit tolerantly, recording every drift as a repair. For `grouping: "block"` the text is the whole
   * body between the markers (padding included: the codec checks it against `afterOpen` / `beforeClose`).
   * `whole`: the text is known to be all of the unit (its block was closed by its marker), so a drift at its end
   * (a missing closing bracket) may be repaired; never when the input was cut off. Never throws.
   */
  read(text: string, d: FormatDescription, whole: boolean, kinds?: ValueKinds, parameters?: ToolParameters): UnitResult;
  /**
   * Strict mode: `text` (as `read` got it) is the canonical rendering of `call`, except for what a compiled grammar
   * leaves open (number spellings); the compiled grammar itself has the last word when tools are given.
   */
  isCanonical(text: string, call: UnitCall, d: FormatDescription): boolean;
  /**
   * Text that can only start a call unit (Qwen3-Coder's `<function=`): tolerant parsing opens a block there when
   * the model left out the block's opening marker. Absent when a unit's start is not distinctive (JSON's `{`).
   */
  bareStart?(d: FormatDescription): string | null;
  /**
   * For units that begin with the call's name and a marker before their bracketed value (`NAME[ARGS]{…}`): the
   * marker and the characters a name may have. The scanner reads this prefix as part of the unit (a bracket in the
   * marker is not the value's) and reports the name as soon as the marker comes. `idMarker`: a marker between the
   * name and `marker` after which the call's id comes (`NAME[CALL_ID]ID[ARGS]{…}`); the name is reported there.
   */
  namePrefix?(
    d: FormatDescription,
  ): { marker: string; nameCharacter: RegExp; idMarker?: string; idFirst?: boolean } | undefined;
}
