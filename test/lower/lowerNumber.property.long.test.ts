import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  cmpDec,
  decFromDouble,
  decFromText,
  exactLowerThreshold,
  exactUpperThreshold,
  nextDown,
  nextUp,
  normDec,
  type Dec,
} from "../../src/lower/number/exactDecimal.js";
import { isDecimalMultiple } from "../../src/schema/isDecimalMultiple.js";
import type { NumberNode } from "../../src/schema/SchemaNode.js";
import { ajv, numberAcceptor, numberSchema } from "../support/lower/numberHarness.js";

const SEED = Number(process.env.FC_SEED ?? 20261122);
const RUNS = Number(process.env.FC_RUNS ?? 50);

/** A Dec as a plain decimal text (no exponent). */
function decText(d: Dec): string {
  const { n, s } = normDec(d);
  const neg = n < 0n;
  const digits = (neg ? -n : n).toString().padStart(s + 1, "0");
  const int = digits.slice(0, digits.length - s);
  const frac = digits.slice(digits.length - s);
  return (neg ? "-" : "") + int + (frac ? `.${frac}` : "");
}

function midText(a: number, b: number): Dec {
  const x = decFromDouble(a);
  const y = decFromDouble(b);
  const s = Math.max(x.s, y.s);
  const sum = x.n * 10n ** BigInt(s - x.s) + y.n * 10n ** BigInt(s - y.s);
  return normDec({ n: sum * 5n, s: s + 1 });
}

/** Texts at and around a bound: its exact value, its neighbours, the rounding midpoints and just beside them. */
function textsNear(b: number, integer: boolean): string[] {
  const out = new Set<string>();
  const decs: Dec[] = [
    decFromDouble(b),
    decFromDouble(nextUp(b)),
    decFromDouble(nextDown(b)),
    midText(nextDown(b), b),
    midText(b, nextUp(b)),
  ];
  for (const d of decs) {
    out.add(decText(d));
    for (const extra of [1, 3]) {
      const scaled = { n: d.n * 10n ** BigInt(extra), s: d.s + extra };
      out.add(decText({ n: scaled.n + 1n, s: scaled.s }));
      out.add(decText({ n: scaled.n - 1n, s: scaled.s }));
    }
    const i = d.n / 10n ** BigInt(d.s);
    for (const k of [-2n, -1n, 0n, 1n, 2n]) out.add((i + k).toString());
  }
  out.add(String(b));
  const texts = [...out].filter((t) => t.length < 420).map((t) => t.replace(/^-0$/, "-0"));
  return integer ? texts.filter((t) => /^-?\d+$/.test(t)) : texts;
}

// extreme magnitudes (subnormals, MAX_VALUE) make grammars of ~1000 digits: rare, so the suite stays fast
const bound = fc.oneof(
  { arbitrary: fc.integer({ min: -1000, max: 1000 }), weight: 6 },
  { arbitrary: fc.integer({ min: -1_000_000, max: 1_000_000 }).map((x) => x / 1000), weight: 6 },
  { arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e30, max: 1e30 }), weight: 4 },
  {
    arbitrary: fc.constantFrom(
      0,
      -0,
      0.1,
      -0.1,
      2 ** 53,
      2 ** 53 + 2,
      -(2 ** 53),
      1e21,
      1e-7,
      5e-324,
      -5e-324,
      Number.MAX_VALUE,
      -Number.MAX_VALUE,
      1e300,
    ),
    weight: 2,
  },
  { arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true }), weight: 1 },
);

/** The text lowering keeps for a value: its shortest decimal, written without exponent. */
function canonicalText(x: number): string {
  return decText(decFromText(x === 0 ? "0" : String(x)));
}

const canonicalSyntax = (t: string, integer: boolean): boolean =>
  (integer ? /^-?(0|[1-9]\d*)$/ : /^-?(0|[1-9]\d*)(\.\d+)?$/).test(t);

