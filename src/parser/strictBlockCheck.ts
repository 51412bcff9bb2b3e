import { firstMessageOpen, firstMessageOpenAfter } from "../formats/messageHead.js";
import { compileTools } from "../compile.js";
import { ToolgramError } from "../errors.js";
import type { FormatDescription } from "../formats/FormatDescription.js";
import { joinCallUnits } from "./renderToolCalls.js";

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
const cache = new WeakMap<object, Map<string, ((unit: string) => boolean) | null>>();

export function strictBlockCheck(
  tools: readonly unknown[],
  d: FormatDescription,
  additionalProperties: "forbid" | "spec",
): ((unit: string) => boolean) | undefined {
  let perPolicy = cache.get(tools as object);
  if (!perPolicy) cache.set(tools as object, (perPolicy = new Map()));
  const key = `${d.name}\u0000${additionalProperties}`;
  let f = perPolicy.get(key);
  if (f === undefined) {
    try {
      // one call, nothing around it: llama3-json and pythonic refuse free text before a required call, so no freeText
      const g = compileTools(tools, {
        format: d.name,
        toolChoice: "required",
        parallel: false,
        freeText: false,
        reasoning: "none",
        additionalProperties,
      });
      // a turn of messages starts after the first call's `open`, which the generation prompt wrote
      // (after the text before the first recipient, when the turn writes it: Muse Glimmer's ` to=`)
      const skip = d.messages !== undefined && d.open !== null ? d.open.length : 0;
      // a family that always closes its reasoning block (MiniMax M3) starts a turn without one with the close alone
      const lead = d.reasoning?.closeAlone === true ? d.reasoning.close : "";
      const first = lead === "" ? firstMessageOpen(d) : firstMessageOpenAfter(d, lead);
      f = (unit: string) => g.accepts(lead + first + joinCallUnits([unit], d).slice(skip));
    } catch (e) {
      if (!(e instanceof ToolgramError)) throw e;
      f = null;
    }
    perPolicy.set(key, f);
  }
  return f ?? undefined;
}
