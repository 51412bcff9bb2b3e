/**
 * `multipleOf` as the spec says: the number's value divided by the multiple is an integer, in decimal arithmetic. A
 * double's value is read as its shortest round-trip decimal (the text JavaScript writes for it), so 0.07 is a
 * multiple of 0.01 although `0.07 / 0.01` is 7.000000000000001 in floating point (ajv's check says no there).
 */
export function isDecimalMultiple(value: number, multiple: number): boolean {
  if (!Number.isFinite(value) || !(multiple > 0) || !Number.isFinite(multiple)) return false;
  const v = decimalOf(value);
  const m = decimalOf(multiple);
  const s = Math.max(v.s, m.s);
  const n = v.n * 10n ** BigInt(s - v.s);
  const d = m.n * 10n ** BigInt(s - m.s);
  return n % d === 0n;
}

/** The double's shortest decimal as n / 10^s (s >= 0). */
function decimalOf(x: number): { n: bigint; s: number } {
  const m = /^(-?)(\d+)(?:\.(\d+))?(?:e([+-]\d+))?$/.exec(x === 0 ? "0" : String(x));
  if (m === null) throw new TypeError(`not a finite number: ${x}`);
  const fraction = m[3] ?? "";
  let s = fraction.length - Number(m[4] ?? "0");
  let n = BigInt(m[2] + fraction) * (m[1] ? -1n : 1n);
  if (s < 0) {
    n *= 10n ** BigInt(-s);
    s = 0;
  }
  return { n, s };
}
