import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Ajv2020 } from "ajv/dist/2020.js";
import { compileSchema } from "../../src/compile.js";
import { dfaAccepts, type Dfa } from "../../src/regex/Dfa.js";
import { languageDfa } from "../../src/regex/languageDfa.js";
import { rChars, rRep, rSeq } from "../../src/regex/RegexNode.js";
import { resolveLookarounds } from "../../src/regex/resolveLookarounds.js";
import { ALL_SCALARS } from "../../src/grammar/ranges.js";
import { parsePattern } from "../../src/lower/string/parsePattern.js";
import { checkRandomWalks } from "../support/automaton/walkCheck.js";
import { fuzzVocab } from "../support/fuzzVocab.js";
import { context, judge, spec, SEED } from "../support/lower/string/judge.js";

/**
 * Lookarounds as intersections and complements of regular languages, refereed by JavaScript's own RegExp (`u` flag,
 * unanchored search, as JSON Schema's `pattern` is): every string the automaton accepts matches, and every string
 * that matches is accepted. Strings are drawn from a small alphabet (so that the lookarounds' cases are hit) and
 * from the strings that match (filtered), both sides sampled; the seed is printed on failure.
 */
const ANY_STAR = rRep(rChars(ALL_SCALARS), 0, null);

function searchDfa(p: string): Dfa {
  const whole = resolveLookarounds(rSeq(ANY_STAR, parsePattern(p, ""), ANY_STAR), p, "");
  return languageDfa(whole, 100_000, "");
}

const PATTERNS = [
  "^(?=.*\\d)(?=.*[a-z])(?=.*[A-Z]).{8,}$",
  "^(?!.*\\.\\.)[a-z.]+$",
  "a(?!b)",
  "a(?=b|c$)",
  "(?=ab)a",
  "^(?=a)\\w+$",
  "^(?:(?=a).){2,3}$",
  "x(?!y)(?=.)",
  "(?<=a)b",
  "(?<!a)b$",
  "^a(?<!aa)",
  "(?<=^|[^a])b",
  "^(?:(?<=a)b|c)+?$".replace("+?", "{1,4}"),
  "(?=(?!b)a)",
  "^(?!$)",
  "😀(?=😀)",
];
const ALPHABET = ["a", "b", "c", "A", "1", ".", "x", "y", "😀", "\n"];
const strings = fc.string({ unit: fc.constantFrom(...ALPHABET), maxLength: 12 });

describe("lookarounds by intersection and complement", () => {
  it.each(PATTERNS)("%s: the automaton accepts exactly what RegExp matches", (p) => {
    const d = searchDfa(p);
    const re = new RegExp(p, "u");
    const check = (s: string) => {
      if (dfaAccepts(d, s) !== re.test(s))
        throw new Error(
          `${p} on ${JSON.stringify(s)}: automaton ${dfaAccepts(d, s)}, RegExp ${re.test(s)} (seed ${SEED})`,
        );
      return true;
    };
    fc.assert(fc.property(strings, check), { seed: SEED, numRuns: 400 });
    // the matching side on its own, so that rare matches are not left to chance
    let matched = 0;
    fc.assert(
      fc.property(
        strings.filter((s) => re.test(s)),
        (s) => ((matched += 1), check(s)),
      ),
      { seed: SEED, numRuns: 100 },
    );
    expect(matched).toBe(100);
  });

  it("the lowered grammar agrees with ajv, lengths included", () => {
    for (const p of PATTERNS.slice(0, 4)) {
      const j = judge(spec({ patterns: [p], maxLength: 10 }), context({ rules: new Map() }));
      fc.assert(
        fc.property(strings, (s) => {
          if (j.grammar(s) !== j.ajv(s)) throw new Error(`${p} on ${JSON.stringify(s)} (seed ${SEED})`);
          return true;
        }),
        { seed: SEED, numRuns: 100 },
      );
    }
  });

  it("random walks under the masks end in strings that ajv validates", () => {
    const ajv = new Ajv2020({ strict: false });
    const vocab = fuzzVocab();
    for (const pattern of ["^(?=.*\\d)(?=.*[a-z]).{4,8}$", "^(?!.*--)[a-z-]{1,6}$", "^(?:[a-c](?<!ba)){1,5}$"]) {
      const schema = { type: "string", pattern };
      const validate = ajv.compile(schema);
      let texts = 0;
      checkRandomWalks(compileSchema(schema).grammar, vocab, {
        seed: SEED,
        numRuns: 30,
        maxLength: 24,
        onText: (text) => {
          texts++;
          if (!validate(JSON.parse(text))) throw new Error(`${pattern}: ${text} is invalid (seed ${SEED})`);
        },
      });
      expect(texts).toBeGreaterThan(0);
    }
  });

  it("refuses what it does not build, naming the assertion", () => {
    const refusal = (p: string) => {
      try {
        searchDfa(p);
        return "built";
      } catch (e) {
        return `${(e as { code: string }).code}: ${(e as Error).message}`;
      }
    };
    expect(refusal("^(?:(?!ab).)*$")).toMatch(/UNSUPPORTED_PATTERN.*unbounded repetition.*"\(\?!ab\)" at offset 4/);
    expect(refusal("(?=a)(?<=b)")).toMatch(/UNSUPPORTED_PATTERN.*lookaheads and lookbehinds/);
    expect(refusal("a(?=^b)")).toMatch(/UNSUPPORTED_PATTERN.*`\^` after or inside a lookahead/);
    expect(refusal("(?<=a$)b")).toMatch(/UNSUPPORTED_PATTERN.*`\$` before or inside a lookbehind/);
    expect(refusal("^(?:(?=a).){1,20}$")).toMatch(/UNSUPPORTED_PATTERN.*more than 8 copies/);
    // not regular: backreferences stay refused, with the construct named
    expect(() => parsePattern("(a)\\1", "/p")).toThrow(/backreference/);
  });
});
