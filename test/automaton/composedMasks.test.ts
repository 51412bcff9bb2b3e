import { describe, expect, it } from "vitest";
import { githubMcpTools } from "../../bench/toolSets.js";
import type { MaskTable } from "../../src/automaton/MaskTable.js";
import { compileTools } from "../../src/compile.js";
import { sampleGrammar } from "../../src/testing/sampleGrammar.js";
import { seededRandom } from "../../src/util/seededRandom.js";
import { Vocabulary } from "../../src/vocab/Vocabulary.js";
import { qwen3 } from "../support/qwen3.js";
import { bit } from "../support/tinyVocab.js";
import { exactMask } from "../support/automaton/walkCheck.js";

/**
 * A configuration inside a frame called from somewhere (a string argument, a number, the rest of a key) gets a mask
 * composed of the frame's own part, walked once per frame state and shared by every calling context, and walks of
 * only the trie subtrees where the frame returns, from the caller. Composed masks are counted as they are made (the
 * local part's count, plus what the exit walks add, a token met twice counted once), so they are stored without a
 * scan of the whole bitset, and a local part with few tokens is kept as their ids. Checked on tool calls sampled from
 * the GitHub MCP server's 117 tools with the Qwen3 vocabulary: masks exact (bit ⇔ acceptToken for every id) where
 * checked, the work counted in trie nodes and bitset scans, never in time.
 */
const SEED = Number(process.env.TOOLGRAM_SEED ?? 20261125);
const policy = { format: "qwen3", toolChoice: "required", parallel: false, limits: { maxCompileMs: 600_000 } } as const;

function popcount(bits: Uint32Array): number {
  let n = 0;
  for (let w = 0; w < bits.length; w++) for (let x = bits[w]; x !== 0; x &= x - 1) n++;
  return n;
}

describe("composed masks of frames called from several contexts", () => {
  it("are exact, share the frame's part across contexts, and are stored without a scan of the bitset", () => {
    const { tokenizerJson, encode } = qwen3();
    // a vocabulary object of its own: frames' local masks are shared per vocabulary object by the whole process, and
    // the first string walk below must be this test's, whatever test files ran before in the same worker
    const shared = qwen3().vocab;
    const vocab = Vocabulary.fromTokenizerJson(tokenizerJson, { size: shared.size, eosTokenIds: shared.eosTokenIds });
    const c = compileTools(githubMcpTools(), policy);
    const random = seededRandom(SEED);
    const texts: string[] = [];
    while (texts.length < 4) {
      const t = sampleGrammar(c.grammar, random, { extraRepeats: 1, maxLength: 400 });
      if (t?.includes('": "')) texts.push(t);
    }
    const bits = new Uint32Array(Math.ceil(vocab.size / 32));
    let table: MaskTable | undefined;
    let checked = 0;
    /** Trie nodes walked by the first mask of each first-visited configuration inside a string (most of the vocabulary allowed). */
    const stringWalks: number[] = [];
    let computes = 0;
    for (const text of texts) {
      const m = c.createMatcher(vocab);
      table = (m as unknown as { table: MaskTable }).table;
      const ids = [...encode(text), vocab.eosTokenIds[0]];
      for (let k = 0; k < ids.length; k++) {
        const cached = table.cachedMasks;
        const nodes = table.nodesWalked;
        m.fillNextTokenBitmask(bits);
        const walked = table.nodesWalked - nodes;
        if (table.cachedMasks > cached) computes++;
        const allowed = popcount(bits);
        if (table.cachedMasks > cached && allowed > vocab.size / 2) stringWalks.push(walked);
        // exact on every id at the first steps of each call and wherever a string starts
        if (k < 6 || (allowed > vocab.size / 2 && checked < 40)) {
          expect(exactMask(m, vocab.size, bits)).toBe(allowed);
          checked++;
        }
        expect(bit(bits, ids[k])).toBe(true);
        expect(m.acceptToken(ids[k])).toBe(true);
      }
    }
    expect(checked).toBeGreaterThan(24);
    // several strings in different contexts: the string content's own part (the vocabulary's trie) was walked with
    // the first mask (MaskTable.warmSharedFrames), so every string walks only the subtrees of tokens that leave the
    // string (its closing quote and what follows it)
    expect(stringWalks.length).toBeGreaterThan(2);
    const nodeCount = vocab.trie.nodeCount;
    expect(table!.framesWarmed).toBeGreaterThanOrEqual(1);
    for (const w of stringWalks) expect(w).toBeLessThan(nodeCount / 100);
    // most masks here are composed, most of those of a frame that may return before any byte (an object's rest after
    // a value), which take in the caller's mask: its ids are added one by one and counted, so no mask needed a scan
    // (only a caller with a dense mask, as free text has, is OR-ed in whole and counted afterwards)
    expect(computes).toBeGreaterThan(100);
    expect(table!.bitsetScans).toBe(0);
  });
});
