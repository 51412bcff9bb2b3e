import { type Found, findMarker, type Marker, type MarkerName } from "./xmlParameterMarkers.js";

/**
 * Where the value starting at `from` ends. Its closing marker is the first one the structure goes on after (the next
 * parameter, the call's close, or the end; `placedFrom`): a value may hold the marker itself (a coding model writing a
 * parser or a template), and the marker then counts as text as long as the rest still reads one way. A parameter
 * opening on its own line before the first marker, whose name is a new key (`isNewKey`), ends the value there instead
 * when that marker is where the structure goes on: the value's closing marker was left out. No marker: unclosed.
 */
export function valueEnd(
  text: string,
  from: number,
  m: Record<MarkerName, Marker>,
  placedFrom: (from: number) => Found | null,
  isNewKey: (key: string) => boolean,
): { kind: "closed"; close: Found } | { kind: "before-key"; at: number } | { kind: "unclosed" } {
  const first = findMarker(text, from, m.valueClose);
  if (first === null) return { kind: "unclosed" };
  const placed = placedFrom(from);
  if (placed !== null && placed.start === first.start) {
    for (let p = from; ; ) {
      const k = findMarker(text, p, m.keyOpen);
      if (k === null || k.start >= first.start) break;
      const kc = findMarker(text, k.end, m.keyClose);
      const lineStart = k.start > from && /(^|\n)[ \t]*$/.test(text.slice(from, k.start));
      if (lineStart && kc !== null && kc.start < first.start && isNewKey(text.slice(k.end, kc.start).trim()))
        return { kind: "before-key", at: k.start };
      p = k.end;
    }
  }
  return { kind: "closed", close: placed ?? first };
}

/**
 * The first value-closing marker at or after a position that the structure goes on after (structureFollows), or
 * null. Values are read left to right, so one search serves every later value that starts before the marker found:
 * the scan stays linear however many markers the values hold.
 */
export function placedCloses(text: string, m: Record<MarkerName, Marker>): (from: number) => Found | null {
  let cached: Found | null | undefined;
  // the unit's text ends with the call's close: one further in is text of a value (a nested call a coding model wrote)
  const end = text.trimEnd().length;
  return (from) => {
    if (cached === null || (cached !== undefined && cached.start >= from)) return cached;
    cached = null;
    for (let p = from; ; ) {
      const c = findMarker(text, p, m.valueClose);
      if (c === null || c.end <= p) break;
      if (structureFollows(text, c.end, m, end)) {
        cached = c;
        break;
      }
      p = c.end;
    }
    return cached;
  };
}

/**
 * After a value's closing marker ending at `at`: the next parameter, the call's close ending the unit's text (`end`:
 * where its trailing whitespace starts), or the end (spaces aside).
 */
function structureFollows(text: string, at: number, m: Record<MarkerName, Marker>, end: number): boolean {
  let j = at;
  while (j < text.length && /\s/.test(text[j])) j++;
  if (j === text.length) return true;
  // matched where it stands, never searched for further on (a search per marker would make the scan quadratic)
  if (m.keyOpen.core !== "") {
    m.keyOpen.here.lastIndex = j;
    if (m.keyOpen.here.test(text)) return true;
  }
  if (m.callClose.core === "") return false;
  m.callClose.here.lastIndex = j;
  return m.callClose.here.test(text) && m.callClose.here.lastIndex >= end;
}
