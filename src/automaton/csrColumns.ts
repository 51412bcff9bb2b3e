/** A copy of `a` with room for at least `len` entries (capacity doubles, so appends are amortized). */
export function grow<T extends Int32Array | Uint8Array>(a: T, len: number): T {
  if (a.length >= len) return a;
  const out = new (a.constructor as new (n: number) => T)(Math.max(len, a.length * 2, 16));
  out.set(a);
  return out;
}

let orderScratch = new Int32Array(1024);
let rowScratch = new Int32Array(1024);

/**
 * Appends rows for states [from, to) to the CSR `start` (room made by the caller), for edges leaving `src[k]` (each
 * one of those states). Returns the edges' indices in row order, or null when they are in row order already (a
 * chain built state after state): the caller copies each column through it.
 */
export function csrAppend(start: Int32Array, from: number, to: number, src: readonly number[]): Int32Array | null {
  const base = start[from];
  const count = src.length;
  let sorted = true;
  for (let k = 1; k < count && sorted; k++) if (src[k] < src[k - 1]) sorted = false;
  if (sorted) {
    let k = 0;
    for (let q = from; q < to; q++) {
      start[q] = base + k;
      while (k < count && src[k] === q) k++;
    }
    start[to] = base + count;
    return null;
  }
  const width = to - from;
  if (rowScratch.length < width + 1) rowScratch = new Int32Array(Math.max(width + 1, rowScratch.length * 2));
  const rows = rowScratch;
  rows.fill(0, 0, width + 1);
  for (let k = 0; k < count; k++) rows[src[k] - from + 1]++;
  for (let i = 0; i < width; i++) rows[i + 1] += rows[i];
  for (let q = from; q <= to; q++) start[q] = base + rows[q - from];
  if (orderScratch.length < count) orderScratch = new Int32Array(Math.max(count, orderScratch.length * 2));
  const order = orderScratch;
  // rows[i] is now where row i starts: fill it up
  for (let k = 0; k < count; k++) order[rows[src[k] - from]++] = k;
  return order;
}

/** Writes `src` (in the order `order` gives, or as is) after the first `base` entries of a column. */
export function putColumn<T extends Int32Array | Uint8Array>(
  col: T,
  base: number,
  src: readonly number[],
  order: Int32Array | null,
): T {
  const count = src.length;
  const out = grow(col, base + count);
  if (order === null) for (let k = 0; k < count; k++) out[base + k] = src[k];
  else for (let k = 0; k < count; k++) out[base + k] = src[order[k]];
  return out;
}
