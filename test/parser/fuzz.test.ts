import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { FORMAT_NAMES } from "../../src/formats/index.js";
import { tierRotate, tierRuns } from "../support/tier.js";
import { parseToolCalls } from "../../src/parser/parseToolCalls.js";
import { SEED, mutated, replyArb, trickyString } from "../support/parser/arbitraries.js";
import { TOOLS } from "../support/parser/tools.js";

describe("fuzz: never throws, stable", () => {
  for (const format of FORMAT_NAMES) {
    it(format, () => {
      const input = fc.oneof(
        fc.string({ unit: "binary", maxLength: 60 }),
        trickyString,
        mutated(replyArb(format)),
        mutated(trickyString),
      );
      fc.assert(
        fc.property(input, fc.constantFrom("strict", "tolerant" as const), (t, mode) => {
          const a = parseToolCalls(t, { tools: TOOLS, format, mode });
          const b = parseToolCalls(t, { tools: TOOLS, format, mode });
          expect(b).toEqual(a);
          expect(a.dropped).toBe(a.issues.filter((i) => i.callIndex === undefined && DROP_CODES.has(i.code)).length);
          for (const c of a.calls) expect(t.slice(...c.span)).toBe(c.raw);
          expect(a.content.length).toBeLessThanOrEqual(t.length);
        }),
        { seed: SEED, numRuns: Number(process.env.TOOLGRAM_FUZZ_RUNS ?? tierRuns(12, 250)) },
      );
    });
  }

  it("adversarial sizes parse without throwing (a quadratic parse would hit the timeout)", () => {
    const cases = [
      "<tool_call>".repeat(50_000),
      `<tool_call>\n${"[".repeat(100_000)}`,
      `<tool_call>\n${'{"a": "'.repeat(50_000)}`,
      "</tool_call>".repeat(50_000),
      `<tool_call>\n{"name": "f", "arguments": {"s": "${"x".repeat(1_000_000)}"}}\n</tool_call>`,
      "<".repeat(200_000),
      `${"'".repeat(100_000)}<tool_call>`,
      // every close marker sits inside an unbalanced string: the end-of-input re-reading must not go quadratic
      "<tool_call>'\"</tool_call>".repeat(30_000),
    ];
    // the quick tier parses 1 of the 8 inputs on one format in four, rotating, so each input still meets one or two
    // formats (the long tier: every input with every format)
    FORMAT_NAMES.forEach((format, formatIndex) => {
      for (const t of tierRotate(cases, formatIndex, 32)) {
        // no verdict on the clock here (tests count work, never milliseconds): a quadratic parse of these inputs
        // would run for minutes and hit the test's timeout; their parse times are benchmarked in bench/parse.ts
        expect(() => parseToolCalls(t, { tools: TOOLS, format }), `${format}: ${t.slice(0, 20)}`).not.toThrow();
      }
    });
  });
});

const DROP_CODES = new Set([
  "INVALID_JSON",
  "TRUNCATED",
  "NOT_A_CALL",
  "MISSING_NAME",
  "ARGUMENTS_NOT_OBJECT",
  "NONCANONICAL",
  "NESTING_TOO_DEEP",
]);
