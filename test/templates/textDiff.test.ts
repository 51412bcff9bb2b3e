import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { counterSuffixLength, diffSplit, markerPrefix, markerSuffix } from "../../src/templates/textDiff.js";

// fast-check prints the seed of a failing run; this fixed seed makes every run the same
const SEED = 12;
const text = fc.string({ unit: fc.constantFrom("<", ">", "[", "]", "a", "b", "|", "\n"), maxLength: 24 });

/** Inside an opened marker at the end: an opener after the last closer. */
const endsInsideMarker = (s: string): boolean =>
  Math.max(s.lastIndexOf("<"), s.lastIndexOf("[")) > Math.max(s.lastIndexOf(">"), s.lastIndexOf("]"));
/** Starts inside a marker that closes later: a closer before the first opener. */
const startsInsideMarker = (s: string): boolean => {
  const first = (c: string): number => (s.indexOf(c) < 0 ? Infinity : s.indexOf(c));
  return Math.min(first(">"), first("]")) < Math.min(first("<"), first("["));
};

describe("textDiff", () => {
  it("markerPrefix: a common prefix that never ends inside a marker", () => {
    fc.assert(
      fc.property(text, text, text, (common, a, b) => {
        const p = markerPrefix(common + a, common + b);
        expect((common + a).startsWith(p) && (common + b).startsWith(p)).toBe(true);
        expect(endsInsideMarker(p)).toBe(false);
      }),
      { seed: SEED, numRuns: 500 },
    );
  });

  it("markerSuffix: a common suffix that never starts inside a marker", () => {
    fc.assert(
      fc.property(text, text, text, (common, a, b) => {
        const s = markerSuffix(a + common, b + common);
        expect((a + common).endsWith(s) && (b + common).endsWith(s)).toBe(true);
        expect(startsInsideMarker(s)).toBe(false);
      }),
      { seed: SEED, numRuns: 500 },
    );
  });

  it("keeps whole markers: `<|assistant|><think>` against `<|assistant|></think>`", () => {
    expect(markerPrefix("<|assistant|><think>", "<|assistant|></think>")).toBe("<|assistant|>");
    expect(markerSuffix('"}}\n</tool_call>\n<tool_call>\n{"name": "', '<tool_call>\n{"name": "')).toBe(
      '<tool_call>\n{"name": "',
    );
    expect(markerSuffix("x</arg_value>\n<arg_key>", "NAME>\n<arg_key>")).toBe("\n<arg_key>");
  });

  it("counterSuffixLength lets a call counter differ by one", () => {
    const a = '[\n    {"tool_call_id": "0", "tool_name": "';
    const b = '}},\n    {"tool_call_id": "1", "tool_name": "';
    expect(markerSuffix(a, b)).toBe('", "tool_name": "');
    expect(markerSuffix(a, b, true)).toBe('\n    {"tool_call_id": "0", "tool_name": "');
    expect(counterSuffixLength("id 1", "id 3")).toBe(0);
  });

  it("diffSplit: prefix + middle + suffix is the text, and the parts do not overlap", () => {
    fc.assert(
      fc.property(text, text, (a, b) => {
        const d = diffSplit(a, b);
        expect(d.prefix + d.middle + d.suffix).toBe(b);
        expect(a.startsWith(d.prefix) && a.endsWith(d.suffix)).toBe(true);
        expect(d.prefix.length + d.suffix.length).toBeLessThanOrEqual(Math.min(a.length, b.length));
      }),
      { seed: SEED, numRuns: 500 },
    );
  });
});
