import type { FormatDescription } from "../../formats/FormatDescription.js";
import type { ScannedBlock } from "./ScannedBlock.js";

/**
 * Tolerant re-reading of a block the input ended inside (`end: "eof"`): the scanner may have been inside a string
 * that was never closed, hiding the block's closing marker. Cuts the block at its first closing marker after the
 * body's start; the text after the cut is to be scanned again. Returns null when the block holds no closing marker.
 * `cancelled`: the slots of units that lay wholly past the cut (their text is read again from the rest).
 */
export function cutAtCloseMarker(
  b: ScannedBlock,
  d: FormatDescription,
): { block: ScannedBlock; rest: string; restAt: number; cancelled: number[] } | null {
  if (d.close === null) return null;
  const k = b.text.indexOf(d.close, b.bodyStart);
  if (k < 0) return null;
  const cut = k + d.close.length;
  const past = (u: { start: number; end: number }): boolean => u.start >= k && u.end > k;
  const cancelled = b.units.filter(past).map((u) => u.slot);
  const units = b.units.filter((u) => !past(u)).map((u) => ({ ...u, end: Math.min(u.end, k) }));
  return {
    block: { ...b, text: b.text.slice(0, cut), units, closed: true },
    rest: b.text.slice(cut),
    restAt: b.start + cut,
    cancelled,
  };
}
