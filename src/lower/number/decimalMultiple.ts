import type { GExpr } from "../../grammar/Grammar.js";
import { alt, cls, isNothing, lit, NOTHING, seq } from "../../grammar/build.js";
import { type DigitTrie, naturalRangeTrie, sameLength } from "./digitTrie.js";
import { floorDec, isIntegerDec, negDec, type Threshold } from "./exactDecimal.js";
import { renderTrie, renderTrieModulo } from "./renderTrie.js";

/**
 * `multipleOf` with decimal values, as the spec says: a number x is a multiple of m = a·10^-k when x·10^k / a is an
 * integer. With several values, K is the largest k and L the least common multiple of the values scaled by 10^K;
 * x is then valid exactly when N = x·10^K is an integer divisible by L. A text `I.F` has N = I·10^K + F·10^(K-|F|),
 * so the valid texts are those with at most K fraction digits whose digits, read left to right, leave residue 0
 * modulo L once the missing fraction digits are counted as zeros: one rule per (digit position, residue).
 */
export interface DecimalModulus {
  /** The modulus of the scaled value (at most MAX_INTEGER_MULTIPLE_OF). */
  l: number;
  /** The scale: fraction digits at most. */
  k: number;
}

/**
 * N is kept below 10^15 (`maxDigits`), so every accepted text has at most 15 significant digits and parses to the
 * double whose shortest decimal is the text's value: the referee's decimal check then reads the same number.
 */
export function lowerDecimalMultiple(
  lo: Threshold | null,
  hi: Threshold | null,
  m: DecimalModulus,
  maxDigits: number,
  name: string,
  addRule: (name: string, e: GExpr) => GExpr,
): GExpr {
  const cap = 10n ** BigInt(maxDigits) - 1n;
  const scale = 10n ** BigInt(m.k);
  const scaled = (t: Threshold): Threshold => ({ t: { n: t.t.n * scale, s: t.t.s }, incl: t.incl });
  const fractions = new FractionRules(m, name, addRule);
  const nonNegative = (l: Threshold | null, h: Threshold | null, sign: string): GExpr => {
    const nLo = l === null ? 0n : lowestAbove(scaled(l));
    const nHi = h === null ? cap : highestBelow(scaled(h));
    return scaledRange(nLo < 0n ? 0n : nLo, nHi > cap ? cap : nHi, m, scale, fractions, `${name}${sign}`, addRule);
  };
  const negLo = hi === null ? null : { t: negDec(hi.t), incl: hi.incl };
  const negHi = lo === null ? null : { t: negDec(lo.t), incl: lo.incl };
  return alt(nonNegative(lo, hi, "-p"), seq(lit("-"), nonNegative(negLo, negHi, "-n")));
}

/** The least integer N passing a lower threshold. */
function lowestAbove(t: Threshold): bigint {
  const f = floorDec(t.t);
  return isIntegerDec(t.t) && t.incl ? f : f + 1n;
}

/** The greatest integer N passing an upper threshold. */
function highestBelow(t: Threshold): bigint {
  const f = floorDec(t.t);
  return isIntegerDec(t.t) && !t.incl ? f - 1n : f;
}

/** Texts of the values N/10^K, N in [nLo, nHi] (both >= 0), N divisible by L. */
function scaledRange(
  nLo: bigint,
  nHi: bigint,
  m: DecimalModulus,
  scale: bigint,
  fractions: FractionRules,
  name: string,
  addRule: (name: string, e: GExpr) => GExpr,
): GExpr {
  if (nLo > nHi) return NOTHING;
  const iLo = nLo / scale;
  const iHi = nHi / scale;
  const digits = (f: bigint): string => f.toString().padStart(m.k, "0");
  const top = "9".repeat(m.k);
  const edge = (i: bigint, fLo: string, fHi: string): GExpr =>
    seq(lit(i.toString()), fractions.after(sameLength(fLo, fHi), Number(i % BigInt(m.l))));
  if (iLo === iHi) return edge(iLo, digits(nLo % scale), digits(nHi % scale));
  const middle = naturalRangeTrie(iLo + 1n, iHi - 1n);
  const whole: DigitTrie = { kind: "free", min: m.k, max: m.k };
  return alt(
    edge(iLo, digits(nLo % scale), top),
    middle === null
      ? NOTHING
      : m.l === 1
        ? seq(renderTrie(middle), fractions.after(whole, 0))
        : renderTrieModulo(middle, m.l, `${name}-mod${m.l}`, addRule, (r) => fractions.after(whole, r)),
    edge(iHi, "0".repeat(m.k), digits(nHi % scale)),
  );
}

