import { describe, expect, it } from "vitest";
import { githubMcpTools, twentyOpenAiTools } from "../../bench/toolSets.js";
import type { MaskTable } from "../../src/automaton/MaskTable.js";
import { compileSchema, compileTools } from "../../src/compile.js";
import { sampleGrammar } from "../../src/testing/sampleGrammar.js";
import { seededRandom } from "../../src/util/seededRandom.js";
import { Vocabulary } from "../../src/vocab/Vocabulary.js";
import { qwen3 } from "../support/qwen3.js";
import { bit } from "../support/tinyVocab.js";

/**
 * A string's content is a self-contained frame whose local mask is nearly the whole vocabulary: a walk of the whole
 * token trie, once per process and vocabulary. The first mask of a grammar computes it (and any other such frame no
 * grammar of the process computed yet), so a decoding never walks the whole trie where its first string starts: the
 * largest step of the tool-call workload was that walk. The frame's other R-states (after a backslash, inside a
 * character's bytes) are computed with it, once per process. Counted in trie nodes walked, never in time.
 */
describe("self-contained frames computed with the first mask", () => {
  const shared = qwen3();
  // a vocabulary of its own: no grammar of this process has computed a frame's mask for it yet
  const vocab = Vocabulary.fromTokenizerJson(shared.tokenizerJson as never, {
    size: shared.vocab.size,
    eosTokenIds: shared.vocab.eosTokenIds,
  });
  const words = Math.ceil(vocab.size / 32);
  const tableOf = (m: object): MaskTable => (m as { table: MaskTable }).table;

  it("no step of a call walks the whole trie, and the mask at the string's start is exact", () => {
    const c = compileTools(twentyOpenAiTools(), { format: "qwen3" });
    const m = c.createMatcher(vocab);
    const table = tableOf(m);
    const bits = new Uint32Array(words);
    m.fillNextTokenBitmask(bits);
    // an escape and characters of several bytes inside the string: a token may end after the backslash
    const text =
      '<tool_call>\n{"name": "get_weather", "arguments": {"location": "Zürich\\n東京 \\"a\\" \\\\", "days": 3}}\n</tool_call>';
    const ids = [...shared.encode(text), vocab.eosTokenIds[0]];
    const prefix = shared.encode('<tool_call>\n{"name": "get_weather", "arguments": {"location": "').length;
    let most = 0;
    let all = 0;
    ids.forEach((id, k) => {
      const before = table.nodesWalked;
      m.fillNextTokenBitmask(bits);
      most = Math.max(most, table.nodesWalked - before);
      all += table.nodesWalked - before;
      expect(bit(bits, id), `token ${id} at step ${k}`).toBe(true);
      if (k === prefix) {
        // mask bit ⇔ acceptToken over the whole vocabulary, where the string starts
        for (let t = 0; t < vocab.size; t++) {
          const ok = m.acceptToken(t);
          if (ok) m.rollback(1);
          if (ok !== bit(bits, t))
            expect.fail(`string start: mask bit ${bit(bits, t)} but acceptToken ${ok} for token ${t}`);
        }
      }
      expect(m.acceptToken(id)).toBe(true);
    });
    // a string's local mask walks 326,474 of the trie's 333,009 nodes, the escape's after a backslash 6,936 (the
    // subtrees of the escape letters); the steps of this call walk at most about 300 (9,348 in all before, 2,417 now)
    expect(most).toBeLessThan(1000);
    expect(all).toBeLessThan(4000);
    // the string content's frame was computed with the first mask (the free text's is the first mask's own)
    expect(table.framesWarmed).toBeGreaterThanOrEqual(1);
  });

  it("a grammar built lazily (117 tools) builds its string frames with the grammar and computes them with its first mask", () => {
    const own = Vocabulary.fromTokenizerJson(shared.tokenizerJson as never, {
      size: shared.vocab.size,
      eosTokenIds: shared.vocab.eosTokenIds,
    });
    const c = compileTools(githubMcpTools(), {
      format: "qwen3",
      toolChoice: "required",
      parallel: false,
      limits: { maxCompileMs: 600_000 },
    });
    const random = seededRandom(7);
    const texts: string[] = [];
    while (texts.length < 3) {
      const t = sampleGrammar(c.grammar, random, { extraRepeats: 1, maxLength: 400 });
      if (t?.includes('": "')) texts.push(t);
    }
    const bits = new Uint32Array(words);
    let most = 0;
    let table: MaskTable | undefined;
    for (const text of texts) {
      const m = c.createMatcher(own);
      table = tableOf(m);
      expect(table.automaton.nfa.lazy).toBe(true);
      for (const id of [...shared.encode(text), own.eosTokenIds[0]]) {
        const before = table.nodesWalked;
        m.fillNextTokenBitmask(bits);
        if (table.cachedMasks > 1) most = Math.max(most, table.nodesWalked - before);
        expect(bit(bits, id)).toBe(true);
        expect(m.acceptToken(id)).toBe(true);
      }
    }
    // before, the tools' string frames were built with the first tool chosen, and the first string walked the trie
    expect(most).toBeLessThan(own.trie.nodeCount / 20);
    expect(table!.framesWarmed).toBeGreaterThanOrEqual(1);
  });

  it("a string with a minimum length is left to the steps: its frame starts with a chain, not with its loop", () => {
    // `minLength: 8` starts with eight R-states before the loop, each a walk of most of the trie that a decoding may
    // never reach (a value shorter than a token's bytes, an instance that takes another branch)
    const c = compileSchema({
      type: "object",
      properties: { a: { type: "string", minLength: 8 }, b: { type: "integer" } },
    });
    const m = c.createMatcher(vocab);
    const table = tableOf(m);
    const before = table.nodesWalked;
    m.fillNextTokenBitmask(new Uint32Array(words));
    expect(table.framesWarmed).toBe(0);
    expect(table.nodesWalked - before).toBeLessThan(vocab.trie.nodeCount / 20);
  });

  it("a later grammar finds the frame computed: its first mask walks no frame again", () => {
    const weather = twentyOpenAiTools().slice(0, 2);
    const c = compileTools(weather, { format: "qwen3" });
    const m = c.createMatcher(vocab);
    const table = tableOf(m);
    m.fillNextTokenBitmask(new Uint32Array(words));
    expect(table.framesWarmed).toBe(0);
  });
});
