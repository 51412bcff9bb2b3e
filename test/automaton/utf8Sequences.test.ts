import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { encodeUtf8, utf8Sequences } from "../../src/automaton/utf8Sequences.js";

const SEED = Number(process.env.TOOLGRAM_SEED ?? 20261122);
const matches = (seq: number[], bytes: number[]): boolean =>
  seq.length === bytes.length * 2 && bytes.every((b, i) => seq[2 * i] <= b && b <= seq[2 * i + 1]);

describe("utf8Sequences", () => {
  it("encodes like TextEncoder", () => {
    for (const cp of [0, 0x41, 0x7f, 0x80, 0x7ff, 0x800, 0xffff, 0x10000, 0x10ffff, 0xe9, 0x65e5, 0x1f389]) {
      expect(encodeUtf8(cp)).toEqual([...new TextEncoder().encode(String.fromCodePoint(cp))]);
    }
  });
  it("a code point's encoding matches a sequence exactly when it is in the range", () => {
    const cpArb = fc.oneof(
      fc.integer({ min: 0, max: 0x7ff }),
      fc.integer({ min: 0, max: 0xd7ff }),
      fc.integer({ min: 0xe000, max: 0x10ffff }),
    );
    fc.assert(
      fc.property(cpArb, cpArb, cpArb, (a, b, x) => {
        const lo = Math.min(a, b);
        const hi = Math.max(a, b);
        if (lo <= 0xdfff && hi >= 0xd800) return; // ranges never contain surrogates
        const seqs = utf8Sequences(lo, hi);
        const enc = encodeUtf8(x);
        const n = seqs.filter((s) => matches(s, enc)).length;
        expect(n).toBe(lo <= x && x <= hi ? 1 : 0);
      }),
      { seed: SEED, numRuns: 2000 },
    );
  });
});