/**
 * What may follow an integer part with residue r: nothing, or `.` and 1..K fraction digits from a K-digit trie,
 * stopping early only where the rest could be zeros (the value is the same), and only at residue 0 counted so.
 */
class FractionRules {
  private readonly memo = new Map<string, GExpr>();
  private readonly ids = new Map<DigitTrie, number>();
  private readonly runs: DigitTrie[] = [];
  private readonly zeros = new Map<DigitTrie, boolean>();

  constructor(
    private readonly m: DecimalModulus,
    private readonly name: string,
    private readonly addRule: (name: string, e: GExpr) => GExpr,
  ) {}

  after(t: DigitTrie, r: number): GExpr {
    const none = this.canStop(t, r, this.m.k) ? seq() : NOTHING;
    const digits = this.digits(t, r, this.m.k);
    return alt(none, isNothing(digits) ? NOTHING : seq(lit("."), digits));
  }

  /** Whether the text may end here: the remaining `left` digits can all be 0 and the residue then is 0. */
  private canStop(t: DigitTrie, r: number, left: number): boolean {
    return this.zeroPath(t) && (BigInt(r) * 10n ** BigInt(left)) % BigInt(this.m.l) === 0n;
  }

  private zeroPath(t: DigitTrie): boolean {
    if (t.kind === "free") return true;
    let z = this.zeros.get(t);
    if (z === undefined) {
      z = t.branches.some((b) => b.lo === 0 && this.zeroPath(b.next));
      this.zeros.set(t, z);
    }
    return z;
  }

  private run(n: number): DigitTrie {
    this.runs[n] ??= { kind: "free", min: n, max: n };
    return this.runs[n];
  }

  /** One or more digits of the trie, from residue r with `left` digits to go. */
  private digits(t: DigitTrie, r: number, left: number): GExpr {
    if (left === 0) return NOTHING;
    // every free run of the same length is the same language: one key for all of them
    let id = t.kind === "free" ? "f" : this.ids.get(t);
    if (id === undefined) this.ids.set(t, (id = this.ids.size));
    const key = `${id}-${r}-${left}`;
    const hit = this.memo.get(key);
    if (hit !== undefined) return hit;
    const branches = t.kind === "free" ? [{ lo: 0, hi: 9, next: this.run(left - 1) }] : t.branches;
    const parts: GExpr[] = [];
    for (const b of branches) {
      const byTarget = new Map<number, number[]>();
      for (let d = b.lo; d <= b.hi; d++) {
        const r2 = (r * 10 + d) % this.m.l;
        const list = byTarget.get(r2) ?? [];
        list.push(0x30 + d, 0x30 + d);
        byTarget.set(r2, list);
      }
      for (const [r2, ranges] of byTarget) {
        const stop = this.canStop(b.next, r2, left - 1) ? seq() : NOTHING;
        parts.push(seq(cls(ranges), alt(stop, this.digits(b.next, r2, left - 1))));
      }
    }
    const body = alt(...parts);
    const out = isNothing(body) || body.type === "charClass" ? body : this.addRule(`${this.name}-frac-${key}`, body);
    this.memo.set(key, out);
    return out;
  }
}
