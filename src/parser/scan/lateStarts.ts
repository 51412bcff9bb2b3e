import type { FormatDescription } from "../../formats/FormatDescription.js";
import { wholeReply } from "../../formats/wholeReply.js";

/**
 * Tolerant reading of a format whose call is the whole reply as a JSON call object or list (Llama 3's
 * `{"name": …, "parameters": …}`, xLAM's `[{"name": …, "arguments": …}]`): the texts that start such a call later
 * in the reply, after text (`<think>…</think>`, a sentence, a fence, a `[TOOL_CALLS]` or `<tool_call>` of another
 * family's habit) or after another call. A JSON object whose first key is the name key is what no prose starts; an
 * empty list when the format has no such call.
 */
export function lateStarts(d: FormatDescription): string[] {
  const u = d.unit;
  if (!wholeReply(d) || u.kind !== "json-object" || u.nameKey === null) return [];
  const key = JSON.stringify(u.nameKey);
  const objects = [`{${key}`, `{ ${key}`, `{\n${key}`];
  return d.grouping === "block" ? objects : [...objects.map((o) => `[${o}`), ...objects.map((o) => `[\n${o}`)];
}

/** The first of `starts` in `s[from…]`: where it begins, or -1. */
export function findLateStart(s: string, from: number, starts: readonly string[]): number {
  let best = -1;
  for (const t of starts) {
    const k = s.indexOf(t, from);
    if (k >= 0 && (best < 0 || k < best)) best = k;
  }
  return best;
}

/**
 * Right after a call, the separators models put between several (`; `, `,`, newlines): from `from`, their end and
 * whether one of `starts` follows ("need": the text so far cannot tell). At most `limit` separator characters.
 */
export function afterSeparators(
  s: string,
  from: number,
  starts: readonly string[],
  final: boolean,
  limit = 64,
): { end: number; call: boolean | "need" } {
  let j = from;
  while (j < s.length && j - from < limit && /[\s;,]/.test(s[j])) j++;
  if (j >= s.length) return { end: j, call: final ? false : "need" };
  for (const t of starts) {
    if (s.startsWith(t, j)) return { end: j, call: true };
    if (!final && s.length - j < t.length && t.startsWith(s.slice(j))) return { end: j, call: "need" };
  }
  return { end: j, call: false };
}
