import type { Diagnostic } from "../../diagnostic.js";
import { UnsupportedSchemaError } from "../../errors.js";
import type { GExpr } from "../../grammar/Grammar.js";
import { alt, cls, lit, NOTHING, opt, rep, seq } from "../../grammar/build.js";
import type { NumberBound, NumberNode } from "../../schema/SchemaNode.js";
import { naturalRangeTrie, type DigitTrie } from "./digitTrie.js";
import {
  cmpDec,
  decFromText,
  floorDec,
  fractionDigits,
  isIntegerDec,
  lowerThreshold,
  negDec,
  normDec,
  upperThreshold,
  type Threshold,
} from "./exactDecimal.js";
import { fractionRange } from "./fractionRange.js";
import { type DecimalModulus, lowerDecimalMultiple } from "./decimalMultiple.js";
import { renderTrie, renderTrieModulo } from "./renderTrie.js";
import { BoundedMap } from "../../util/BoundedMap.js";

/**
 * Largest integer `multipleOf` enforced exactly. The divisibility check costs one rule per (digit position, residue),
 * so the grammar grows linearly with it; XGrammar uses the same cap (kIntegerMultipleOfMax).
 */
export const MAX_INTEGER_MULTIPLE_OF = 1024;

/**
 * With `multipleOf`, integers are limited to this many digits: it keeps the residue rules finite, and below 2^53
 * every integer text parses to exactly its value, so ajv's `(x / k) % 1` check agrees with divisibility.
 */
export const MULTIPLE_OF_MAX_DIGITS = 15;

export interface NumberLowerEnv {
  strict: boolean;
  warnings: Diagnostic[];
  /** Registers a named rule (base name derived from the schema path) and returns a reference to it. */
  addRule(baseName: string, e: GExpr): GExpr;
  /** Rule-name base for helper rules of this node. */
  ruleBase: string;
}

const DIGIT = cls([0x30, 0x39]);
const NONZERO = cls([0x31, 0x39]);

/**
 * Numbers that overflow to ±Infinity (`1e999`, a 400-digit integer) are refused even where ajv would accept them:
 * `JSON.stringify` writes Infinity as `null`, so such a value would be corrupted by the first server that re-serializes
 * the call. Integer parts have at most 308 digits (< 10^308), and a positive exponent goes with a one-digit integer
 * part and at most 307 (< 10^308, the form JavaScript and Python write); negative exponents only shrink a value.
 * Fewer spellings, never a non-finite value. Values in [10^308, MAX_VALUE] must be written out in full.
 */
const FINITE_NATURAL = alt(lit("0"), seq(NONZERO, rep(DIGIT, 0, 307)));
const FRACTION = seq(lit("."), rep(DIGIT, 1, null));
const EXPONENT_MARK = cls([0x45, 0x45, 0x65, 0x65]);
/** 0..307, leading zeros allowed (JSON allows them in exponents). */
const EXPONENT_UP_TO_307 = seq(
  rep(lit("0"), 0, null),
  alt(DIGIT, seq(NONZERO, DIGIT), seq(cls([0x31, 0x32]), DIGIT, DIGIT), seq(lit("30"), cls([0x30, 0x37]))),
);

/** Every finite JSON number text: `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`, without the overflowing ones. */
export const ANY_NUMBER: GExpr = seq(
  opt(lit("-")),
  alt(
    seq(FINITE_NATURAL, opt(FRACTION), opt(seq(EXPONENT_MARK, lit("-"), rep(DIGIT, 1, null)))),
    seq(DIGIT, opt(FRACTION), EXPONENT_MARK, opt(lit("+")), EXPONENT_UP_TO_307),
  ),
);

/** Integers below 10^308 in magnitude (see ANY_NUMBER: larger ones overflow to Infinity). */
export const ANY_INTEGER: GExpr = seq(opt(lit("-")), FINITE_NATURAL);

