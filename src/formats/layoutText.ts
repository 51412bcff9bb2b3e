import type { FormatDescription } from "./FormatDescription.js";

/**
 * The canonical text between and after `calls` call blocks (`blockSeparator`s and `afterCalls`): outside the blocks,
 * so parse results count it as content, and `renderToolCalls` writes it itself. Empty for list formats and no calls.
 */
export function callsLayoutText(d: FormatDescription, calls: number): string {
  if (d.grouping !== "block" || calls === 0) return "";
  return d.blockSeparator.repeat(calls - 1) + (d.afterCalls ?? "");
}

/** `content` of a parse result without the layout text of its `calls` blocks: the text before the first call. */
export function contentBeforeCalls(d: FormatDescription, content: string, calls: number): string {
  const layout = callsLayoutText(d, calls);
  return content.endsWith(layout) ? content.slice(0, content.length - layout.length) : content;
}
