import { describe, expect, it } from "vitest";
import type { TokenMatcher } from "../../src/automaton/TokenMatcher.js";
import { compileSchema } from "../../src/compile.js";
import { masksAgreeWithAcceptToken } from "../support/automaton/masksAgreeWithAcceptToken.js";
import { tinyVocab } from "../support/tinyVocab.js";

/**
 * A bounded string (a `maxLength`) reads any text until its bound: where every plain text of at most n characters
 * stays live from a position, its mask is the vocabulary's plain tokens of at most n characters plus a walk of the
 * other trie nodes (MaskWalk.composePlainUpTo; near the bound, with another copy's mask, composeCounted takes them
 * too). The masks must be the same as walked whole: checked against acceptToken for every id with a small vocabulary,
 * and bit for bit along seeded random walks against a matcher of the same grammar with the sharing off (Qwen3), with
 * the work counted in trie nodes walked, never timed.
 */
interface Table {
  nodesWalked: number;
  plainUpToMasks: number;
  sharePlainUpTo: boolean;
}
const table = (m: TokenMatcher): Table => (m as unknown as { table: Table }).table;

const str = (s: object): unknown => ({ type: "object", properties: { a: { type: "string", ...s } }, required: ["a"] });

describe("masks of bounded strings from the plain tokens of at most the characters left", () => {
  it("agree with acceptToken for every id along random walks (a small vocabulary)", () => {
    // bounds around the small vocabulary's longest tokens (11 bytes: `get_weather`; `日本` is 2 characters of 6 bytes)
    const schemas: [string, unknown][] = [
      ["maxLength 9", str({ maxLength: 9 })],
      ["maxLength 11", str({ maxLength: 11 })],
      ["minLength 3, maxLength 14", str({ minLength: 3, maxLength: 14 })],
      ["maxLength 40", str({ maxLength: 40 })],
      ["a counted pattern of any character", { type: "string", pattern: "^.{2,12}$" }],
      ["strings in a counted array", { type: "array", items: { type: "string", maxLength: 10 }, maxItems: 6 }],
    ];
    const composed = masksAgreeWithAcceptToken(
      schemas,
      tinyVocab(),
      { seed: 5, walks: 2, steps: 20 },
      (m) => table(m).plainUpToMasks,
    );
    expect(composed).toBeGreaterThan(20);
  });

  it("walk only the trie nodes above a token that is not plain, or longer, at a maxLength string's first positions", () => {
    // counted with the small vocabulary here; plainUpToMasks.long.test.ts counts Qwen3's (326,000 nodes each before)
    const vocab = tinyVocab();
    const walked = (on: boolean): number[] => {
      const m = compileSchema(str({ minLength: 3, maxLength: 255 })).createMatcher(vocab);
      table(m).sharePlainUpTo = on;
      const bits = new Uint32Array(Math.ceil(vocab.size / 32));
      const nodes: number[] = [];
      // the small vocabulary's first tokens are the printable ASCII bytes, in order
      for (const byte of new TextEncoder().encode('{"a": "Buy')) {
        const n0 = table(m).nodesWalked;
        m.fillNextTokenBitmask(bits);
        nodes.push(table(m).nodesWalked - n0);
        expect(m.acceptToken(byte - 0x20)).toBe(true);
      }
      // the positions after the opening quote
      return nodes.slice(-3);
    };
    const off = walked(false);
    const on = walked(true);
    for (let k = 0; k < on.length; k++) expect(on[k]).toBeLessThan(off[k] / 2);
  });
});
