import { describe, expect, it } from "vitest";
import { githubMcpTools } from "../../bench/toolSets.js";
import { PREFETCH_CLOSURE_WEIGHT, PREFETCH_WORK, type MaskTable } from "../../src/automaton/MaskTable.js";
import { compileSchema, compileTools } from "../../src/compile.js";
import { createMatcher } from "../../src/automaton/createMatcher.js";
import { cls, lit, rep, seq } from "../../src/grammar/build.js";
import type { Grammar } from "../../src/grammar/Grammar.js";
import { firstDecodableCases, type DecodableCase } from "../../bench/jsonSchemaBenchSample.js";
import { qwen3 } from "../support/qwen3.js";
import { exactMask } from "../support/automaton/walkCheck.js";

/**
 * The work of a cold mask on JSONSchemaBench schemas (every step a first visit), counted:
 * - a whole-trie walk steps only the root bytes its start can read: the root's children lie a subtree apart in the
 *   trie's arrays, and stepping all 256 of them was most of the nodes a mask at a key or a value start visited;
 * - an epsilon closure is walked about once per R-state (a one-state closure is memoized per NFA state; R-states are
 *   interned by their states, not by a key string).
 * - the first mask of a grammar computes, within a work budget, the masks of the positions its tokens lead to through
 *   positions with few tokens allowed (keys, punctuation), so that most steps of a first pass are cache hits.
 * Masks stay exact: mask bit ⇔ acceptToken for every id of the Qwen3 vocabulary.
 */
const SCHEMAS = 12;

const cases = (): DecodableCase[] => firstDecodableCases(SCHEMAS);

describe("cold masks on JSONSchemaBench schemas: counted work", () => {
  it("walk fewer trie nodes than the root has children at the median computed step, and stay exact", () => {
    const { vocab, encode } = qwen3();
    const trie = vocab.trie;
    let rootChildren = 0;
    for (let i = 0; i < trie.nodeCount; i = trie.next[i]) rootChildren++;
    const bits = new Uint32Array(Math.ceil(vocab.size / 32));
    const walked: number[] = [];
    let closureWalks = 0;
    let rStates = 0;
    let checked = 0;
    for (const c of cases()) {
      const m = compileSchema(c.schema).createMatcher(vocab);
      const table = (m as unknown as { table: MaskTable }).table;
      const seq = [...encode(c.text), vocab.eosTokenIds[0]];
      // the first token is taken without its mask: the first mask would prefetch the positions after it (see
      // prefetchPath.test.ts), and the walks measured here are those of each step's own first visit
      expect(m.acceptToken(seq[0])).toBe(true);
      for (let k = 1; k < seq.length; k++) {
        const cached = table.cachedMasks;
        const nodes = table.nodesWalked;
        m.fillNextTokenBitmask(bits);
        if (table.cachedMasks > cached) walked.push(table.nodesWalked - nodes);
        if (k < 4) {
          expect(exactMask(m, vocab.size, bits)).toBeGreaterThan(0);
          checked++;
        }
        expect(m.acceptToken(seq[k])).toBe(true);
      }
      closureWalks += table.automaton.closureWalks;
      rStates += table.automaton.rStateCount;
    }
    expect(rootChildren).toBeGreaterThan(250);
    expect(checked).toBeGreaterThanOrEqual(3 * SCHEMAS);
    walked.sort((a, b) => a - b);
    expect(walked.length).toBeGreaterThan(100);
    // stepping every root child made each whole-trie walk visit at least rootChildren nodes (a median of 335 here)
    expect(walked[walked.length >> 1]).toBeLessThan((rootChildren * 3) / 4);
    // one closure walk per R-state, and a few for closures of several states already interned
    expect(closureWalks).toBeLessThan(rStates * 1.05);
  });

  it("the first mask prefetches within its budget, and most steps of a first pass are then cache hits", () => {
    const { vocab, encode } = qwen3();
    const bits = new Uint32Array(Math.ceil(vocab.size / 32));
    let steps = 0;
    let hits = 0;
    // the process's shared frames (a string's local masks: MaskTable.warmSharedFrames) are walked with the first mask
    // of the process's first grammar, outside the prefetch's budget
    compileSchema(cases()[0].schema).createMatcher(vocab).fillNextTokenBitmask(bits);
    for (const c of cases()) {
      const m = compileSchema(c.schema).createMatcher(vocab);
      const table = (m as unknown as { table: MaskTable }).table;
      const A = table.automaton;
      const work = (): number => table.nodesWalked + PREFETCH_CLOSURE_WEIGHT * (A.closureWalks + A.configCount);
      const before = work();
      m.fillNextTokenBitmask(bits);
      // the budget, the first mask's own walk and the last prefetched mask's closures past it
      expect(work() - before).toBeLessThan(PREFETCH_WORK * 1.5);
      expect(table.prefetchedMasks).toBeGreaterThan(10);
      for (const id of [...encode(c.text), vocab.eosTokenIds[0]]) {
        const cached = table.cachedMasks;
        m.fillNextTokenBitmask(bits);
        if (table.cachedMasks === cached) hits++;
        steps++;
        expect(m.acceptToken(id)).toBe(true);
      }
    }
    // without the prefetch, a quarter of these steps are hits (repeated positions inside strings and arrays)
    expect(hits).toBeGreaterThan(steps / 2);
  });

  it("a prefetch walk stopped at its budget (a walk of most of the trie) leaves exact masks", () => {
    const { vocab, encode } = qwen3();
    // after one rare byte (few tokens: followed), lowercase words: a walk of tens of thousands of trie nodes, more than
    // the budget, so the prefetch stops inside it
    const grammar: Grammar = {
      root: "root",
      rules: new Map([["root", seq(lit("\u0001"), rep(cls([0x61, 0x7a]), 1, null))]]),
    };
    const m = createMatcher(grammar, vocab);
    const table = (m as unknown as { table: MaskTable }).table;
    const bits = new Uint32Array(Math.ceil(vocab.size / 32));
    const before = table.nodesWalked;
    expect(exactMask(m, vocab.size, bits)).toBeGreaterThan(0);
    expect(table.prefetchStops).toBe(1);
    expect(table.nodesWalked - before).toBeLessThan(PREFETCH_WORK * 1.5);
    // where the stopped walk was: computed afresh by the step, exact, and so are the steps after it
    for (const id of encode("\u0001promptly")) {
      expect(m.acceptToken(id)).toBe(true);
      expect(exactMask(m, vocab.size, bits)).toBeGreaterThan(0);
    }
    expect(m.isCompleted()).toBe(true);
  });

  it("no prefetch where the grammar is built lazily (a large tool set): its first mask builds only what it reaches", () => {
    const { vocab } = qwen3();
    const c = compileTools(githubMcpTools(), {
      format: "qwen3",
      toolChoice: "required",
      parallel: false,
      limits: { maxCompileMs: 600_000 },
    });
    const m = c.createMatcher(vocab);
    const table = (m as unknown as { table: MaskTable }).table;
    expect(table.automaton.nfa.lazy).toBe(true);
    m.fillNextTokenBitmask(new Uint32Array(Math.ceil(vocab.size / 32)));
    expect(table.prefetchedMasks).toBe(0);
    expect(table.cachedMasks).toBe(1);
  });
});