function run(integer: boolean): void {
  fc.assert(
    fc.property(
      fc.option(bound, { nil: undefined }),
      fc.option(bound, { nil: undefined }),
      fc.boolean(),
      fc.boolean(),
      fc.array(fc.integer({ min: -3000, max: 3000 }), { maxLength: 6 }),
      (lo, hi, ex1, ex2, extra) => {
        const node: NumberNode = { kind: "number", path: "", integer };
        if (lo !== undefined) node.minimum = { value: lo, exclusive: ex1 };
        if (hi !== undefined) node.maximum = { value: hi, exclusive: ex2 };
        const acc = numberAcceptor(node);
        const validate = ajv.compile(numberSchema(node));
        const texts = [
          ...(lo !== undefined ? textsNear(lo, integer) : []),
          ...(hi !== undefined ? textsNear(hi, integer) : []),
          ...extra.map((x) => String(integer ? x : x / 100)),
          "0",
          "-0",
          "1e5",
          "-2.5E-3",
        ];
        for (const t of texts) {
          const x = JSON.parse(t) as number;
          const valid = validate(x) as boolean;
          const got = acc.accepts(t);
          // never a text of an invalid value; always the canonical text of a valid one
          if (got) expect({ t, valid }).toEqual({ t, valid: true });
          // values of magnitude >= 10^308 are refused on purpose (see ANY_NUMBER: their neighbours overflow to Infinity)
          if (valid && Number.isFinite(x) && Math.abs(x) < 1e308) {
            const c = canonicalText(x);
            expect({ t, c, accepted: acc.accepts(c) }).toEqual({ t, c, accepted: true });
          }
          if (Number.isFinite(x) && Math.abs(x) < 1e308 && canonicalSyntax(t, integer) && t === canonicalText(x))
            expect({ t, got }).toEqual({ t, got: valid });
        }
      },
    ),
    { seed: SEED, numRuns: RUNS, verbose: true },
  );
}

describe(`number bounds agree with ajv (seed ${SEED})`, () => {
  it("integers", () => run(true), 30_000);
  it("decimals", () => run(false), 30_000);
  it("integers with multipleOf", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 60 }),
        fc.option(fc.integer({ min: -500, max: 500 }), { nil: undefined }),
        fc.option(fc.integer({ min: -500, max: 500 }), { nil: undefined }),
        fc.boolean(),
        (k, lo, hi, integer) => {
          const node: NumberNode = { kind: "number", path: "", integer, multipleOf: [k] };
          if (lo !== undefined) node.minimum = { value: lo, exclusive: false };
          if (hi !== undefined) node.maximum = { value: hi, exclusive: true };
          const acc = numberAcceptor(node);
          const validate = ajv.compile(numberSchema(node));
          const texts = Array.from({ length: 120 }, (_, i) => String(i - 60 + (lo ?? 0))).concat([
            "999999999999990",
            "1000000000000000",
            "-0",
            "5.0",
          ]);
          for (const t of texts) {
            const valid = validate(JSON.parse(t)) as boolean;
            const got = acc.accepts(t);
            if (/^-?(0|[1-9]\d{0,14})$/.test(t)) expect({ t, got }).toEqual({ t, got: valid });
            else if (got) expect({ t, valid }).toEqual({ t, valid: true });
          }
        },
      ),
      { seed: SEED, numRuns: 60 },
    );
  }, 30_000);
});

describe(`exact rounding thresholds (seed ${SEED})`, () => {
  it("a text's exact value passes the threshold iff JSON.parse(text) passes the bound", () => {
    fc.assert(
      fc.property(bound, fc.boolean(), (b, ex) => {
        const lo = exactLowerThreshold(b, ex);
        const hi = exactUpperThreshold(b, ex);
        for (const t of textsNear(b, false)) {
          const x = JSON.parse(t) as number;
          const v = decFromText(t);
          const cl = cmpDec(v, lo.t);
          const ch = cmpDec(v, hi.t);
          expect({ t, b, ex, lower: cl > 0 || (cl === 0 && lo.incl) }).toEqual({
            t,
            b,
            ex,
            lower: ex ? x > b : x >= b,
          });
          expect({ t, b, ex, upper: ch < 0 || (ch === 0 && hi.incl) }).toEqual({
            t,
            b,
            ex,
            upper: ex ? x < b : x <= b,
          });
        }
      }),
      { seed: SEED, numRuns: RUNS * 4 },
    );
  });
});