/** The largest integer every text of which stays finite: 10^308 - 1. */
const FINITE_INTEGER_CAP = 10n ** 308n - 1n;

function gcd(a: bigint, b: bigint): bigint {
  while (b) [a, b] = [b, a % b];
  return a;
}

/**
 * A number node as the texts JSON.parse turns into a valid value. Bounds are compared exactly, as ajv compares the
 * parsed double: see exactDecimal's thresholds. Bounded numbers and integers are spelled without exponent (fewer
 * spellings, never an invalid value).
 */
export function lowerNumber(node: NumberNode, env: NumberLowerEnv): GExpr {
  // without multipleOf a number's expression depends on its kind and bounds alone (no rule, no warning, no step):
  // tools repeat a few (`page`, `perPage`), so each is built once per process
  if (node.multipleOf === undefined || node.multipleOf.length === 0) {
    const key = `${node.integer ? "i" : node.fractional ? "f" : "n"}|${boundKey(node.minimum)}|${boundKey(node.maximum)}`;
    let e = byBounds.get(key);
    if (e === undefined) {
      byBounds.set(key, (e = lowerNumberUncached(node, env)));
      numberLowerings.lowered++;
    }
    return e;
  }
  return lowerNumberUncached(node, env);
}

/** Numbers lowered (those without multipleOf once per kind and bounds), for tests that count the work. */
export const numberLowerings = { lowered: 0 };

/** Number expressions by kind and bounds, the oldest dropped first. */
const byBounds = new BoundedMap<string, GExpr>({ maxEntries: 1024, order: "insertion" });

function boundKey(b: NumberBound | undefined): string {
  if (b === undefined) return "";
  // String(-0) is "0": the sign is kept apart
  return `${b.exclusive ? "x" : ""}${Object.is(b.value, -0) ? "-0" : String(b.value)}`;
}

function lowerNumberUncached(node: NumberNode, env: NumberLowerEnv): GExpr {
  if (node.fractional) return lowerFractional(node, env);
  const k = multipleOfModulus(node, env);
  let lo = node.minimum ? lowerThreshold(node.minimum.value, node.minimum.exclusive) : null;
  let hi = node.maximum ? upperThreshold(node.maximum.value, node.maximum.exclusive) : null;

  if (k !== undefined && k.k > 0) {
    return lowerDecimalMultiple(lo, hi, k, MULTIPLE_OF_MAX_DIGITS, `${env.ruleBase}-dec`, env.addRule);
  }
  if (node.integer || k !== undefined) {
    let loI = lo ? (isIntegerDec(lo.t) && lo.incl ? floorDec(lo.t) : floorDec(lo.t) + 1n) : null;
    let hiI = hi ? (isIntegerDec(hi.t) && hi.incl ? floorDec(hi.t) : -floorDec(negDec(hi.t)) - 1n) : null;
    if (k !== undefined) {
      const cap = 10n ** BigInt(MULTIPLE_OF_MAX_DIGITS) - 1n;
      if ((loI !== null && loI > cap) || (hiI !== null && hiI < -cap)) {
        const why = `multipleOf is enforced on integers below 10^${MULTIPLE_OF_MAX_DIGITS} only, and the bounds leave none of them`;
        if (env.strict)
          throw new UnsupportedSchemaError(
            "UNSUPPORTED_KEYWORD",
            `${why}; drop multipleOf or compile with strict: false`,
            `${node.path}/multipleOf`,
          );
        env.warnings.push({
          code: "OVER_APPROXIMATED",
          message: `${why}; multipleOf is not enforced`,
          schemaPath: `${node.path}/multipleOf`,
        });
        return lowerNumber({ ...node, multipleOf: undefined }, env);
      }
      loI = loI === null || loI < -cap ? -cap : loI;
      hiI = hiI === null || hiI > cap ? cap : hiI;
    }
    if (loI === null && hiI === null && k === undefined) return ANY_INTEGER;
    // one open side: close it at the finite cap (see ANY_NUMBER)
    if (loI === null || loI < -FINITE_INTEGER_CAP) loI = -FINITE_INTEGER_CAP;
    if (hiI === null || hiI > FINITE_INTEGER_CAP) hiI = FINITE_INTEGER_CAP;
    const render = (t: DigitTrie | null, sign: string): GExpr => {
      if (t === null) return NOTHING;
      if (k === undefined || k.l === 1) return renderTrie(t);
      return renderTrieModulo(t, k.l, `${env.ruleBase}${sign}mod${k.l}`, env.addRule);
    };
    const pos = hiI !== null && hiI < 0n ? null : naturalRangeTrie(loI === null ? 0n : loI, hiI);
    const neg =
      loI !== null && loI > 0n ? null : naturalRangeTrie(hiI === null ? 0n : -hiI, loI === null ? null : -loI);
    return alt(render(pos, "-p-"), seq(lit("-"), render(neg, "-n-")));
  }

  if (!lo && !hi) return ANY_NUMBER;
  // one open side: close it at the largest finite double, so no accepted text overflows to Infinity
  lo ??= lowerThreshold(-Number.MAX_VALUE, false);
  hi ??= upperThreshold(Number.MAX_VALUE, false);
  const negLo: Threshold | null = hi ? { t: negDec(hi.t), incl: hi.incl } : null;
  const negHi: Threshold | null = lo ? { t: negDec(lo.t), incl: lo.incl } : null;
  return alt(nonNegativeDecimal(lo, hi), seq(lit("-"), nonNegativeDecimal(negLo, negHi)));
}

