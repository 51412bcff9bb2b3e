/**
 * Where a section marker (SectionDescription's `open` or `close`) stands in the text: `span` is what the marker
 * covers (consumed: neither content nor a call), `exact` whether that is the marker itself.
 */
export type SectionMarkerHit = { kind: "found"; start: number; end: number; exact: boolean } | { kind: "wait"; start: number } | { kind: "none" };

/**
 * The first occurrence of a section marker starting in `s[from, to)`. Strict mode: the marker exactly. Tolerant
 * mode: its core (the marker without its leading and trailing whitespace), taking along the marker's own leading and
 * trailing whitespace where the text has it exactly. Markers padded with newlines (MiniMax M2's
 * `\n<minimax:tool_call>\n`, MiniMax-M1's `<tool_calls>\n`) are written without that padding by models and by
 * vLLM's parser tests (`</think>\n\n<minimax:tool_call>`, `</invoke></minimax:tool_call>`), and the padding must
 * not end up in the content. `wait`: the core ends the text, whose end may still grow into the trailing whitespace
 * (streaming; never when `final`), so the text from `start` on is held back. Text before `from` is never taken.
 */
export function findSectionMarker(s: string, from: number, to: number, marker: string, tolerant: boolean, final: boolean): SectionMarkerHit {
  if (!tolerant) {
    const k = s.slice(from, Math.min(s.length, to + marker.length - 1)).indexOf(marker);
    return k < 0 ? { kind: "none" } : { kind: "found", start: from + k, end: from + k + marker.length, exact: true };
  }
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

/** A marker's leading whitespace, its core, and its trailing whitespace. */
export function splitMarker(marker: string): { lead: string; core: string; trail: string } {
  const core = marker.trim();
  if (core === "") return { lead: "", core: marker, trail: "" };
  const at = marker.indexOf(core);
  return { lead: marker.slice(0, at), core, trail: marker.slice(at + core.length) };
}
