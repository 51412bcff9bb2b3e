import { compileTools } from "../compile.js";
import { ToolgramError } from "../errors.js";

/**
 * Strict mode's last word on a Qwen3 call block: the compiled grammar of one call of the declared tools. The parser's
 * own canonical check fixes the layout and string spelling; the grammar also knows the number spellings it narrows
 * (no exponent in bounded numbers, nothing that overflows) and every other constraint, so with tools, strict parsing
 * accepts a block exactly when the grammar does. Compiled once per tools array; `undefined` when the tools do not
 * compile in strict mode (then the parser's own check stands alone).
 */
const cache = new WeakMap<object, Map<string, ((block: string) => boolean) | null>>();

export function strictBlockCheck(tools: readonly unknown[], additionalProperties: "forbid" | "spec"): ((block: string) => boolean) | undefined {
  let perPolicy = cache.get(tools as object);
  if (!perPolicy) cache.set(tools as object, (perPolicy = new Map()));
  let f = perPolicy.get(additionalProperties);
  if (f === undefined) {
    try {
      const g = compileTools(tools, { toolChoice: "required", parallel: false, freeText: false, additionalProperties });
      f = (block: string) => g.accepts(block);
    } catch (e) {
      if (!(e instanceof ToolgramError)) throw e;
      f = null;
    }
    perPolicy.set(additionalProperties, f);
  }
  return f ?? undefined;
}
