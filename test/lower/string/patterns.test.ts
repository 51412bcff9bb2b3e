import { describe, expect, it, vi } from "vitest";
import fc from "fast-check";
import { checkAgreement, context, judge, mutated, spec, stringsOver } from "../../support/lower/string/judge.js";
import { lowerStringContent, lowerStringValue } from "../../../src/lower/string/lowerStringContent.js";

/** Patterns with the alphabet their counter-examples are drawn from. */
const PATTERNS: [string, string[]][] = [
  ["^[a-z]+$", [..."abzAZ09"]],
  ["^[a-z0-9_-]{3,16}$", [..."az09_-A."]],
  ["\\d", [..."a1"]],
  ["^\\d{3}-\\d{4}$", [..."0123-"]],
  ["ab|cd", [..."abcd"]],
  ["^(?:ab|cd)*$", [..."abcd"]],
  ["^(a+)+$", [..."ab"]],
  ["^.{2,4}$", [..."ab\n\r\u2028"]],
  ["^\\w+\\s\\w+$", [..."ab_1 \t\u00a0\u3000\u2029"]],
  ["^[^\\s]*$", [..."a \u1680\ufeff"]],
  ["^\\D\\W\\S$", [..."a1 _-"]],
  ["^[\\u{1F600}-\\u{1F64F}]+$", ["😀", "🙏", "😃", "a"]],
  ["^(?<y>\\d{4})-(?<m>\\d{2})$", [..."0129-"]],
  ["a^b", [..."ab"]],
  ["^a$|^b", [..."abc"]],
  ["(^a|b$)", [..."abc"]],
  ["x$", [..."x\n"]],
  ["^$", [..."a"]],
  ['["\\\\]', ['"', "\\", "a"]],
  ["^[\\x00-\\x1f]+$", ["\u0000", "\u0001", "\u001f", "\n", "a"]],
  ["^\\p{Lu}+$", [..."AaÉé1"]],
  ["^a*?b+?c??$", [..."abc"]],
  ["colou?r", [..."colur"]],
];

describe("patterns agree with ajv (u flag, search semantics)", () => {
  PATTERNS.forEach(([p, alphabet], i) => {
    it(`#${i} ${p}`, () => {
      const j = judge(spec({ patterns: [p] }));
      const matching = fc.stringMatching(new RegExp(p, "u"), { maxLength: 12 });
      const arb =
        p === "a^b" ? stringsOver(alphabet) : fc.oneof(matching, mutated(matching, alphabet), stringsOver(alphabet));
      checkAgreement(j, arb, 200);
    });
  });
});

describe("combinations go through automata and stay exact", () => {
  const combos: [Parameters<typeof spec>[0], string[]][] = [
    [{ patterns: ["^[a-z]+$"], maxLength: 5, minLength: 2 }, [..."abZ"]],
    [{ patterns: ["a", "b"] }, [..."abc"]],
    [{ patterns: ["^a"], notPatterns: ["b$"], maxLength: 3, notValues: ["ab", "a"] }, [..."abc"]],
    [{ notPatterns: ["\\d"] }, [..."a1"]],
    [{ patterns: ["^[a-z]"], formats: ["email"], maxLength: 12 }, [..."aB1@.-"]],
    [{ formats: ["date"], notValues: ["2024-02-29"] }, [..."20249-"]],
    [{ formats: ["uuid"], patterns: ["^[0-9]"] }, [..."0a-fF"]],
    [{ patterns: ["\\d{2}"], minLength: 3, maxLength: 6 }, [..."1a"]],
    [{ formats: ["ipv4"], notPatterns: ["^127\\."] }, [..."127.01"]],
  ];
  combos.forEach(([over, alphabet], i) => {
    it(`#${i} ${JSON.stringify(over)}`, () => {
      const j = judge(spec(over));
      const first = over.patterns?.[0];
      const base = first ? fc.stringMatching(new RegExp(first, "u"), { maxLength: 12 }) : stringsOver(alphabet);
      checkAgreement(j, fc.oneof(base, mutated(base, alphabet), stringsOver(alphabet)), 300);
    });
  });
});

