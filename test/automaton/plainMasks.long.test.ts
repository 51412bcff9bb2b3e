import { describe, expect, it } from "vitest";
import type { TokenMatcher } from "../../src/automaton/TokenMatcher.js";
import { compileSchema } from "../../src/compile.js";
import { DEFAULT_LIMITS } from "../../src/options.js";
import { seededRandom } from "../../src/util/seededRandom.js";
import type { Vocabulary } from "../../src/vocab/Vocabulary.js";
import { qwen3 } from "../support/qwen3.js";
import { allowedIds } from "../support/automaton/allowedIds.js";

/**
 * The masks of strings that read any text (see plainMasks.test.ts), with Qwen3: bit for bit the same as those of a
 * matcher with the sharing off, through the partial matches of unanchored patterns and random tokens after them, and
 * a fraction of its trie nodes walked (counted, never timed). A matcher with the sharing off walks the whole trie at
 * every such position, which is why this is in the long tier.
 */
interface Plain {
  nodesWalked: number;
  plainMasks: number;
  sharePlain: boolean;
  sharePlainUpTo: boolean;
}
const table = (m: TokenMatcher): Plain => (m as unknown as { table: Plain }).table;

/** A matcher with its own automaton and mask table (another cap on states), the sharing off. */
function unshared(schema: unknown, vocab: Vocabulary): TokenMatcher {
  const m = compileSchema(schema).createMatcher(vocab, { maxStates: DEFAULT_LIMITS.maxAutomatonStates + 2 });
  table(m).sharePlain = false;
  table(m).sharePlainUpTo = false;
  return m;
}

describe("masks of strings that read any text (Qwen3)", () => {
  it("equal the masks walked whole along seeded random walks (Qwen3), and walk a fraction of the nodes", () => {
    const { vocab, encode } = qwen3();
    const words = Math.ceil(vocab.size / 32);
    const a = new Uint32Array(words);
    const b = new Uint32Array(words);
    let shared = 0;
    let whole = 0;
    let composed = 0;
    const rnd = seededRandom(20261129);
    for (const [name, schema, text] of [
      [
        "a counted unanchored pattern",
        { type: "string", pattern: "\\d{4}-\\d{4}-\\d{3}[0-9Xx]" },
        '"id 12-1234-5678-9',
      ],
      [
        "patterns in an object",
        {
          type: "object",
          properties: { a: { type: "string", pattern: "é[0-9]" }, b: { type: "string", pattern: "x\\.y" } },
          required: ["a", "b"],
        },
        '{"a": "xé1", "b": "x.',
      ],
    ] as const) {
      // through partial matches (each a configuration of its own), then random tokens: most stay in the string
      const start = encode(text);
      const m = compileSchema(schema).createMatcher(vocab);
      const ref = unshared(schema, vocab);
      for (let step = 0; step < start.length + 3 && !m.isTerminated(); step++) {
        const n0 = table(m).nodesWalked;
        const r0 = table(ref).nodesWalked;
        m.fillNextTokenBitmask(a);
        ref.fillNextTokenBitmask(b);
        if (step > 0) {
          shared += table(m).nodesWalked - n0;
          whole += table(ref).nodesWalked - r0;
        }
        for (let k = 0; k < words; k++)
          if (a[k] !== b[k]) expect.fail(`${name}, step ${step}: masks differ in word ${k}`);
        const ids = allowedIds(a).filter((id) => !vocab.eosTokenIds.includes(id));
        if (ids.length === 0) break;
        const id = step < start.length ? start[step] : ids[Math.floor(rnd() * ids.length)];
        expect(m.acceptToken(id)).toBe(true);
        expect(ref.acceptToken(id)).toBe(true);
      }
      composed += table(m).plainMasks;
      expect(table(ref).plainMasks).toBe(0);
    }
    expect(composed).toBeGreaterThan(10);
    expect(shared).toBeLessThan(whole * 0.2);
  });
});
