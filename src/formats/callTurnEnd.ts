import type { FormatDescription } from "./FormatDescription.js";

/**
 * `text` without the end-of-turn token a template writes after a turn's calls (FormatDescription.callTurnEnd): the
 * reply as the model generates it up to that token, which ends generation and is no part of the calls.
 */
export function withoutCallTurnEnd(d: FormatDescription, text: string): string {
  const end = d.callTurnEnd;
  return end !== undefined && end !== "" && text.endsWith(end) ? text.slice(0, text.length - end.length) : text;
}
