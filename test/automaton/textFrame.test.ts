import { describe, expect, it } from "vitest";
import { twentyOpenAiTools } from "../../bench/toolSets.js";
import { compileAutomaton, createMatcher, maskTableFor } from "../../src/automaton/createMatcher.js";
import { compileTools } from "../../src/compile.js";
import { qwen3 } from "../support/qwen3.js";
import { bit } from "../support/tinyVocab.js";

/**
 * Free text before the calls is a frame of its own, keyed by its structure: its masks (nearly the whole vocabulary)
 * are walked once per vocabulary and shared by every grammar with the same text, so a new tool set's first mask
 * walks only where the text may end and a call begin. Counted in trie nodes walked, never in time.
 */
describe("the free-text frame", () => {
  const { vocab, encode } = qwen3();
  const words = Math.ceil(vocab.size / 32);

  /** mask bit ⇔ acceptToken, for every token of the vocabulary. */
  const expectExact = (m: ReturnType<typeof createMatcher>, bits: Uint32Array, where: string): void => {
    for (let id = 0; id < vocab.size; id++) {
      const ok = m.acceptToken(id);
      if (ok) m.rollback(1);
      if (ok !== bit(bits, id))
        expect.fail(`${where}: mask bit ${bit(bits, id)} but acceptToken ${ok} for token ${id}`);
    }
  };

  it("a second tool set's first mask walks a small part of the trie, and is exact", () => {
    const weather = [
      {
        type: "function",
        function: {
          name: "get_weather",
          parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
        },
      },
    ];
    const first = compileTools(weather, { format: "qwen3" });
    const bits = new Uint32Array(words);
    createMatcher(first.grammar, vocab).fillNextTokenBitmask(bits);

    const second = compileTools(twentyOpenAiTools(), { format: "qwen3" });
    const table = maskTableFor(compileAutomaton(second.grammar), vocab);
    const m = createMatcher(second.grammar, vocab);
    const before = table.nodesWalked;
    m.fillNextTokenBitmask(bits);
    // a walk of the whole trie is vocab.trie.nodeCount nodes (333,009 for Qwen3)
    expect(table.nodesWalked - before).toBeLessThan(vocab.trie.nodeCount / 20);
    expectExact(m, bits, "first mask");
  });

  it("masks stay exact through text, a call opened by its spelled-out marker, and the call", () => {
    const c = compileTools(twentyOpenAiTools(), { format: "qwen3" });
    const m = createMatcher(c.grammar, vocab);
    const bits = new Uint32Array(words);
    const text =
      'Sure, <tool <b>let me</b> check.\n<tool_call>\n{"name": "get_weather", "arguments": {"location": "Zürich"}}\n</tool_call>';
    // spelled with ordinary tokens: "<tool_call>" as text, not the special token
    const ids = encode(text).flatMap((id) => (id === 151657 ? encode("<tool").concat(encode("_call>")) : [id]));
    const checkAt = new Set([0, 1, 3, 5, 8, ids.length - 1]);
    ids.forEach((id, k) => {
      m.fillNextTokenBitmask(bits);
      expect(bit(bits, id), `token ${id} at step ${k}`).toBe(true);
      if (checkAt.has(k)) expectExact(m, bits, `step ${k}`);
      expect(m.acceptToken(id)).toBe(true);
    });
    m.fillNextTokenBitmask(bits);
    expect(bit(bits, 151645)).toBe(true);
  });
});
