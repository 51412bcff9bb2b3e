/**
 * The UTF-8 encodings of a code-point range as a list of byte-range sequences (the classic utf8-ranges split, as in
 * Rust's regex-syntax): each sequence is [lo1, hi1, lo2, hi2, ...], one byte range per position, and the union of
 * the sequences' byte strings is exactly the set of encodings of [lo, hi].
 */
const MAX_BY_LEN = [0x7f, 0x7ff, 0xffff, 0x10ffff];

export function utf8Sequences(lo: number, hi: number, out: number[][] = []): number[][] {
  if (lo > hi) return out;
  for (const max of MAX_BY_LEN) {
    if (lo <= max && hi > max) {
      utf8Sequences(lo, max, out);
      utf8Sequences(max + 1, hi, out);
      return out;
    }
  }
  if (hi <= 0x7f) {
    out.push([lo, hi]);
    return out;
  }
  for (let i = 1; i < 4; i++) {
    const m = (1 << (6 * i)) - 1;
    if ((lo & ~m) !== (hi & ~m)) {
      if ((lo & m) !== 0) {
        utf8Sequences(lo, lo | m, out);
        utf8Sequences((lo | m) + 1, hi, out);
        return out;
      }
      if ((hi & m) !== m) {
        utf8Sequences(lo, (hi & ~m) - 1, out);
        utf8Sequences(hi & ~m, hi, out);
        return out;
      }
    }
  }
  const a = encodeUtf8(lo);
  const b = encodeUtf8(hi);
  const seq: number[] = [];
  for (let k = 0; k < a.length; k++) seq.push(a[k], b[k]);
  out.push(seq);
  return out;
}

export function encodeUtf8(cp: number): number[] {
  if (cp < 0x80) return [cp];
  if (cp < 0x800) return [0xc0 | (cp >> 6), 0x80 | (cp & 0x3f)];
  if (cp < 0x10000) return [0xe0 | (cp >> 12), 0x80 | ((cp >> 6) & 0x3f), 0x80 | (cp & 0x3f)];
  return [0xf0 | (cp >> 18), 0x80 | ((cp >> 12) & 0x3f), 0x80 | ((cp >> 6) & 0x3f), 0x80 | (cp & 0x3f)];
}
