import { describe, expect, it } from "vitest";
import { twentyOpenAiTools } from "../../bench/toolSets.js";
import { PREFETCH_CLOSURE_WEIGHT, PREFETCH_WORK, type MaskTable } from "../../src/automaton/MaskTable.js";
import { compileSchema, compileTools } from "../../src/compile.js";
import { createMatcher } from "../../src/automaton/createMatcher.js";
import { alt, cls, lit, rep, seq } from "../../src/grammar/build.js";
import type { Grammar } from "../../src/grammar/Grammar.js";
import { firstDecodableCases, type DecodableCase } from "../../bench/jsonSchemaBenchSample.js";
import { qwen3 } from "../support/qwen3.js";
import { exactMask } from "../support/automaton/walkCheck.js";

/**
 * The first mask's prefetch (MaskTable.prefetch) goes past string values: a wide mask (a string's start after
 * ` "`, its content) is followed by its one-byte steps, so the caller after the closing quote, the next key and the
 * next value are prefetched too, best first along the path of first continuations, within the same counted budget.
 * The steps of a first pass through JSONSchemaBench schemas that still compute a mask (the cold masks that made the
 * p99) are counted; masks stay exact (mask bit ⇔ acceptToken over the whole Qwen3 vocabulary).
 */
const SCHEMAS = 12;

const cases = (): DecodableCase[] => firstDecodableCases(SCHEMAS);

describe("prefetch past string values", () => {
  it("leaves few steps of a first pass to compute a mask, within the budget, masks exact", () => {
    const { vocab, encode } = qwen3();
    const bits = new Uint32Array(Math.ceil(vocab.size / 32));
    const decoder = new TextDecoder();
    let steps = 0;
    let cold = 0;
    let checked = 0;
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
      expect(work() - before).toBeLessThan(PREFETCH_WORK * 1.5);
      let text = "";
      let checkedHere = 0;
      for (const id of [...encode(c.text), vocab.eosTokenIds[0]]) {
        const cached = table.cachedMasks;
        m.fillNextTokenBitmask(bits);
        if (table.cachedMasks > cached) cold++;
        // the positions this prefetch adds: inside a string value and after it (exact at a few of each schema)
        else if (checkedHere < 2 && (text.endsWith(': "') || text.endsWith('",'))) {
          expect(exactMask(m, vocab.size, bits)).toBeGreaterThan(0);
          checkedHere++;
          checked++;
        }
        steps++;
        expect(m.acceptToken(id)).toBe(true);
        text += decoder.decode(vocab.bytes.subarray(vocab.offsets[id], vocab.offsets[id + 1]));
      }
    }
    // the prefetch that followed few-token masks only left 169 of these 424 steps to compute a mask: every string
    // value's start and everything after the first string value of an object
    expect(steps).toBeGreaterThan(400);
    expect(cold).toBeLessThan(steps / 10);
    expect(checked).toBeGreaterThan(SCHEMAS);
  });

  it("a position whose walk passes its share is left to its step, and the prefetch goes on with the others", () => {
    const { vocab, encode } = qwen3();
    // after \u0001, two continuations: \u0002 then lowercase words (a walk of tens of thousands of trie nodes), or
    // \u0003 then a short literal. The first is stopped at its share; the second is prefetched all the same (a stop
    // used to end the prefetch, and took what was left of the budget)
    const grammar: Grammar = {
      root: "root",
      rules: new Map([
        [
          "root",
          seq(lit("\u0001"), alt(seq(lit("\u0002"), rep(cls([0x61, 0x7a]), 1, null)), seq(lit("\u0003"), lit("done")))),
        ],
      ]),
    };
    const m = createMatcher(grammar, vocab);
    const table = (m as unknown as { table: MaskTable }).table;
    const bits = new Uint32Array(Math.ceil(vocab.size / 32));
    const before = table.nodesWalked;
    expect(exactMask(m, vocab.size, bits)).toBeGreaterThan(0);
    expect(table.prefetchStops).toBe(1);
    expect(table.nodesWalked - before).toBeLessThan(PREFETCH_WORK / 2);
    // the short branch's masks are hits; the stopped one is computed by its step, exact
    const cached = table.cachedMasks;
    const short = encode("\u0001\u0003");
    for (const id of short) expect(m.acceptToken(id)).toBe(true);
    m.fillNextTokenBitmask(bits);
    expect(table.cachedMasks).toBe(cached);
    m.rollback(short.length);
    for (const id of encode("\u0001\u0002")) expect(m.acceptToken(id)).toBe(true);
    expect(exactMask(m, vocab.size, bits)).toBeGreaterThan(0);
    expect(table.cachedMasks).toBe(cached + 1);
  });

  it("no one-byte steps from a start that allows most of the vocabulary (free text before tool calls)", () => {
    const { vocab } = qwen3();
    const m = compileTools(twentyOpenAiTools(), { format: "qwen3" }).createMatcher(vocab);
    const table = (m as unknown as { table: MaskTable }).table;
    m.fillNextTokenBitmask(new Uint32Array(Math.ceil(vocab.size / 32)));
    // its start only: following its one-byte steps computed the masks after `<`, after a letter... (2 more masks here,
    // and a walk stopped at its share) for the first mask of every tool set
    expect(table.prefetchedMasks).toBe(1);
    expect(table.prefetchStops).toBe(0);
  });
});
