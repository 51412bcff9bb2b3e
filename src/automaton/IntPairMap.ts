/**
 * A map from a pair of non-negative integers below 2^31 to a non-negative integer, by open addressing in typed
 * arrays. Building the NFA looks up one shared chain state per state it builds, keyed by (byte range, next state):
 * a `Map` with such keys as one number (above 2^31, not a small integer) cost most of a literal's build.
 */
export class IntPairMap {
  private xs = new Int32Array(256).fill(-1);
  private ys = new Int32Array(256);
  private vs = new Int32Array(256);
  private mask = 255;
  size = 0;

  /** The value of (x, y), or -1. */
  get(x: number, y: number): number {
    const { xs, ys, mask } = this;
    for (let i = hash(x, y) & mask; ; i = (i + 1) & mask) {
      const k = xs[i];
      if (k === -1) return -1;
      if (k === x && ys[i] === y) return this.vs[i];
    }
  }

  /** Sets (x, y) to `v` (a pair not set yet). */
  set(x: number, y: number, v: number): void {
    if ((this.size + 1) * 2 > this.mask) this.rehash();
    this.size++;
    const { xs, ys, vs, mask } = this;
    let i = hash(x, y) & mask;
    while (xs[i] !== -1) i = (i + 1) & mask;
    xs[i] = x;
    ys[i] = y;
    vs[i] = v;
  }

  private rehash(): void {
    const { xs, ys, vs } = this;
    const cap = xs.length * 2;
    this.xs = new Int32Array(cap).fill(-1);
    this.ys = new Int32Array(cap);
    this.vs = new Int32Array(cap);
    this.mask = cap - 1;
    this.size = 0;
    for (let i = 0; i < xs.length; i++) if (xs[i] !== -1) this.set(xs[i], ys[i], vs[i]);
  }
}

function hash(x: number, y: number): number {
  let h = Math.imul(x, 0x9e3779b1) ^ Math.imul(y + 0x7f4a7c15, 0x85ebca6b);
  h ^= h >>> 16;
  h = Math.imul(h, 0x7feb352d);
  return (h ^ (h >>> 15)) >>> 0;
}
