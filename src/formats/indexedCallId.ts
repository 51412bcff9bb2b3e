import type { NamedJsonUnit } from "./FormatDescription.js";

/** An index as grammars write it: no leading zeros, at most 6 digits. */
const INDEX = /^(?:0|[1-9][0-9]{0,5})$/;

/**
 * The head of a call unit with a call index (NamedJsonUnit.callIndex, Kimi K2's `functions.NAME:IDX`), which is also
 * the call's id: the call's own id when it has that shape for this name, else the one of its position in the turn.
 */
export function indexedCallId(u: NamedJsonUnit, name: string, id: string | undefined, position: number): string {
  const c = u.callIndex;
  if (c === undefined) throw new Error("internal: the unit has no call index");
  const head = c.namePrefix + name + c.indexSeparator;
  return id?.startsWith(head) && INDEX.test(id.slice(head.length)) ? id : head + String(position);
}

/** Reads `namePrefix + NAME + indexSeparator + INDEX`; null when `head` does not have that shape. */
export function readIndexedCallId(u: NamedJsonUnit, head: string): { name: string; index: string } | null {
  const c = u.callIndex;
  if (c === undefined || !head.startsWith(c.namePrefix)) return null;
  const k = head.lastIndexOf(c.indexSeparator);
  if (k < c.namePrefix.length) return null;
  const index = head.slice(k + c.indexSeparator.length);
  const name = head.slice(c.namePrefix.length, k);
  return name !== "" && /^[0-9]+$/.test(index) ? { name, index } : null;
}

/** The index is spelled as grammars write it. */
export function isCanonicalIndex(index: string): boolean {
  return INDEX.test(index);
}