describe(`decimal multipleOf, as the spec says (seed ${SEED})`, () => {
  const multiples = [0.01, 0.5, 1e-8, 0.25, 0.03, 2.5, 0.1, 0.125];
  const fractionDigitsOf = (m: number): number => normDec(decFromText(String(m))).s;

  it("accepts exactly the multiples within the bounds, written with at most K fraction digits", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...multiples),
        fc.option(fc.integer({ min: -400, max: 400 }), { nil: undefined }),
        fc.option(fc.integer({ min: -400, max: 400 }), { nil: undefined }),
        fc.boolean(),
        fc.boolean(),
        (m, lo100, hi100, exLo, exHi) => {
          const node: NumberNode = { kind: "number", path: "", integer: false, multipleOf: [m] };
          if (lo100 !== undefined) node.minimum = { value: lo100 / 100, exclusive: exLo };
          if (hi100 !== undefined) node.maximum = { value: hi100 / 100, exclusive: exHi };
          const acc = numberAcceptor(node);
          const k = fractionDigitsOf(m);
          const valid = (x: number): boolean =>
            isDecimalMultiple(x, m) &&
            (node.minimum === undefined || (exLo ? x > node.minimum.value : x >= node.minimum.value)) &&
            (node.maximum === undefined || (exHi ? x < node.maximum.value : x <= node.maximum.value));
          // every text with up to three more fraction digits than K on a grid around the bounds
          const fine = 10 ** -Math.min(k + 1, 9);
          // a multiple of m near a bound, so the grid meets multiples on both sides of it
          const base = Math.round((lo100 ?? hi100 ?? 0) / 100 / m) * m;
          const grid = [-150, -149.5, -1, -0.5, 0, 0.5, 1].flatMap((j) =>
            Array.from({ length: 100 }, (_, i) => base + j * m + (i - 50) * fine),
          );
          let accepted = 0;
          for (const raw of grid) {
            // the shortest decimal, written out without exponent
            const fixed = raw.toFixed(Math.min(k + 1, 9)).replace(/\.?0+$/, "");
            const t = fixed === "-0" ? "0" : fixed;
            const x = Number(t);
            const v = valid(x);
            const got = acc.accepts(t);
            if (got) accepted++;
            if (got) expect({ t, m, valid: v }).toEqual({ t, m, valid: true });
            if (v && normDec(decFromText(t)).s <= k) expect({ t, m, got }).toEqual({ t, m, got: true });
            // a trailing zero spells the same value
            if (t.includes(".") && normDec(decFromText(t)).s < k) expect(acc.accepts(`${t}0`)).toBe(got);
          }
          // the grid holds multiples inside any range it is not disjoint from
          if (node.minimum === undefined || node.maximum === undefined || node.maximum.value - node.minimum.value > m)
            expect(accepted).toBeGreaterThan(0);
        },
      ),
      { seed: SEED, numRuns: RUNS * 2 },
    );
  }, 60_000);

  it("0.07 is a multiple of 0.01 (ajv's floating-point check says no; the spec and the grammar say yes)", () => {
    const node: NumberNode = { kind: "number", path: "/x", integer: false, multipleOf: [0.01] };
    const acc = numberAcceptor(node);
    expect(ajv.compile({ multipleOf: 0.01 })(0.07)).toBe(false);
    expect(isDecimalMultiple(0.07, 0.01)).toBe(true);
    expect(acc.accepts("0.07")).toBe(true);
    expect(acc.accepts("0.071")).toBe(false);
    expect(acc.accepts("1e-2")).toBe(false); // fewer spellings: no exponent
  });

  it("an integer multiple of a decimal is an integer multiple; too fine a multiple is refused, naming the limit", () => {
    const half: NumberNode = { kind: "number", path: "/x", integer: true, multipleOf: [0.5] };
    expect(numberAcceptor(half).accepts("3")).toBe(true);
    const fine: NumberNode = { kind: "number", path: "/x", integer: false, multipleOf: [1e-16] };
    expect(() => numberAcceptor(fine)).toThrow(/16 fraction digits, at or above the 15/);
    const wide: NumberNode = { kind: "number", path: "/x", integer: false, multipleOf: [0.2049] };
    expect(() => numberAcceptor(wide)).toThrow(/2049, above the exactly enforced maximum 1024/);
    expect(numberAcceptor(wide, false).accepts("0.3")).toBe(true);
  });
});
