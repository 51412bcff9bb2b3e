import { describe, expect, it } from "vitest";
import type { TokenMatcher } from "../../src/automaton/TokenMatcher.js";
import { compileSchema } from "../../src/compile.js";
import { Referee } from "../../src/conformance/referee.js";
import { createAcceptor } from "../../src/grammar/accepts.js";
import { sampleGrammar } from "../../src/testing/sampleGrammar.js";
import { seededRandom } from "../../src/util/seededRandom.js";
import { allowedIds } from "../support/automaton/allowedIds.js";
import { bit, tinyVocab } from "../support/tinyVocab.js";

/**
 * A `format: uri` under `maxLength: 2048` (a counted string, see countedStrings.test.ts) followed to its bound under
 * the masks, and the reference acceptor, which writes its (state, length) pairs out, against ajv: the long tier, for
 * their compiles and walks of two thousand tokens.
 */
const vocab = tinyVocab();
const referee = new Referee();
/** The tiny vocabulary's id of a printable ASCII character (its single-byte pieces come first, from 0x20). */
const idOf = (ch: string): number => ch.charCodeAt(0) - 0x20;

interface Built {
  table: { automaton: { nfa: { stateCount: number } } };
}
const nfaStates = (m: TokenMatcher): number => (m as unknown as Built).table.automaton.nfa.stateCount;

describe("a counted URI to its bound (long)", () => {
  const uri = { type: "string", format: "uri", maxLength: 2048 };

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
});