describe("lengths, escapes and keys", () => {
  it("no constraint accepts every canonical spelling and nothing else", () => {
    const j = judge(spec({}));
    checkAgreement(j, fc.string({ unit: "grapheme", maxLength: 8 }), 300);
    for (const text of ["\\/", "\\u0041", "\\u000a", "\\u001F", "\\x", '"', "\\", "\n", "\\u00"])
      expect([text, j.grammarText(text)]).toEqual([text, false]);
    for (const text of ["\\n", "\\u001f", '\\"', "\\\\", "é😀", "\\u0000\\b\\f"])
      expect([text, j.grammarText(text)]).toEqual([text, true]);
  });

  it("counts code points, not UTF-16 units", () => {
    const j = judge(spec({ minLength: 2, maxLength: 3 }));
    checkAgreement(j, stringsOver([..."ab"], 5), 300);
    expect(j.grammar("😀😀")).toBe(true);
    expect(j.grammar("😀")).toBe(false);
  });

  it("excluded values (object keys) from the trie", () => {
    for (const over of [
      { notValues: ["a", "ab", "b\n"] },
      { notValues: ["a", "ab", ""], minLength: 1, maxLength: 2 },
    ]) {
      const j = judge(spec(over));
      checkAgreement(j, stringsOver([..."ab"], 4), 300);
    }
  });

  it("unsatisfiable specs give an empty language", () => {
    expect(lowerStringValue(spec({ minLength: 3, maxLength: 2 }), context())).toEqual({ type: "alt", items: [] });
    expect(lowerStringValue(spec({ patterns: ["^a$"], notValues: ["a"] }), context())).toEqual({
      type: "alt",
      items: [],
    });
    expect(lowerStringValue(spec({ patterns: ["a^b"] }), context())).toEqual({ type: "alt", items: [] });
  });

  it("simple shapes are translated without automata", () => {
    expect(lowerStringValue(spec({ patterns: ["^[a-z]+$"], maxLength: 8 }), context())).toEqual({
      type: "repeat",
      item: { type: "charClass", ranges: [97, 122] },
      min: 1,
      max: 8,
    });
    expect(lowerStringValue(spec({ minLength: 1 }), context())).toMatchObject({ type: "repeat", min: 1, max: null });
  });
});

describe("errors and limits", () => {
  const code = (over: Parameters<typeof spec>[0], ctx = context()) => {
    try {
      lowerStringContent(spec(over), ctx);
      return "ok";
    } catch (e) {
      return (e as { code?: string }).code;
    }
  };
  it("refuses what is not regular, rejects invalid patterns", () => {
    expect(code({ patterns: ["(a)\\1"] })).toBe("UNSUPPORTED_PATTERN");
    expect(code({ patterns: ["^(?:(?!ab).)*$"] })).toBe("UNSUPPORTED_PATTERN");
    expect(code({ patterns: ["(?=a)(?<!b)"] })).toBe("UNSUPPORTED_PATTERN");
    expect(code({ patterns: ["\\bword\\b"] })).toBe("UNSUPPORTED_PATTERN");
    expect(code({ notPatterns: ["(a)\\1"] })).toBe("UNSUPPORTED_PATTERN");
    expect(code({ patterns: ["[a-"] })).toBe("INVALID_PATTERN");
    expect(code({ patterns: ["\\c"] })).toBe("INVALID_PATTERN");
  });
  it("strict: false drops an unsupported pattern with a warning", () => {
    const ctx = context({ strict: false });
    expect(code({ patterns: ["(a)\\1"] }, ctx)).toBe("ok");
    expect(ctx.warnings.map((w) => w.code)).toEqual(["OVER_APPROXIMATED"]);
  });
  it("caps repetitions and automata quickly", () => {
    expect(code({ maxLength: 1e9 })).toBe("LIMIT_REPETITION");
    expect(code({ minLength: 1e9 })).toBe("LIMIT_REPETITION");
    expect(code({ patterns: ["^a{1,1000000}$"] })).toBe("LIMIT_REPETITION");
    expect(code({ patterns: ["^(a{1,1000}){1,1000}$"] })).toBe("LIMIT_REPETITION");
    expect(code({ patterns: ["(a{1,1000}){1,1000}"], notPatterns: ["b"] })).toBe("LIMIT_AUTOMATON_SIZE");
    // the classic exponential DFA: 2^21 states
    const small = context({ limits: { ...context().limits, maxAutomatonStates: 20_000 } });
    expect(code({ patterns: ["^[ab]*a[ab]{20}$"], notPatterns: ["c"] }, small)).toBe("LIMIT_AUTOMATON_SIZE");
    // the clock limit on a fake clock (1 ms a reading): the verdict does not depend on the machine
    let readings = 0;
    const clock = vi.spyOn(performance, "now").mockImplementation(() => ++readings);
    try {
      const quick = context({
        limits: { ...context().limits, maxCompileMs: 50, maxCompileSteps: Number.POSITIVE_INFINITY },
      });
      expect(code({ patterns: ["^[ab]*a[ab]{20}$"], notPatterns: ["c"] }, quick)).toBe("LIMIT_COMPILE_TIME");
    } finally {
      clock.mockRestore();
    }
    const ctx = context({ strict: false });
    expect(code({ maxLength: 1e9 }, ctx)).toBe("ok");
    expect(ctx.warnings).toHaveLength(1);
  });
  // decided by automata, never by backtracking: a backtracking matcher would not finish these within the test's timeout
  it("catastrophic backtracking patterns are harmless", () => {
    const j = judge(spec({ patterns: ["^(a+)+$", "^(a|aa)*b?$"], maxLength: 40 }));
    expect(j.grammar("a".repeat(40))).toBe(true);
    expect(j.grammar(`${"a".repeat(30)}c`)).toBe(false);
  });
});
