import { describe, expect, it } from "vitest";
import type { TokenMatcher } from "../../src/automaton/TokenMatcher.js";
import { compileSchema } from "../../src/compile.js";
import { Referee } from "../../src/conformance/referee.js";
import { ToolgramError } from "../../src/errors.js";
import { createAcceptor } from "../../src/grammar/accepts.js";
import { forEachNode } from "../../src/grammar/analysis/foldExpr.js";
import { lit, seq } from "../../src/grammar/build.js";
import type { GExpr, Grammar } from "../../src/grammar/Grammar.js";
import { lowerStringContent } from "../../src/lower/string/lowerStringContent.js";
import { DEFAULT_LIMITS } from "../../src/options.js";
import { sampleGrammar } from "../../src/testing/sampleGrammar.js";
import { seededRandom } from "../../src/util/seededRandom.js";
import { allowedIds } from "../support/automaton/allowedIds.js";
import { checkRandomWalks } from "../support/automaton/walkCheck.js";
import { bit, tinyVocab } from "../support/tinyVocab.js";

/**
 * A length bound over a pattern or format whose product automaton is too large for rules (`format: uri` under
 * `maxLength: 2048`: 179 states × 2,049 lengths) is a counted node: the token matcher keeps the counter beside the
 * automaton, building the reachable pairs when a decoding enters the node; the text emitters refuse it, naming the schema. Checked against
 * ajv (the referee), the reference acceptor (which writes the product out) and acceptToken for every id.
 */
const vocab = tinyVocab();
const referee = new Referee();
/** The tiny vocabulary's id of a printable ASCII character (its single-byte pieces come first, from 0x20). */
const idOf = (ch: string): number => ch.charCodeAt(0) - 0x20;

interface Built {
  table: { automaton: { nfa: { stateCount: number } } };
}
const nfaStates = (m: TokenMatcher): number => (m as unknown as Built).table.automaton.nfa.stateCount;

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

  it("a walk to the bound: masks agree with acceptToken along it and at the bound, and the value validates", () => {
    const m = compileSchema(uri).createMatcher(vocab);
    const bits = new Uint32Array(Math.ceil(vocab.size / 32));
    const rnd = seededRandom(2048);
    const head = '"https://example.com/';
    for (const ch of head) {
      m.fillNextTokenBitmask(bits);
      expect(m.acceptToken(idOf(ch))).toBe(true);
    }
    let text = head.slice(1);
    let checked = 0;
    for (let step = 0; step < 3000; step++) {
      m.fillNextTokenBitmask(bits);
      const chars = text.length;
      const nearEnd = chars % 7 === 0 || chars > 2040;
      if (nearEnd) {
        checked++;
        for (let id = 0; id < vocab.size; id++) {
          const ok = m.acceptToken(id);
          if (ok) m.rollback(1);
          if (ok !== bit(bits, id)) expect.fail(`after ${chars} characters: token ${id} mask ${!ok}`);
        }
      }
      // single ASCII letters and digits, so that characters are counted one per token, until only the quote is left
      const ids = allowedIds(bits).filter((id) => id < 0x5f && /^[a-z0-9]$/i.test(String.fromCharCode(id + 0x20)));
      const id = ids.length > 0 ? ids[Math.floor(rnd() * ids.length)] : idOf('"');
      expect(m.acceptToken(id)).toBe(true);
      if (id === idOf('"')) break;
      text += String.fromCharCode(id + 0x20);
    }
    expect(m.isCompleted()).toBe(true);
    expect(text.length).toBe(2048);
    expect(referee.validator(uri)(text)).toBe(true);
    expect(referee.validator(uri)(`${text}a`)).toBe(false);
    expect(checked).toBeGreaterThan(250);
    // a counter over the automaton's 14 loop states (and an end), not over its 179 states: about 2,049 × 15 pairs
    expect(nfaStates(m)).toBeLessThan(40_000);
  });

  it("the reference acceptor (the product written out) agrees with ajv on samples and their mutants", () => {
    const c = compileSchema(uri);
    const acceptor = createAcceptor(c.grammar);
    const validate = referee.validator(uri);
    const rnd = seededRandom(7);
    let valid = 0;
    for (let i = 0; i < 20; i++) {
      const json = sampleGrammar(c.grammar, rnd, { maxLength: 3000 });
      expect(json).toBeDefined();
      const value = JSON.parse(json as string) as string;
      expect(validate(value)).toBe(true);
      valid++;
      // past the bound by one character, and a character the format never allows
      for (const bad of [`${value}${"a".repeat(2049 - value.length)}`, `${value} `]) {
        expect(acceptor.accepts(JSON.stringify(bad))).toBe(validate(bad));
      }
    }
    expect(valid).toBe(20);
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
        numRuns: 200,
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
