import { firstMessageOpen, firstMessageOpenAfter } from "../formats/messageHead.js";
import { compileTools, type ToolCompileOptions } from "../compile.js";
import { ToolgramError } from "../errors.js";
import type { FormatDescription } from "../formats/FormatDescription.js";
import { joinCallUnits } from "./renderToolCalls.js";

/** A call unit's check: whether the one-call grammar accepts it. */
export type UnitCheck = (unit: string) => boolean;

/**
 * Strict mode's last word on one call unit (renderCallUnit's text: a block's body between the markers for object
 * formats, one list element for array and python-list formats): the compiled grammar of one call of the declared
 * tools in `format`, given the unit as the canonical one-call reply around it (joinCallUnits). The parser's own
 * canonical check fixes the layout and string spelling; the grammar also knows the number spellings it narrows (no
 * exponent in bounded numbers, nothing that overflows), the ids it allows and every other constraint, so with tools,
 * strict parsing accepts a call exactly when the grammar does. Compiled once per (tools array, format,
 * additionalProperties); `undefined` when the tools do not compile for the format (then the parser's own check
 * stands alone).
 */
const cache = new WeakMap<object, Map<string, UnitCheck | null>>();

function perPolicy(tools: readonly unknown[]): Map<string, UnitCheck | null> {
  let m = cache.get(tools as object);
  if (!m) cache.set(tools as object, (m = new Map()));
  return m;
}

const policyKey = (d: FormatDescription, additionalProperties: "forbid" | "spec"): string =>
  `${d.name}\u0000${additionalProperties}`;

export function strictBlockCheck(
  tools: readonly unknown[],
  d: FormatDescription,
  additionalProperties: "forbid" | "spec",
): UnitCheck | undefined {
  const checks = perPolicy(tools);
  const key = policyKey(d, additionalProperties);
  let f = checks.get(key);
  if (f === undefined) {
    f = compileStrictBlockCheck(tools, d, additionalProperties);
    checks.set(key, f);
  }
  return f ?? undefined;
}

/** strictBlockCheck's check compiled afresh, not cached; null where the tools do not compile for the format. */
export function compileStrictBlockCheck(
  tools: readonly unknown[],
  d: FormatDescription,
  additionalProperties: "forbid" | "spec",
): UnitCheck | null {
  try {
    const g = compileTools(tools, strictCheckOptions(d, additionalProperties));
    return strictCheckOf((text) => g.accepts(text), d);
  } catch (e) {
    if (!(e instanceof ToolgramError)) throw e;
    return null;
  }
}

/** The compile options of strict mode's one-call grammar (see strictBlockCheck). */
export function strictCheckOptions(d: FormatDescription, additionalProperties: "forbid" | "spec"): ToolCompileOptions {
  // one call, nothing around it: llama3-json and pythonic refuse free text before a required call, so no freeText
  return {
    format: d.name,
    toolChoice: "required",
    parallel: false,
    freeText: false,
    reasoning: "none",
    additionalProperties,
  };
}

/** The unit check over the one-call grammar's membership test `accepts` (however and wherever it was compiled). */
export function strictCheckOf(accepts: (text: string) => boolean, d: FormatDescription): UnitCheck {
  // a turn of messages starts after the first call's `open`, which the generation prompt wrote
  // (after the text before the first recipient, when the turn writes it: Muse Glimmer's ` to=`)
  const skip = d.messages !== undefined && d.open !== null ? d.open.length : 0;
  // a family that always closes its reasoning block (MiniMax M3) starts a turn without one with the close alone
  const lead = d.reasoning?.closeAlone === true ? d.reasoning.close : "";
  const first = lead === "" ? firstMessageOpen(d) : firstMessageOpenAfter(d, lead);
  return (unit: string) => accepts(lead + first + joinCallUnits([unit], d).slice(skip));
}

/**
 * Gives `tools` (this very array) the check strictBlockCheck would compile, compiled elsewhere or later (a server's
 * compile worker), or `null` where the tools do not compile for the format; a check already there is kept.
 */
export function adoptStrictBlockCheck(
  tools: readonly unknown[],
  d: FormatDescription,
  additionalProperties: "forbid" | "spec",
  check: UnitCheck | null,
): void {
  const checks = perPolicy(tools);
  const key = policyKey(d, additionalProperties);
  if (!checks.has(key)) checks.set(key, check);
}
