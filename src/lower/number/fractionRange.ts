import type { GExpr } from "../../grammar/Grammar.js";
import { alt, cls, EPSILON, lit, NOTHING, rep, seq } from "../../grammar/build.js";

/** A bound on a fraction 0.D: `digits` has no trailing zeros ("" = 0). */
export interface FracBound {
  digits: string;
  incl: boolean;
}

const DIGIT = cls([0x30, 0x39]);
const ANY_DIGITS = rep(DIGIT, 0, null);

function digitClass(lo: number, hi: number): GExpr {
  return lo > hi ? NOTHING : cls([0x30 + lo, 0x30 + hi]);
}

/**
 * The optional fraction part (`` or `.` digits) of a decimal text whose fraction value 0.D lies between `lo` and
 * `hi` (null = no bound on that side; the fraction is always in [0, 1)). Trailing zeros are allowed ("1.50"), so
 * the walk compares digit by digit and tracks whether the text still equals each bound's prefix.
 */
export function fractionRange(lo: FracBound | null, hi: FracBound | null): GExpr {
  const zeroOk = (lo === null || (lo.digits === "" && lo.incl)) && (hi === null || hi.digits !== "" || hi.incl);
  const digits = walk(lo, hi, 0, lo !== null, hi !== null);
  return alt(zeroOk ? EPSILON : NOTHING, seq(lit("."), digits));
}

/**
 * Digit strings continuing a fraction after `i` digits; `tl`/`th`: the digits so far equal the lower/upper bound's
 * prefix. At i = 0 at least one digit must follow (the caller wrote the point).
 */
function walk(lo: FracBound | null, hi: FracBound | null, i: number, tl: boolean, th: boolean): GExpr {
  if (!tl && !th) return i === 0 ? rep(DIGIT, 1, null) : ANY_DIGITS;
  const loLen = lo ? lo.digits.length : 0;
  const hiLen = hi ? hi.digits.length : 0;
  // past both bounds' digits: the remaining bound digits are zeros, closed forms end the recursion
  if (i >= (tl ? loLen : 0) && i >= (th ? hiLen : 0)) {
    if (tl && th) {
      // equal to both bounds so far: only zeros keep it equal and a nonzero digit exceeds the upper bound
      return lo!.incl && hi!.incl ? rep(lit("0"), i === 0 ? 1 : 0, null) : NOTHING;
    }
    if (tl) {
      return lo!.incl ? rep(DIGIT, i === 0 ? 1 : 0, null) : seq(rep(lit("0"), 0, null), digitClass(1, 9), ANY_DIGITS);
    }
    return hi!.incl ? rep(lit("0"), i === 0 ? 1 : 0, null) : NOTHING;
  }
  // may the text end here? (only once at least one digit was read)
  let endOk = i > 0;
  if (endOk && tl) endOk = i >= loLen && lo!.incl; // equal-so-far is below lo unless lo is exhausted
  if (endOk && th) endOk = i < hiLen || hi!.incl;
  const a = tl ? (i < loLen ? Number(lo!.digits[i]) : 0) : 0;
  const b = th ? (i < hiLen ? Number(hi!.digits[i]) : 0) : 9;
  const parts: GExpr[] = [endOk ? EPSILON : NOTHING];
  if (a > b) return alt(...parts);
  if (tl && th && a === b) {
    parts.push(seq(digitClass(a, a), walk(lo, hi, i + 1, true, true)));
    return alt(...parts);
  }
  // digits strictly inside (a, b) free the rest; the end digits keep one bound tight
  const s = tl ? a + 1 : a;
  const e = th ? b - 1 : b;
  if (tl) parts.push(seq(digitClass(a, a), walk(lo, hi, i + 1, true, false)));
  if (s <= e) parts.push(seq(digitClass(s, e), ANY_DIGITS));
  if (th) parts.push(seq(digitClass(b, b), walk(lo, hi, i + 1, false, true)));
  return alt(...parts);
}
