/** The Markdown fence that opens and closes a code block. */
export const FENCE = "```";

/**
 * How far a fenced JSON block may reach (from its opening fence to its closing one) to be read as a call; text is
 * held back while it is undecided, so the bound also bounds the delay of text events.
 */
export const MAX_FENCE_LENGTH = 65536;

const LANG = /[A-Za-z_]/;
const SPACE = new Set([" ", "\t"]);
const WS = new Set([" ", "\t", "\r", "\n"]);

/**
 * At `f` (where `s` has a fence): a Markdown code block whose content is a JSON object — ```` ```json ````, optional
 * spaces, a newline, optional whitespace, then `{` — closed by another fence before any `marker` (the format's
 * opening marker: a block inside is the format's own business) and within MAX_FENCE_LENGTH. Returns the block's
 * extent and its content's; `null` when it is not such a block; `"need"` when the text seen so far cannot tell
 * (never at `final`), with `searched`: where the next look may resume its search (pass it back as `resumeAt` when
 * `s` has grown, so a long undecided block is not searched again from its start at every chunk). The answer
 * depends only on the text from `f` up to the decision, so a stream decides as the batch does at any chunking.
 */
export function findFence(
  s: string,
  f: number,
  final: boolean,
  marker: string | null,
  resumeAt = 0,
): { end: number; contentStart: number; contentEnd: number } | null | { need: true; searched: number } {
  const limit = f + MAX_FENCE_LENGTH;
  const undecided = (searched: number): { need: true; searched: number } | null =>
    final || s.length >= limit ? null : { need: true, searched };
  let j = f + FENCE.length;
  for (let k = 0; k < 16 && j < s.length && LANG.test(s[j]); k++) j++;
  while (j < s.length && j < limit && SPACE.has(s[j])) j++;
  if (j < s.length && s[j] === "\r") j++;
  if (j >= s.length) return undecided(0);
  if (s[j] !== "\n") return null;
  j++;
  while (j < s.length && j < limit && WS.has(s[j])) j++;
  if (j >= limit) return null;
  if (j >= s.length) return undecided(0);
  if (s[j] !== "{") return null;
  const from = Math.max(j, resumeAt);
  const close = s.indexOf(FENCE, from);
  if (close >= 0) {
    // the marker is looked for only up to the closing fence, so consumed blocks are searched once
    if (marker !== null && s.slice(from, close + marker.length - 1).includes(marker)) return null;
    if (close + FENCE.length > limit) return null;
    return { end: close + FENCE.length, contentStart: j, contentEnd: close };
  }
  if (marker !== null && s.indexOf(marker, from) >= 0) return null;
  // a fence or marker may straddle the end: search again from just before it
  return undecided(Math.max(j, s.length - Math.max(FENCE.length, marker?.length ?? 0) + 1));
}
