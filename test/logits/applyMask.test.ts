import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { applyMask } from "../../src/logits/index.js";

const SEED = Number(process.env.TOOLGRAM_SEED ?? 20261123);

const bitOf = (bits: Uint32Array, i: number) => i < bits.length * 32 && ((bits[i >>> 5] >>> (i & 31)) & 1) === 1;

describe("applyMask", () => {
  it("sets exactly the logits whose bit is clear (or that lie past the mask) to −∞ and keeps the others", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 200 }),
        fc
          .array(fc.constantFrom(0, 0xffffffff, 0x80000001, 0x55555555), { maxLength: 8 })
          .chain((pattern) =>
            fc
              .array(fc.integer({ min: 0, max: 0xffffffff }), { maxLength: 8 })
              .map((random) => Uint32Array.from([...pattern, ...random])),
          ),
        (n, bits) => {
          const before = Float32Array.from({ length: n }, (_, i) => (i % 7) - 3.5);
          const logits = applyMask(Float32Array.from(before), bits);
          for (let i = 0; i < n; i++) expect(logits[i]).toBe(bitOf(bits, i) ? before[i] : -Infinity);
        },
      ),
      { seed: SEED, numRuns: 300 },
    );
  });

  it("masks in place and returns the same array, for Float32Array and Float64Array", () => {
    for (const Ctor of [Float32Array, Float64Array]) {
      const logits = new Ctor([1, 2, 3, 4]);
      expect(applyMask(logits, Uint32Array.of(0b0101))).toBe(logits);
      expect([...logits]).toEqual([1, -Infinity, 3, -Infinity]);
    }
  });

  // Node 20 has no Float16Array; the browser test runs this case in Chromium, which has it
  it.skipIf(typeof (globalThis as { Float16Array?: unknown }).Float16Array !== "function")(
    "masks a Float16Array",
    () => {
      const F16 = (globalThis as unknown as { Float16Array: new (a: number[]) => Float32Array }).Float16Array;
      const logits = new F16([0.5, 1.5, -2, 8]);
      applyMask(logits, Uint32Array.of(0b1001));
      expect([...logits]).toEqual([0.5, -Infinity, -Infinity, 8]);
    },
  );
});
