import { splitMarker } from "../../formats/splitMarker.js";

/**
 * Where a section marker (SectionDescription's `open` or `close`) stands in the text: `start`/`end` bound what the
 * marker covers (consumed: neither content nor a call), `exact` says whether that is the marker itself.
 */
export type SectionMarkerHit =
  | { kind: "found"; start: number; end: number; exact: boolean }
  | { kind: "wait"; start: number }
  | { kind: "none" };

/**
 * The first section marker whose core starts in `s[from, to)`: the core (the marker without its leading and trailing
 * whitespace, splitMarker), with the marker's own leading and trailing whitespace taken along where the text has it
 * exactly. Markers padded with newlines (MiniMax M2's `\n<minimax:tool_call>\n`, MiniMax-M1's `<tool_calls>\n`) are
 * written without that padding by models and by vLLM's parser tests (`</think>\n\n<minimax:tool_call>`,
 * `</invoke></minimax:tool_call>`): tolerant parsing reads them as the marker, strict parsing reports them, and the
 * padding never ends up in the content. Grammars keep the core out of text, so strict parsing still agrees with them.
 * `wait`: the core ends the text, which may still grow into the trailing whitespace (streaming; never when `final`):
 * the text from `start` on is held back. Text before `from` is never taken.
 */
export function findSectionMarker(
  s: string,
  from: number,
  to: number,
  marker: string,
  final: boolean,
): SectionMarkerHit {
  const { lead, core, trail } = splitMarker(marker);
  const k = s.slice(from, Math.min(s.length, to + core.length - 1)).indexOf(core);
  if (k < 0) return { kind: "none" };
  const c = from + k;
  const start = c - lead.length >= from && s.startsWith(lead, c - lead.length) ? c - lead.length : c;
  let end = c + core.length;
  if (s.startsWith(trail, end)) end += trail.length;
  else if (!final && s.length - end < trail.length && trail.startsWith(s.slice(end))) return { kind: "wait", start };
  return { kind: "found", start, end, exact: s.slice(start, end) === marker };
}
