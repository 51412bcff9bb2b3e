import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createAcceptor } from "../../src/grammar/accepts.js";
import type { GExpr } from "../../src/grammar/Grammar.js";
import { dfaAccepts, type Dfa } from "../../src/regex/Dfa.js";
import { languageDfa } from "../../src/regex/languageDfa.js";
import { lengthBoundedRules } from "../../src/regex/lengthBoundedRules.js";
import { formatRegex } from "../../src/lower/string/stringFormats.js";
import { parsePattern } from "../../src/lower/string/parsePattern.js";
import { SEED } from "../support/lower/string/judge.js";

/**
 * A length bound on a regular language with the counter on the loop states only ("hubs"): the rules accept exactly
 * the automaton's strings whose length is within the bounds (checked against the automaton and the length, on
 * strings drawn near the bounds), and they stay small where the whole product is large.
 */
function bounded(d: Dfa, min: number, max: number | undefined, cap = 200_000) {
  const rules = new Map<string, GExpr>();
  const root = lengthBoundedRules(d, min, max, rules, "t", (e) => e, cap, "/s");
  const acc = createAcceptor({ root: "root", rules: new Map([["root", root], ...rules]) });
  const hubRules = [...rules.keys()].filter((k) => /-h\d+-\d+$/.test(k)).length;
  return { accepts: (s: string) => acc.accepts(s), rules: rules.size, hubRules };
}

const whole = (p: string) => languageDfa(parsePattern(p, ""), 100_000, "");

describe("length bounds with the counter on the loop states", () => {
  const cases: [string, number, number | undefined, string[]][] = [
    ["(ab|c)*d?", 3, 9, ["a", "b", "c", "d"]],
    ["[a-c]+(%[0-9a-f]{2}[a-c]*)*", 0, 12, ["a", "c", "%", "0", "f"]],
    ["x(y{2,5}z)*", 4, undefined, ["x", "y", "z"]],
    ["(0|1[01]*)(\\.[01]{1,3})*", 2, 11, ["0", "1", "."]],
  ];
  it.each(cases)("%s with lengths [%d, %s]: exactly the automaton's strings of those lengths", (p, min, max, units) => {
    const d = whole(p);
    const b = bounded(d, min, max);
    const expected = (s: string) => {
      const n = [...s].length;
      return dfaAccepts(d, s) && n >= min && (max === undefined || n <= max);
    };
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...units), maxLength: (max ?? min) + 3 }), (s) => {
        if (b.accepts(s) !== expected(s))
          throw new Error(`${p} on ${JSON.stringify(s)}: rules ${b.accepts(s)} (seed ${SEED})`);
        return true;
      }),
      { seed: SEED, numRuns: 300 },
    );
  });

  it("hostnames up to 253 characters: one hub rule per length, not a product state per (state, length)", () => {
    const d = languageDfa(formatRegex("hostname", "")!, 100_000, "");
    expect(d.accept.length).toBe(125);
    // the whole product has 23,809 states (minimized); the label start after a dot is the only loop state
    const rules = new Map<string, GExpr>();
    lengthBoundedRules(d, 1, 253, rules, "t", (e) => e, 200_000, "/s");
    expect([...rules.keys()].filter((k) => /-h\d+-\d+$/.test(k))).toHaveLength(252);
    expect(rules.size).toBeLessThan(8_200);
    // the same construction at 70, where whole labels meet the bound
    const b = bounded(d, 1, 70);
    const label = (n: number) => "a".repeat(n);
    expect(b.accepts([label(63), label(6)].join("."))).toBe(true); // 70
    expect(b.accepts([label(63), label(7)].join("."))).toBe(false); // 71
    expect(b.accepts(label(63))).toBe(true);
    expect(b.accepts(label(64))).toBe(false);
  });

  it("refuses, naming the bound, when the hub rules would pass the limit", () => {
    // the hub choice finds the merge points before and after an IPv6 literal (`[`, `@`): 115 alternatives per length
    // instead of 262, still above the limit at 2,049 lengths (the literal's 44 lengths are 45 of them)
    const d = languageDfa(formatRegex("uri", "")!, 100_000, "");
    expect(d.accept.length).toBe(179);
    expect(() => bounded(d, 0, 2048)).toThrow(
      expect.objectContaining({
        code: "LIMIT_AUTOMATON_SIZE",
        message: expect.stringMatching(
          /length bound of 2048 over an automaton with 14 loop states needs about 235635 rule/,
        ),
      }),
    );
  });
});
