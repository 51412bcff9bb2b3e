import { describe, expect, it } from "vitest";
import type { TokenMatcher } from "../../src/automaton/TokenMatcher.js";
import { compileSchema } from "../../src/compile.js";
import { tinyVocab } from "../support/tinyVocab.js";
import { masksAgreeWithAcceptToken } from "../support/automaton/masksAgreeWithAcceptToken.js";

/**
 * Inside a string that reads any text (an unanchored `pattern`: "any text, then the pattern"), each partial match is a
 * configuration of its own, and every plain token (no quote, no backslash, no control character, strict UTF-8) is
 * allowed at all of them: the mask is the vocabulary's plain tokens plus a walk of the trie nodes above a token that
 * is not plain. The masks must be the same as walked whole: checked bit for bit along seeded random walks against a
 * matcher of the same grammar with the sharing off (plainMasks.long.test.ts, Qwen3), and here against acceptToken for
 * every id with a small vocabulary.
 */
interface Plain {
  plainMasks: number;
}
const table = (m: TokenMatcher): Plain => (m as unknown as { table: Plain }).table;

const SCHEMAS: [string, unknown][] = [
  ["a counted unanchored pattern", { type: "string", pattern: "\\d{4}-\\d{4}-\\d{3}[0-9Xx]" }],
  ["a pattern anchored at its start", { type: "string", pattern: "^ab" }],
  [
    "patterns in an object",
    {
      type: "object",
      properties: { a: { type: "string", pattern: "é[0-9]" }, b: { type: "string", pattern: "x\\.y" } },
      required: ["a", "b"],
    },
  ],
];

describe("masks of strings that read any text", () => {
  it("agree with acceptToken for every id along random walks (a small vocabulary)", () => {
    const composed = masksAgreeWithAcceptToken(
      SCHEMAS,
      tinyVocab(),
      { seed: 11, walks: 3, steps: 30 },
      (m) => table(m).plainMasks,
    );
    expect(composed).toBeGreaterThan(20);
  });

  it("are not taken where a string dies at a bound or refuses a character", () => {
    const vocab = tinyVocab();
    const bits = new Uint32Array(Math.ceil(vocab.size / 32));
    for (const schema of [
      { type: "string", maxLength: 300 },
      { type: "string", pattern: "^[a-z]*$" },
    ]) {
      const m = compileSchema(schema).createMatcher(vocab);
      for (const byte of new TextEncoder().encode('"abc')) {
        m.fillNextTokenBitmask(bits);
        expect(m.acceptToken(byte - 0x20)).toBe(true);
      }
      m.fillNextTokenBitmask(bits);
      expect(table(m).plainMasks).toBe(0);
    }
  });
});