/** Unsigned decimal texts (`(0|[1-9][0-9]*)(\.[0-9]+)?`) whose exact value v >= 0 passes both thresholds. */
function nonNegativeDecimal(lo: Threshold | null, hi: Threshold | null): GExpr {
  if (lo && (lo.t.n < 0n || (lo.t.n === 0n && lo.incl))) lo = null;
  if (hi && (hi.t.n < 0n || (hi.t.n === 0n && !hi.incl))) return NOTHING;
  if (lo && hi) {
    const c = cmpDec(lo.t, hi.t);
    if (c > 0 || (c === 0 && !(lo.incl && hi.incl))) return NOTHING;
  }
  const a = lo ? floorDec(lo.t) : 0n;
  const loFrac = lo ? { digits: fractionDigits(lo.t), incl: lo.incl } : null;
  const b = hi ? floorDec(hi.t) : null;
  const hiFrac = hi ? { digits: fractionDigits(hi.t), incl: hi.incl } : null;
  if (b !== null && a === b) return seq(lit(a.toString()), fractionRange(loFrac, hiFrac));
  const middle = naturalRangeTrie(a + 1n, b === null ? null : b - 1n);
  return alt(
    seq(lit(a.toString()), fractionRange(loFrac, null)),
    middle ? seq(renderTrie(middle), fractionRange(null, null)) : NOTHING,
    b !== null ? seq(lit(b.toString()), fractionRange(null, hiFrac)) : NOTHING,
  );
}

/**
 * The modulus of the scaled value (see decimalMultiple.ts), or undefined; refuses (strict) what cannot be checked
 * exactly. `k` is 0 when every value is an integer (or the node is), and the integer path enforces `l` alone.
 */
