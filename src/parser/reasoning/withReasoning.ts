import type { ParseResult, ToolCallConstraint } from "../types.js";
import type { ReasoningSplitter } from "./ReasoningSplitter.js";

/**
 * The result of the turn after the reasoning block, in the whole text's offsets, with the reasoning and its issues
 * (first: they come first in the text).
 */
export function withReasoning<T extends ToolCallConstraint>(
  r: ParseResult<T>,
  splitter: ReasoningSplitter | null,
): ParseResult<T> {
  if (splitter === null) return r;
  const { reasoning, issues } = splitter.result();
  const k = splitter.offset;
  const shift = (s: [number, number]): [number, number] => [s[0] + k, s[1] + k];
  if (k !== 0) {
    for (const c of r.calls) c.span = shift(c.span);
    for (const i of r.issues) if (i.span !== undefined) i.span = shift(i.span);
  }
  r.issues.unshift(...issues);
  if (reasoning !== undefined) r.reasoning = reasoning;
  return r;
}
