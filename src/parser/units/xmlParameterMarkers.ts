import type { XmlParametersUnit } from "../../formats/FormatDescription.js";

/** A marker found in the text: where it starts and ends, and whether it is spelled exactly. */
export type Found = { start: number; end: number; exact: boolean };

/** A marker split into its leading whitespace, its core, and its trailing whitespace. */
export interface Marker {
  lead: string;
  core: string;
  trail: string;
  /** The core with each whitespace run matching any whitespace (tolerant reading). */
  loose: RegExp;
  /** `loose` matching only where it is tried (sticky). */
  here: RegExp;
}

function marker(m: string): Marker {
  // a marker of whitespace only (GLM's `\n` after the name) is what follows the text before it: all trail
  if (m.trim() === "") return { lead: "", core: "", trail: m, loose: /(?:)/g, here: /(?:)/y };
  const lead = /^\s*/.exec(m)?.[0] ?? "";
  const trail = m.length > lead.length ? (/\s*$/.exec(m)?.[0] ?? "") : "";
  const core = m.slice(lead.length, m.length - trail.length);
  const src = core
    .split(/\s+/)
    .map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
    .join("\\s*")
    // two tags of one marker (GLM-4.7's `</arg_key><arg_value>`) may stand on lines of their own, as models write them
    .replaceAll("><", ">\\s*<");
  return { lead, core, trail, loose: new RegExp(src, "g"), here: new RegExp(src, "y") };
}

export type MarkerName =
  | "recipientClose"
  | "nameOpen"
  | "nameClose"
  | "keyOpen"
  | "keyClose"
  | "valueClose"
  | "callClose"
  | "indexClose"
  | "typeClose";
/** Per unit, its markers split (a unit is one object per format). */
const markers = new WeakMap<XmlParametersUnit, Record<MarkerName, Marker>>();

export function markersOf(u: XmlParametersUnit): Record<MarkerName, Marker> {
  let m = markers.get(u);
  if (!m) {
    m = {
      recipientClose: marker(u.recipient?.close ?? ""),
      nameOpen: marker(u.nameOpen),
      nameClose: marker(u.nameClose),
      keyOpen: marker(u.keyOpen),
      keyClose: marker(u.keyClose),
      valueClose: marker(u.valueClose),
      callClose: marker(u.callClose),
      indexClose: marker(u.callIndex?.close ?? ""),
      typeClose: marker(u.valueType?.close ?? ""),
    };
    markers.set(u, m);
  }
  return m;
}

/** The first match of `m`'s core at or after `from` (loosely spaced), or null. */
export function findMarker(text: string, from: number, m: Marker): Found | null {
  if (m.core === "") return null;
  m.loose.lastIndex = from;
  const r = m.loose.exec(text);
  if (!r) return null;
  return { start: r.index, end: r.index + r[0].length, exact: r[0] === m.core };
}
