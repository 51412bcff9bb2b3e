import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { regexToNfa } from "../../src/regex/regexToNfa.js";
import {
  complement,
  determinize,
  dfaAccepts,
  intersect,
  isEmpty,
  lengthRange,
  minimize,
  type Dfa,
} from "../../src/regex/Dfa.js";
import { dfaToExpr } from "../../src/regex/dfaToExpr.js";
import { dfaToRules } from "../../src/regex/dfaToRules.js";
import { createAcceptor } from "../../src/grammar/accepts.js";
import type { GExpr } from "../../src/grammar/Grammar.js";
import { parsePattern } from "../../src/lower/string/parsePattern.js";
import { rAlt, rChars, rRep, rSeq } from "../../src/regex/RegexNode.js";
import { ALL_SCALARS } from "../../src/grammar/ranges.js";
import { exprToRegExp } from "../support/lower/string/exprToRegExp.js";
import { SEED } from "../support/lower/string/judge.js";

const ANY_STAR = rRep(rChars(ALL_SCALARS), 0, null);

/** The DFA of a pattern under search semantics, as lowering builds it. */
function searchDfa(p: string): Dfa {
  return minimize(determinize(regexToNfa(rSeq(ANY_STAR, parsePattern(p, ""), ANY_STAR), 100_000, ""), 100_000, ""));
}

const PATTERNS = [
  "^(a|b)*abb$",
  "a+b",
  "^a?$",
  "b$",
  "^(ab)*$",
  "^[^a]*$",
  "ba|ab",
  "^.{3}$",
  "a^b",
  "(^a|b$)",
  "^😀+b?$",
];
const strings = fc.string({ unit: fc.constantFrom("a", "b", "c", "😀", "\n"), maxLength: 8 });

describe("code-point automata", () => {
  it("determinize + minimize agree with RegExp (search semantics, anchors)", () => {
    for (const p of PATTERNS) {
      const d = searchDfa(p);
      const re = new RegExp(p, "u");
      fc.assert(
        fc.property(strings, (s) => dfaAccepts(d, s) === re.test(s)),
        { seed: SEED, numRuns: 200 },
      );
    }
  });

  it("minimal automata have the textbook sizes", () => {
    expect(searchDfa("^(a|b)*abb$").accept.length).toBe(4);
    expect(searchDfa("a").accept.length).toBe(2);
    expect(searchDfa("a^b").accept.length).toBe(0);
    expect(isEmpty(searchDfa("a^b"))).toBe(true);
    expect(searchDfa("^(a+)+$").accept.length).toBe(2);
  });

  it("intersection and complement agree with RegExp", () => {
    for (const p of PATTERNS) {
      for (const q of PATTERNS.slice(0, 5)) {
        const both = minimize(intersect(searchDfa(p), searchDfa(q), 100_000, ""));
        const notP = minimize(complement(searchDfa(p)));
        const rp = new RegExp(p, "u");
        const rq = new RegExp(q, "u");
        fc.assert(
          fc.property(
            strings,
            (s) => dfaAccepts(both, s) === (rp.test(s) && rq.test(s)) && dfaAccepts(notP, s) === !rp.test(s),
          ),
          { seed: SEED, numRuns: 60 },
        );
      }
    }
  });

  it("back to grammar expressions and rules, same language", () => {
    for (const p of PATTERNS) {
      const d = searchDfa(p);
      const re = new RegExp(p, "u");
      const expr = exprToRegExp(dfaToExpr(d, 10_000, ""));
      const rules = new Map<string, GExpr>();
      const root = dfaToRules(d, rules, "t", (e) => e);
      const acc = createAcceptor({ rules: new Map([["root", root], ...rules]), root: "root" });
      fc.assert(
        fc.property(strings, (s) => expr.test(s) === re.test(s) && acc.accepts(s) === re.test(s)),
        { seed: SEED, numRuns: 100 },
      );
    }
  });

  it("length ranges", () => {
    const dfa = (n: ReturnType<typeof parsePattern>) => minimize(determinize(regexToNfa(n, 1000, ""), 1000, ""));
    expect(lengthRange(dfa(parsePattern("ab|c", "")))).toEqual({ min: 1, max: 2 });
    expect(lengthRange(dfa(parsePattern("a{2,5}", "")))).toEqual({ min: 2, max: 5 });
    expect(lengthRange(dfa(rAlt(parsePattern("a*", ""), rSeq())))?.max).toBe(Infinity);
    expect(lengthRange(dfa(parsePattern("[]", "")))).toBeNull();
  });
});
