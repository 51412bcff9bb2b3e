import type { ParseMode } from "../types.js";
import type { FormatName } from "../types.js";
import { parseCallUnit, renderCallUnit, type UnitCall, type UnitResult } from "./callUnit.js";
import { FORMAT_DESCRIPTIONS } from "./descriptions.js";
import type { FormatDescription } from "./FormatDescription.js";

export type { FormatDescription } from "./FormatDescription.js";
export { FORMAT_DESCRIPTIONS } from "./descriptions.js";
export type { UnitCall, UnitResult } from "./callUnit.js";

/** A wire format: its description, and how one call unit is read and written. */
export interface ToolCallFormat {
  readonly description: FormatDescription;
  parseUnit(text: string, mode: ParseMode): UnitResult;
  renderUnit(call: UnitCall): string;
}

/** The format named `name` (undefined when unknown). */
export function getFormat(name: FormatName): ToolCallFormat | undefined {
  const d = FORMAT_DESCRIPTIONS[name];
  if (!d) return undefined;
  return {
    description: d,
    parseUnit: (text, mode) => parseCallUnit(text, d, mode),
    renderUnit: (call) => renderCallUnit(call, d),
  };
}

export const FORMAT_NAMES = Object.keys(FORMAT_DESCRIPTIONS) as FormatName[];
