import { describe, expect, it } from "vitest";
import type { Automaton } from "../../src/automaton/Automaton.js";
import type { MaskTable } from "../../src/automaton/MaskTable.js";
import { compileSchema } from "../../src/compile.js";
import { qwen3 } from "../support/qwen3.js";
import { exactMask } from "../support/automaton/walkCheck.js";

/**
 * A mask walk inside one frame that neither calls nor returns (an enum's values, a key's letters) follows the frame's
 * R-states and makes no automaton configuration per trie node it passes: what a cold mask used to spend most of its
 * time on. The masks stay exact (bit ⇔ acceptToken for every id of the Qwen3 vocabulary, which makes the
 * configurations of each token it steps through) before and after a token is taken.
 */
const NAMES = [
  "alpha",
  "bravo",
  "charlie",
  "delta",
  "echo",
  "foxtrot",
  "golf",
  "hotel",
  "india",
  "juliett",
  "kilo",
  "lima",
  "mike",
  "november",
  "oscar",
  "papa",
  "quebec",
  "romeo",
  "sierra",
  "tango",
];

describe("mask walks inside one frame", () => {
  it("walk an enum's values without making configurations, and stay exact", () => {
    const { vocab, encode } = qwen3();
    const compiled = compileSchema({
      type: "object",
      properties: { call: { enum: NAMES.map((n) => `${n}_${n}`) } },
      required: ["call"],
      additionalProperties: false,
    });
    const m = compiled.createMatcher(vocab);
    const internals = m as unknown as { table: MaskTable };
    const table = internals.table;
    const automaton: Automaton = table.automaton;
    const bits = new Uint32Array(Math.ceil(vocab.size / 32));
    expect(m.acceptString('{"call": "')).toBe(true);

    const configs = automaton.configCount;
    const nodes = table.nodesWalked;
    m.fillNextTokenBitmask(bits);
    const made = automaton.configCount - configs;
    const walked = table.nodesWalked - nodes;
    // every value's letters were walked (hundreds of trie nodes), none of them became a configuration
    expect(walked).toBeGreaterThan(500);
    expect(made).toBeLessThanOrEqual(1);
    const allowed = exactMask(m, vocab.size, bits);
    expect(allowed).toBeGreaterThan(20);

    // the masks after each token of a value, exact
    const text = `${NAMES[7]}_${NAMES[7]}"}`;
    for (const id of encode(text)) {
      expect(exactMask(m, vocab.size, bits)).toBeGreaterThan(0);
      expect(m.acceptToken(id)).toBe(true);
    }
    expect(m.isCompleted()).toBe(true);
  });
});
