import { describe, expect, it } from "vitest";
import { compileSchema } from "../../src/compile.js";
import type { TokenMatcher } from "../../src/automaton/TokenMatcher.js";
import { qwen3 } from "../support/qwen3.js";
import { bit } from "../support/tinyVocab.js";

/**
 * An object that allows other keys besides its properties: after `{"` the key is a known name or any other string, and
 * the other strings are spelled as the complement of the names (`c`, `cl`, ... each followed by the string's content).
 * Each such content loop ends its branch and calls one shared frame, so the masks at every prefix of a key and at
 * every later key take that frame's subtree masks instead of walking the whole trie again (the cold tail of
 * JSONSchemaBench's Github subsets). Work is counted in trie nodes walked, never timed.
 */
const schema = {
  properties: {
    club: { type: "object" },
    employer: { type: "object" },
    firstName: { type: "string" },
    school: { type: "object" },
  },
};

interface Walked {
  nodesWalked: number;
  subtreesComputed: number;
  trie: { nodeCount: number };
}
const table = (m: TokenMatcher): Walked => (m as unknown as { table: Walked }).table;

describe("the keys of an object open to other keys", () => {
  const { vocab, encode } = qwen3();
  const words = Math.ceil(vocab.size / 32);

  function exact(m: TokenMatcher, bits: Uint32Array, where: string): void {
    for (let id = 0; id < vocab.size; id++) {
      const ok = m.acceptToken(id);
      if (ok) m.rollback(1);
      if (ok !== bit(bits, id)) expect.fail(`${where}: token ${id} mask ${bit(bits, id)} accept ${ok}`);
    }
  }

  it("masks equal acceptToken for every id at a key's prefixes, and later keys reuse the first key's work", () => {
    const c = compileSchema(schema);
    const m = c.createMatcher(vocab);
    const bits = new Uint32Array(words);
    const t = table(m);
    const text = '{"club": {}, "employer": {}, "firstName": "x", "zz": 1, "zoo": 2}';
    const seq = [...encode(text), vocab.eosTokenIds[0]];
    let said = "";
    const atKey: { said: string; nodes: number; computed: number }[] = [];
    for (const id of seq) {
      const n0 = t.nodesWalked;
      const s0 = t.subtreesComputed;
      m.fillNextTokenBitmask(bits);
      if (said.endsWith('"') && !said.endsWith(': "')) {
        atKey.push({ said, nodes: t.nodesWalked - n0, computed: t.subtreesComputed - s0 });
        exact(m, bits, `after ${JSON.stringify(said)}`);
      }
      expect(m.acceptToken(id), said).toBe(true);
      said += new TextDecoder().decode(vocab.tokenBytes(id));
    }
    expect(m.isTerminated()).toBe(true);
    // the first key computes the shared frame's subtree masks; every later key position takes them
    expect(atKey.length).toBeGreaterThanOrEqual(4);
    for (const k of atKey.slice(1)) {
      expect(k.computed, k.said).toBe(0);
      expect(k.nodes, k.said).toBeLessThan(t.trie.nodeCount / 4);
    }
  });

  it("other keys' characters of several bytes take their frame's subtree masks, masks exact at every step", () => {
    // names that begin with characters of several bytes, so that the complement leaves some of them out
    const c = compileSchema({
      properties: { éclair: { type: "integer" }, 日本: { type: "integer" }, name: { type: "string" } },
    });
    const m = c.createMatcher(vocab);
    const bits = new Uint32Array(words);
    const t = table(m);
    const text = '{"éclair": 1, "日本": 2, "name": "ß", "ü": 3, "日x": 4, "éa": 5, "nü": 6, "€": 7}';
    const seq = [...encode(text), vocab.eosTokenIds[0]];
    let said = "";
    const atKey: { said: string; nodes: number }[] = [];
    for (const id of seq) {
      const n0 = t.nodesWalked;
      m.fillNextTokenBitmask(bits);
      if (said.endsWith(', "')) atKey.push({ said, nodes: t.nodesWalked - n0 });
      exact(m, bits, `after ${JSON.stringify(said)}`);
      expect(m.acceptToken(id), said).toBe(true);
      said += new TextDecoder().decode(vocab.tokenBytes(id));
    }
    expect(m.isTerminated()).toBe(true);
    // a key position after the first: the names' tokens and the subtree masks below each byte, not a walk of every
    // token prefix of a character of several bytes (about 30,000 nodes of Qwen3's trie) from the key's position
    expect(atKey.length).toBeGreaterThanOrEqual(6);
    for (const k of atKey.slice(1)) expect(k.nodes, k.said).toBeLessThan(t.trie.nodeCount / 32);
  });
});
