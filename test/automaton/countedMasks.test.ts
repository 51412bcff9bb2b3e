import { describe, expect, it } from "vitest";
import type { TokenMatcher } from "../../src/automaton/TokenMatcher.js";
import { compileSchema } from "../../src/compile.js";
import { DEFAULT_LIMITS } from "../../src/options.js";
import type { Vocabulary } from "../../src/vocab/Vocabulary.js";
import { qwen3 } from "../support/qwen3.js";
import { seededRandom } from "../../src/util/seededRandom.js";
import { tierRuns } from "../support/tier.js";
import { tinyVocab } from "../support/tinyVocab.js";
import { allowedIds } from "../support/automaton/allowedIds.js";
import { masksAgreeWithAcceptToken } from "../support/automaton/masksAgreeWithAcceptToken.js";

/**
 * Positions inside a bounded repetition (a `maxLength` string's k-th character, a counted array's k-th item) take the
 * tokens shorter than the copies left from the mask of another copy, and walk only the trie's longer tokens. The masks
 * must be the same as computed whole: checked bit for bit along seeded random walks against a matcher of the same
 * grammar with the sharing off, and the work is counted in trie nodes walked, never timed.
 */
interface Counted {
  nodesWalked: number;
  countedMasks: number;
  shareCounted: boolean;
  sharePlainUpTo: boolean;
}
const table = (m: TokenMatcher): Counted => (m as unknown as { table: Counted }).table;

/** A matcher with its own automaton and mask table (another cap on states), the sharing off. */
function unshared(schema: unknown, vocab: Vocabulary): TokenMatcher {
  const m = compileSchema(schema).createMatcher(vocab, { maxStates: DEFAULT_LIMITS.maxAutomatonStates + 1 });
  table(m).shareCounted = false;
  table(m).sharePlainUpTo = false;
  return m;
}

const SCHEMAS: [string, unknown][] = [
  ["a maxLength string", { type: "object", properties: { a: { type: "string", maxLength: 40 } }, required: ["a"] }],
  [
    "minLength and maxLength",
    { type: "object", properties: { a: { type: "string", minLength: 12, maxLength: 30 } }, required: ["a"] },
  ],
  ["strings in a counted array", { type: "array", items: { type: "string", maxLength: 24 }, maxItems: 12 }],
  ["a counted pattern", { type: "string", pattern: "^[a-z0-9_]{3,48}$" }],
  ["integers in a counted array", { type: "array", items: { type: "integer" }, minItems: 2, maxItems: 30 }],
];

describe("masks inside bounded repetitions", () => {
  it("equal the masks computed whole along seeded random walks (Qwen3), and walk fewer nodes", () => {
    const { vocab } = qwen3();
    const words = Math.ceil(vocab.size / 32);
    const a = new Uint32Array(words);
    const b = new Uint32Array(words);
    let shared = 0;
    let whole = 0;
    let composed = 0;
    for (const [name, schema] of SCHEMAS) {
      const rnd = seededRandom(20261128);
      for (let w = 0; w < tierRuns(1, 2); w++) {
        // the walk, chosen under the shared masks; then replayed by two new matchers (new automata and tables), so
        // that the frames every grammar of the process shares are computed before either is measured
        const walk: number[] = [];
        const first = compileSchema(schema).createMatcher(vocab);
        for (let step = 0; step < 24 && !first.isTerminated(); step++) {
          first.fillNextTokenBitmask(a);
          const ids = allowedIds(a).filter((id) => !vocab.eosTokenIds.includes(id));
          if (ids.length === 0) break;
          walk.push(ids[Math.floor(rnd() * ids.length)]);
          expect(first.acceptToken(walk[walk.length - 1])).toBe(true);
        }
        const m = compileSchema(schema).createMatcher(vocab);
        const ref = unshared(schema, vocab);
        for (const [step, id] of walk.entries()) {
          const n0 = table(m).nodesWalked;
          const r0 = table(ref).nodesWalked;
          m.fillNextTokenBitmask(a);
          ref.fillNextTokenBitmask(b);
          if (step > 0) {
            shared += table(m).nodesWalked - n0;
            whole += table(ref).nodesWalked - r0;
          }
          for (let k = 0; k < words; k++)
            if (a[k] !== b[k]) expect.fail(`${name}, walk ${w}, step ${step}: masks differ in word ${k}`);
          expect(m.acceptToken(id)).toBe(true);
          expect(ref.acceptToken(id)).toBe(true);
        }
        composed += table(m).countedMasks;
        expect(table(ref).countedMasks).toBe(0);
      }
    }
    expect(composed).toBeGreaterThan(20);
    expect(shared).toBeLessThan(whole * 0.7);
  });

  it("agree with acceptToken for every id along random walks (a small vocabulary)", () => {
    const composed = masksAgreeWithAcceptToken(
      SCHEMAS,
      tinyVocab(),
      { seed: 7, walks: 6, steps: 60 },
      (m) => table(m).countedMasks,
    );
    expect(composed).toBeGreaterThan(20);
  });

  it("a maxLength string's later positions walk the trie's long tokens only", () => {
    const { vocab, encode } = qwen3();
    const schema = { type: "string", maxLength: 200 } as const;
    const m = compileSchema(schema).createMatcher(vocab);
    const bits = new Uint32Array(Math.ceil(vocab.size / 32));
    const walked: number[] = [];
    for (const id of encode(`"${"the quick brown fox jumps over the lazy dog ".repeat(3)}`)) {
      const n0 = table(m).nodesWalked;
      m.fillNextTokenBitmask(bits);
      walked.push(table(m).nodesWalked - n0);
      expect(m.acceptToken(id)).toBe(true);
    }
    // the first positions (the string's start, the first copy whose mask is computed whole) walk the whole trie, the
    // others only the nodes above tokens longer than the copies left (about 3,000 far from the bound)
    const later = walked.slice(4);
    expect(later.length).toBeGreaterThan(20);
    expect(Math.max(...later)).toBeLessThan(10_000);
  });

  it("equal the masks computed whole when a position nearer the bound was computed first", () => {
    // a warm-up or a prefetch computes masks in any order: here a second matcher of the same table reaches the
    // string's 8th character first, then the first matcher asks for the string's start, where an 11-byte token fits
    const vocab = tinyVocab();
    const schema = { type: "object", properties: { a: { type: "string", maxLength: 12 } }, required: ["a"] };
    const words = Math.ceil(vocab.size / 32);
    const g = compileSchema(schema);
    const early = g.createMatcher(vocab);
    const late = g.createMatcher(vocab);
    const whole = unshared(schema, vocab);
    const prefix = new TextEncoder().encode('{"a": "');
    const a = new Uint32Array(words);
    const b = new Uint32Array(words);
    // the tiny vocabulary's first tokens are the printable ASCII bytes, in order
    const spell = (m: TokenMatcher, bytes: Uint8Array): void => {
      for (const byte of bytes) expect(m.acceptToken(byte - 0x20)).toBe(true);
    };
    spell(late, prefix);
    spell(late, new TextEncoder().encode("abcdefgh"));
    late.fillNextTokenBitmask(a);
    spell(early, prefix);
    spell(whole, prefix);
    early.fillNextTokenBitmask(a);
    whole.fillNextTokenBitmask(b);
    expect(table(early).countedMasks).toBeGreaterThan(0);
    expect(allowedIds(a)).toEqual(allowedIds(b));
  });
});