function multipleOfModulus(node: NumberNode, env: NumberLowerEnv): DecimalModulus | undefined {
  if (!node.multipleOf || node.multipleOf.length === 0) return undefined;
  const scaled = node.multipleOf.map((m) => normDec(decFromText(m === 0 ? "0" : String(m))));
  let k = Math.max(...scaled.map((d) => d.s));
  let l = 1n;
  for (const d of scaled) {
    const a = d.n * 10n ** BigInt(k - d.s);
    l = (l / gcd(l, a)) * a;
  }
  // an integer that is a multiple of N/10^k is a multiple of lcm(N, 10^k)/10^k
  if (node.integer && k > 0) {
    const p = 10n ** BigInt(k);
    l = ((l / gcd(l, p)) * p) / p;
    k = 0;
  }
  // every integer is a multiple of 1 (and so of 1/n): no constraint left, and no digit limit on the integers
  if (node.integer && k === 0 && l === 1n) return undefined;
  if (k >= MULTIPLE_OF_MAX_DIGITS || l > BigInt(MAX_INTEGER_MULTIPLE_OF)) {
    const what = node.multipleOf.length === 1 ? `multipleOf ${node.multipleOf[0]}` : `the multipleOf values combined`;
    const why =
      k >= MULTIPLE_OF_MAX_DIGITS
        ? `${what} needs ${k} fraction digits, at or above the ${MULTIPLE_OF_MAX_DIGITS} exactly enforced`
        : `${what} scales to the integer modulus ${l}, above the exactly enforced maximum ${MAX_INTEGER_MULTIPLE_OF}`;
    if (env.strict) {
      throw new UnsupportedSchemaError(
        "UNSUPPORTED_KEYWORD",
        `${why}; use a multipleOf whose digits (decimal point removed) form an integer <= ${MAX_INTEGER_MULTIPLE_OF}, or compile with strict: false to accept any number here`,
        `${node.path}/multipleOf`,
      );
    }
    env.warnings.push({
      code: "OVER_APPROXIMATED",
      message: `${why}; the grammar does not enforce it`,
      schemaPath: `${node.path}/multipleOf`,
    });
    return undefined;
  }
  return { l: Number(l), k };
}

/** Most integers a bounded non-integer range may straddle (one open interval between each two). */
export const MAX_FRACTIONAL_INTERVALS = 64;

/**
 * Numbers that are not integers (the complement of `integer`). Unbounded: a fraction with a non-zero digit (the
 * first one marks where it is: one parse per text), no exponent (fewer spellings: `1.5e1` is 15). Bounded: the open unit intervals between the integers of the range,
 * each a bounded number (every number strictly between two integers has a fraction). Elsewhere refused.
 */
function lowerFractional(node: NumberNode, env: NumberLowerEnv): GExpr {
  if (!node.multipleOf?.length && !node.minimum && !node.maximum)
    return seq(opt(lit("-")), FINITE_NATURAL, lit("."), rep(lit("0"), 0, null), NONZERO, rep(DIGIT, 0, null));
  const lo = node.minimum;
  const hi = node.maximum;
  const refuse = (why: string): GExpr => {
    if (env.strict) throw new UnsupportedSchemaError("UNSUPPORTED_KEYWORD", `not integer: ${why}`, node.path);
    env.warnings.push({
      code: "OVER_APPROXIMATED",
      message: `not integer: ${why}; accepting integers too`,
      schemaPath: node.path,
    });
    return lowerNumber({ ...node, fractional: undefined }, env);
  };
  if (node.multipleOf?.length) return refuse("a non-integer number with multipleOf is not supported");
  if (!lo || !hi || !Number.isFinite(lo.value) || !Number.isFinite(hi.value))
    return refuse("a non-integer number bounded on one side only is not supported");
  const first = Math.floor(lo.value);
  const last = Math.ceil(hi.value);
  if (last - first > MAX_FRACTIONAL_INTERVALS)
    return refuse(`the range straddles more than ${MAX_FRACTIONAL_INTERVALS} integers`);
  const parts: GExpr[] = [];
  for (let i = first; i < last; i++) {
    const min = i >= lo.value ? { value: i, exclusive: true } : lo;
    const max = i + 1 <= hi.value ? { value: i + 1, exclusive: true } : hi;
    if (min.value > max.value || (min.value === max.value && (min.exclusive || max.exclusive))) continue;
    parts.push(lowerNumber({ kind: "number", path: node.path, integer: false, minimum: min, maximum: max }, env));
  }
  return alt(...parts);
}
