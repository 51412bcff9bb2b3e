import { describe, expect, it } from "vitest";
import { compileSchema } from "../../src/compile.js";
import { Referee } from "../../src/conformance/referee.js";
import { ToolgramError } from "../../src/errors.js";
import { createAcceptor } from "../../src/grammar/accepts.js";
import { forEachNode } from "../../src/grammar/analysis/foldExpr.js";
import { lit, seq } from "../../src/grammar/build.js";
import type { GExpr, Grammar } from "../../src/grammar/Grammar.js";
import { lowerStringContent } from "../../src/lower/string/lowerStringContent.js";
import { DEFAULT_LIMITS } from "../../src/options.js";
import { seededRandom } from "../../src/util/seededRandom.js";
import { checkRandomWalks } from "../support/automaton/walkCheck.js";
import { tinyVocab } from "../support/tinyVocab.js";

/**
 * A length bound over a pattern or format whose product automaton is too large for rules (`format: uri` under
 * `maxLength: 2048`: 179 states × 2,049 lengths) is a counted node: the token matcher keeps the counter beside the
 * automaton, building the reachable pairs when a decoding enters the node; the text emitters refuse it, naming the
 * schema. Checked against ajv (the referee), the reference acceptor (which writes the pairs out) and the masks
 * (countedStrings.long.test.ts follows a URI to its bound).
 */
const vocab = tinyVocab();
const referee = new Referee();

function countedNodes(g: Grammar): GExpr[] {
  const out: GExpr[] = [];
  for (const body of g.rules.values()) forEachNode(body, (x) => x.type === "counted" && out.push(x));
  return out;
}

/** A JSON string's grammar with small limits, so that a short bound already needs the counter. */
function smallCounted(spec: { pattern: string; minLength: number; maxLength: number; cap: number }): Grammar {
  const rules = new Map<string, GExpr>();
  const content = lowerStringContent(
    { minLength: spec.minLength, maxLength: spec.maxLength, patterns: [spec.pattern], notPatterns: [], formats: [] },
    { strict: true, limits: { ...DEFAULT_LIMITS, maxAutomatonStates: spec.cap }, warnings: [], path: "/x", rules },
  );
  rules.set("root", seq(lit('"'), content, lit('"')));
  return {
    rules: new Map([["root", rules.get("root") as GExpr], ...[...rules].filter(([k]) => k !== "root")]),
    root: "root",
  };
}

describe("counted strings (a length bound beside the automaton)", () => {
  const uri = { type: "string", format: "uri", maxLength: 2048 };

  it("compile a URI under maxLength 2048, and the text emitters refuse it naming the schema", () => {
    const tool = { type: "object", properties: { url: uri }, required: ["url"], additionalProperties: false };
    const c = compileSchema(tool);
    expect(countedNodes(c.grammar).length).toBe(1);
    for (const emit of [() => c.toGbnf(), () => c.toRegex(), () => c.toLark(), () => c.toXGrammarEbnf()]) {
      let err: unknown;
      try {
        emit();
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(ToolgramError);
      expect((err as ToolgramError).code).toBe("LIMIT_GRAMMAR_SIZE");
      expect((err as ToolgramError).schemaPath).toBe("/properties/url");
    }
  });

  it("pairs past maxAutomatonStates are refused at compile, not found by a decoding", () => {
    // up to 100 words under 5,000 characters: about 975,000 reachable (state, length) pairs
    const words = { type: "string", minLength: 1, maxLength: 5000, pattern: "^$|(^(?:\\S+\\s+){0,99}\\S+$)" };
    let err: unknown;
    try {
      compileSchema(words);
    } catch (e) {
      err = e;
    }
    expect((err as ToolgramError).code).toBe("LIMIT_AUTOMATON_SIZE");
  });

  it.each([
    // caps between the counter over the loop states and the product (and the rules per loop state and length)
    { pattern: "^([a-c]{6}-|x)*$", minLength: 5, maxLength: 60, cap: 100 },
    { pattern: "^(%[0-9a-f]{2}|[a-z])*$", minLength: 0, maxLength: 25, cap: 40 },
    { pattern: "^(abcdefgh|[0-9])*$", minLength: 3, maxLength: 40, cap: 100 },
  ])(
    "random walks under the masks and ajv agree on $pattern {$minLength,$maxLength} (seed printed on failure)",
    (spec) => {
      const g = smallCounted(spec);
      expect(countedNodes(g).length).toBe(1);
      const validate = referee.validator({
        type: "string",
        pattern: spec.pattern,
        minLength: spec.minLength,
        maxLength: spec.maxLength,
      });
      let ended = 0;
      checkRandomWalks(g, vocab, {
        seed: spec.maxLength,
        numRuns: 100,
        maxLength: 80,
        onText: (text) => {
          ended++;
          expect(validate(JSON.parse(text))).toBe(true);
        },
      });
      const acceptor = createAcceptor(g);
      const rnd = seededRandom(spec.minLength + 1);
      const alphabet = ["a", "b", "c", "d", "-", "x", "%", "0", "f", "abcdefgh", "abcd"];
      for (let i = 0; i < 400; i++) {
        let s = "";
        const n = Math.floor(rnd() * (spec.maxLength + 6));
        for (let k = 0; k < n; k++) s += alphabet[Math.floor(rnd() * alphabet.length)];
        expect(acceptor.accepts(JSON.stringify(s)), s).toBe(validate(s));
      }
      expect(ended).toBeGreaterThan(0);
    },
  );
});
