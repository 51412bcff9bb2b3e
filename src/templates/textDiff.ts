/**
 * String comparisons for reading markers out of renders. Common prefixes and suffixes are cut back so they never end
 * (or begin) inside a `<…>` or `[…]` marker, as llama.cpp's autoparser does (`calculate_diff_split`): a marker is
 * all or nothing.
 */

export function commonPrefixLength(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

export function commonSuffixLength(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(a.length - 1 - i) === b.charCodeAt(b.length - 1 - i)) i++;
  return i;
}

const OPENERS = "<[";
const CLOSERS = ">]";

/** The longest common prefix of a and b that does not stop inside an opened marker. */
export function markerPrefix(a: string, b: string): string {
  let p = a.slice(0, commonPrefixLength(a, b));
  for (;;) {
    const open = Math.max(...[...OPENERS].map((c) => p.lastIndexOf(c)));
    if (open < 0) return p;
    const close = Math.max(...[...CLOSERS].map((c) => p.lastIndexOf(c)));
    if (close > open) return p;
    p = p.slice(0, open);
  }
}

/**
 * The common suffix length of a and b where a digit of `b` may be the same digit of `a` plus one: the counter that
 * numbers consecutive calls (Command R7B's `"tool_call_id": "0"` / `"1"`, Kimi's `functions.f:0` / `:1`).
 */
export function counterSuffixLength(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  for (; i < n; i++) {
    const x = a.charCodeAt(a.length - 1 - i);
    const y = b.charCodeAt(b.length - 1 - i);
    if (x === y) continue;
    const isDigit = (c: number): boolean => c >= 48 && c <= 57;
    if (!(isDigit(x) && isDigit(y) && y === x + 1)) break;
  }
  return i;
}

/**
 * The longest common suffix of a and b that does not begin inside a marker that closes later (as a's text).
 * With `counters`, a call counter may differ between them (see counterSuffixLength).
 */
export function markerSuffix(a: string, b: string, counters = false): string {
  let s = a.slice(a.length - (counters ? counterSuffixLength(a, b) : commonSuffixLength(a, b)));
  for (;;) {
    const close = Math.min(...[...CLOSERS].map((c) => (s.indexOf(c) < 0 ? Infinity : s.indexOf(c))));
    if (close === Infinity) return s;
    const open = Math.min(...[...OPENERS].map((c) => (s.indexOf(c) < 0 ? Infinity : s.indexOf(c))));
    if (open < close) return s;
    s = s.slice(close + 1);
  }
}

/** `text` split as a common prefix with `other`, its own middle, and a common suffix (the suffix never overlaps). */
export function diffSplit(other: string, text: string): { prefix: string; middle: string; suffix: string } {
  const p = commonPrefixLength(other, text);
  const s = Math.min(commonSuffixLength(other, text), Math.min(other.length, text.length) - p);
  return { prefix: text.slice(0, p), middle: text.slice(p, text.length - s), suffix: text.slice(text.length - s) };
}
