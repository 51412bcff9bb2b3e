/**
 * Exact decimal arithmetic for number bounds. A `Dec` is the rational `n / 10^s`; every finite double and every
 * midpoint between two adjacent doubles is one, so the set of decimal texts that JSON.parse rounds to a double
 * inside a bound can be described by comparing the text's exact value with such a midpoint.
 */
export interface Dec {
  n: bigint;
  s: number;
}

/** A condition on a text's exact value v: lower `v > t` (or `v >= t` when `incl`), upper `v < t` (or `<=`). */
export interface Threshold {
  t: Dec;
  incl: boolean;
}

export function normDec(d: Dec): Dec {
  let { n, s } = d;
  while (s > 0 && n % 10n === 0n) {
    n /= 10n;
    s--;
  }
  return { n, s };
}

function scaleTo(d: Dec, s: number): bigint {
  return d.n * 10n ** BigInt(s - d.s);
}

export function cmpDec(a: Dec, b: Dec): number {
  const s = Math.max(a.s, b.s);
  const x = scaleTo(a, s);
  const y = scaleTo(b, s);
  return x < y ? -1 : x > y ? 1 : 0;
}

export function negDec(a: Dec): Dec {
  return { n: -a.n, s: a.s };
}

/** Largest integer <= d. */
export function floorDec(d: Dec): bigint {
  const p = 10n ** BigInt(d.s);
  const q = d.n / p;
  return d.n < 0n && q * p !== d.n ? q - 1n : q;
}

export function isIntegerDec(d: Dec): boolean {
  return d.n % 10n ** BigInt(d.s) === 0n;
}

/** The digits after the decimal point of a non-negative Dec, without trailing zeros ("" for an integer). */
export function fractionDigits(d: Dec): string {
  const nd = normDec(d);
  if (nd.s === 0) return "";
  const frac = nd.n % 10n ** BigInt(nd.s);
  return frac.toString().padStart(nd.s, "0");
}

const buf = new DataView(new ArrayBuffer(8));

/** Exact value of a finite double; +-2^1024 stand for the overflow neighbours of +-MAX_VALUE. */
export function decFromDouble(x: number): Dec {
  if (x === Infinity || x === -Infinity) {
    return { n: (x > 0 ? 1n : -1n) * 2n ** 1024n, s: 0 };
  }
  if (x === 0) return { n: 0n, s: 0 };
  buf.setFloat64(0, x);
  const bits = buf.getBigUint64(0);
  const neg = bits >> 63n === 1n;
  const expBits = Number((bits >> 52n) & 0x7ffn);
  const frac = bits & ((1n << 52n) - 1n);
  const mant = expBits === 0 ? frac : frac | (1n << 52n);
  const e = (expBits === 0 ? 1 : expBits) - 1075;
  const sign = neg ? -1n : 1n;
  if (e >= 0) return { n: sign * (mant << BigInt(e)), s: 0 };
  return normDec({ n: sign * mant * 5n ** BigInt(-e), s: -e });
}

/** Bit pattern's last bit: ties in round-to-nearest go to the neighbour whose mantissa is even. Overflow is even. */
function isEvenDouble(x: number): boolean {
  if (!Number.isFinite(x)) return true;
  buf.setFloat64(0, x);
  return (buf.getBigUint64(0) & 1n) === 0n;
}

/** The next double above x (+Infinity above MAX_VALUE); -0 is treated as 0. */
export function nextUp(x: number): number {
  if (x === Infinity) return Infinity;
  if (x === 0) return Number.MIN_VALUE;
  buf.setFloat64(0, x);
  const bits = buf.getBigUint64(0);
  buf.setBigUint64(0, x > 0 ? bits + 1n : bits - 1n);
  return buf.getFloat64(0);
}

export function nextDown(x: number): number {
  return -nextUp(-x);
}

function midpoint(a: number, b: number): Dec {
  const x = decFromDouble(a);
  const y = decFromDouble(b);
  const s = Math.max(x.s, y.s);
  // (x + y) / 2 = 5 (x + y) / 10
  return normDec({ n: (scaleTo(x, s) + scaleTo(y, s)) * 5n, s: s + 1 });
}

/**
 * The exact-value threshold of "JSON.parse(text) >= b" (or "> b" when exclusive): the texts whose value rounds to a
 * double at or above the bound are those above the midpoint between the bound and its predecessor, the midpoint
 * itself included when round-half-to-even sends it up.
 */
export function exactLowerThreshold(bound: number, exclusive: boolean): Threshold {
  let b = bound === 0 ? 0 : bound;
  if (exclusive) b = nextUp(b);
  const p = nextDown(b);
  return { t: midpoint(p, b), incl: isEvenDouble(b) };
}

/** The exact-value threshold of "JSON.parse(text) <= b" (or "< b"). */
export function exactUpperThreshold(bound: number, exclusive: boolean): Threshold {
  let b = bound === 0 ? 0 : bound;
  if (exclusive) b = nextDown(b);
  const q = nextUp(b);
  return { t: midpoint(b, q), incl: isEvenDouble(b) };
}

/**
 * A threshold for "JSON.parse(text) >= b" (or "> b") that keeps every canonical text and stays short: the texts
 * whose value is at least the shortest decimal of the smallest valid double m. Rounding is monotone and that
 * decimal parses to m, so every such text is valid; the shortest decimals of valid doubles are all >= it (shortest
 * decimals keep the doubles' order), so every value keeps its canonical text. What is left out are long spellings
 * between a double and the rounding midpoint below it. When no finite double is valid (exclusive MAX_VALUE), the
 * exact midpoint threshold describes the texts that overflow to Infinity.
 */
export function lowerThreshold(bound: number, exclusive: boolean): Threshold {
  const m = exclusive ? nextUp(bound === 0 ? 0 : bound) : bound;
  if (!Number.isFinite(m)) return exactLowerThreshold(bound, exclusive);
  return { t: decFromText(shortest(m)), incl: true };
}

/** The same as lowerThreshold for "JSON.parse(text) <= b" (or "< b"). */
export function upperThreshold(bound: number, exclusive: boolean): Threshold {
  const m = exclusive ? nextDown(bound === 0 ? 0 : bound) : bound;
  if (!Number.isFinite(m)) return exactUpperThreshold(bound, exclusive);
  return { t: decFromText(shortest(m)), incl: true };
}

/** JavaScript's shortest round-trip decimal of a double (-0 as 0). */
function shortest(x: number): string {
  return x === 0 ? "0" : String(x);
}

/** Exact value of a JSON number text (any JSON number syntax). */
export function decFromText(text: string): Dec {
  const m = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(text);
  if (!m) throw new TypeError(`not a JSON number: ${text}`);
  const digits = m[2] + (m[3] ?? "");
  let s = (m[3] ?? "").length - Number(m[4] ?? "0");
  let n = BigInt(digits) * (m[1] ? -1n : 1n);
  if (s < 0) {
    n *= 10n ** BigInt(-s);
    s = 0;
  }
  return normDec({ n, s });
}
