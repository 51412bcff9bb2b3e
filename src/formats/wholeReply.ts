import type { FormatDescription } from "./FormatDescription.js";

/**
 * The format's call is the whole reply: no opening marker and no section around the calls (llama3-json, pythonic).
 * Text and calls are then alternatives, and the parser decides at the reply's start whether it is a call.
 */
export function wholeReply(d: FormatDescription): boolean {
  return d.open === null && d.section === undefined;
}
