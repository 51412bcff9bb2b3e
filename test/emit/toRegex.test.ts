import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { toRegex } from "../../src/emit/toRegex.js";
import { ToolgramError } from "../../src/errors.js";
import { accepts } from "../../src/grammar/accepts.js";
import { cls, lit, rep, seq } from "../../src/grammar/build.js";
import { SEED, corpus, grammar, textsFor } from "../support/grammar/corpus.js";

describe("toRegex", () => {
  for (const k of corpus) {
    if (k.recursive) {
      it(`${k.name}: refuses a recursive grammar with NOT_REGULAR`, () => {
        try {
          toRegex(k.grammar);
          expect.unreachable();
        } catch (e) {
          expect(e).toBeInstanceOf(ToolgramError);
          expect((e as ToolgramError).code).toBe("NOT_REGULAR");
          expect((e as ToolgramError).schemaPath).toMatch(/^\/[a-z]/);
        }
      });
      continue;
    }
    it(`${k.name}: agrees with accepts on samples, mutations and random strings`, () => {
      const src = toRegex(k.grammar);
      expect(src.startsWith("^(?:") && src.endsWith(")$")).toBe(true);
      const re = new RegExp(src, "u");
      for (const t of textsFor(k, 100))
        expect([t.slice(0, 60), re.test(t)]).toEqual([t.slice(0, 60), accepts(k.grammar, t)]);
      fc.assert(
        fc.property(fc.array(fc.constantFrom(...k.alphabet), { maxLength: 20 }), (chars) => {
          const t = chars.join("");
          expect(re.test(t)).toBe(accepts(k.grammar, t));
        }),
        { seed: SEED, numRuns: 200 },
      );
      expect(toRegex(k.grammar)).toBe(src); // deterministic
    });
  }

  it("ignores a recursive rule that the root does not reach", () => {
    const g = grammar("root", [
      ["root", lit("a")],
      ["loop", seq(lit("("), { type: "ref", rule: "loop" })],
    ]);
    expect(toRegex(g)).toBe("^(?:a)$");
  });

  it("escapes every syntax character and writes non-ASCII as \\u{…}", () => {
    const text = "^$\\.*+?()[]{}|/-é😀\u0000";
    const src = toRegex(grammar("root", [["root", seq(lit(text), rep(cls([0x2d, 0x2d, 0x5b, 0x5e]), 1, 2))]]));
    expect(src).toBe("^(?:\\^\\$\\\\\\.\\*\\+\\?\\(\\)\\[\\]\\{\\}\\|\\/-\\u{E9}\\u{1F600}\\u{0}[\\-\\[-\\^]{1,2})$");
    const re = new RegExp(src, "u");
    expect(re.test(`${text}-]`)).toBe(true);
    expect(re.test(`${text}a`)).toBe(false);
  });
});
