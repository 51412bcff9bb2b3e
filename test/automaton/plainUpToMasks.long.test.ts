import { describe, expect, it } from "vitest";
import type { TokenMatcher } from "../../src/automaton/TokenMatcher.js";
import { compileSchema } from "../../src/compile.js";
import { DEFAULT_LIMITS } from "../../src/options.js";
import { seededRandom } from "../../src/util/seededRandom.js";
import type { Vocabulary } from "../../src/vocab/Vocabulary.js";
import { allowedIds } from "../support/automaton/allowedIds.js";
import { qwen3 } from "../support/qwen3.js";

/**
 * The Qwen3 checks of plainUpToMasks.test.ts: a bounded string (a `maxLength`) reads any text until its bound: where every plain text of at most n characters
 * stays live from a position, its mask is the vocabulary's plain tokens of at most n characters plus a walk of the
 * other trie nodes (MaskWalk.composePlainUpTo; near the bound, with another copy's mask, composeCounted takes them
 * too). The masks must be the same as walked whole: checked against acceptToken for every id with a small vocabulary,
 * and bit for bit along seeded random walks against a matcher of the same grammar with the sharing off (Qwen3), with
 * the work counted in trie nodes walked, never timed.
 */
interface Table {
  nodesWalked: number;
  plainUpToMasks: number;
  countedMasks: number;
  shareCounted: boolean;
  sharePlain: boolean;
  sharePlainUpTo: boolean;
}
const table = (m: TokenMatcher): Table => (m as unknown as { table: Table }).table;

/** A matcher with its own automaton and mask table (another cap on states), every sharing of long walks off. */
function unshared(schema: unknown, vocab: Vocabulary): TokenMatcher {
  const m = compileSchema(schema).createMatcher(vocab, { maxStates: DEFAULT_LIMITS.maxAutomatonStates + 1 });
  table(m).shareCounted = false;
  table(m).sharePlain = false;
  table(m).sharePlainUpTo = false;
  return m;
}

const str = (s: object): unknown => ({ type: "object", properties: { a: { type: "string", ...s } }, required: ["a"] });

describe("masks of bounded strings from the plain tokens of at most the characters left (Qwen3)", () => {
  it("a maxLength string's first positions walk a few thousand nodes, not the whole trie (Qwen3)", () => {
    const { vocab, encode } = qwen3();
    const schema = str({ minLength: 3, maxLength: 255 });
    const m = compileSchema(schema).createMatcher(vocab);
    const whole = unshared(schema, vocab);
    const words = Math.ceil(vocab.size / 32);
    const a = new Uint32Array(words);
    const b = new Uint32Array(words);
    const text = `{"a": "${"Buy groceries: 牛奶, pão ".repeat(2)}`;
    const prefix = encode('{"a": "').length;
    let walkedAfterQuote = 0;
    for (const [step, id] of encode(text).entries()) {
      const n0 = table(m).nodesWalked;
      m.fillNextTokenBitmask(a);
      whole.fillNextTokenBitmask(b);
      if (step >= prefix) walkedAfterQuote = Math.max(walkedAfterQuote, table(m).nodesWalked - n0);
      for (let k = 0; k < words; k++) if (a[k] !== b[k]) expect.fail(`step ${step}: masks differ in word ${k}`);
      expect(m.acceptToken(id)).toBe(true);
      expect(whole.acceptToken(id)).toBe(true);
    }
    // the string's start and its first copies (the required characters, the first optional one) are composed, not
    // walked whole (326,000 nodes each)
    expect(table(m).plainUpToMasks).toBeGreaterThanOrEqual(2);
    expect(walkedAfterQuote).toBeLessThan(20_000);
  });

  it("equal the masks walked whole along seeded random walks (Qwen3), near the bound too", () => {
    const { vocab } = qwen3();
    const words = Math.ceil(vocab.size / 32);
    const a = new Uint32Array(words);
    const b = new Uint32Array(words);
    let composed = 0;
    let counted = 0;
    for (const [name, schema] of [
      ["maxLength 24", str({ maxLength: 24 })],
      ["minLength 2, maxLength 40", str({ minLength: 2, maxLength: 40 })],
    ] as const) {
      const rnd = seededRandom(20261129);
      const m = compileSchema(schema).createMatcher(vocab);
      const whole = unshared(schema, vocab);
      for (let step = 0; step < 16 && !m.isTerminated(); step++) {
        m.fillNextTokenBitmask(a);
        whole.fillNextTokenBitmask(b);
        for (let k = 0; k < words; k++)
          if (a[k] !== b[k]) expect.fail(`${name}, step ${step}: masks differ in word ${k}`);
        // long tokens first, so that the walk reaches the bound within its steps
        const ids = allowedIds(a).filter((id) => !vocab.eosTokenIds.includes(id));
        if (ids.length === 0) break;
        const long = ids.filter((id) => vocab.tokenBytes(id).length >= 4);
        const pick = long.length > 0 && rnd() < 0.8 ? long : ids;
        const id = pick[Math.floor(rnd() * pick.length)];
        expect(m.acceptToken(id)).toBe(true);
        expect(whole.acceptToken(id)).toBe(true);
      }
      composed += table(m).plainUpToMasks;
      counted += table(m).countedMasks;
      expect(table(whole).plainUpToMasks + table(whole).countedMasks).toBe(0);
    }
    expect(composed).toBeGreaterThan(0);
    expect(counted).toBeGreaterThan(0);
  });
});
