import { describe, expect, it } from "vitest";
import { jsonGrammar } from "../../bench/handGrammars.js";
import { composedMcpTools, githubMcpTools } from "../../bench/toolSets.js";
import { createMatcher } from "../../src/automaton/createMatcher.js";
import type { MaskTable } from "../../src/automaton/MaskTable.js";
import type { TokenMatcher } from "../../src/automaton/TokenMatcher.js";
import { compileSchema, compileTools } from "../../src/compile.js";
import type { Grammar } from "../../src/grammar/Grammar.js";
import { tinyVocab } from "../support/tinyVocab.js";
import { seededRandom } from "../../src/util/seededRandom.js";
import { allowedIds } from "../support/automaton/allowedIds.js";

/**
 * The warm-up of idle time (TokenMatcher.warm): it computes ahead the masks a generation reaches soonest, in slices of
 * counted work, without changing any mask, and stops below the tables' bounds. Work is counted (trie nodes, closures,
 * configurations), never timed.
 */
const SEED = Number(process.env.TOOLGRAM_SEED ?? 20261128);
const vocab = tinyVocab();
const EOS = vocab.eosTokenIds[0];

const tableOf = (m: TokenMatcher): MaskTable => (m as unknown as { table: MaskTable }).table;
const workOf = (t: MaskTable): number => t.nodesWalked + 16 * (t.automaton.closureWalks + t.automaton.configCount);

/** Seeded walks of two matchers side by side (each its own tables): every mask equal; returns the masks compared. */
function walkBoth(a: () => TokenMatcher, b: () => TokenMatcher, seed: number, walks: number, tokens: number): number {
  const r = seededRandom(seed);
  const x = new Uint32Array(a().bitmaskSize);
  const y = new Uint32Array(x.length);
  let compared = 0;
  for (let w = 0; w < walks; w++) {
    const ma = a();
    const mb = b();
    for (let k = 0; k < tokens && !ma.isTerminated(); k++) {
      ma.fillNextTokenBitmask(x);
      mb.fillNextTokenBitmask(y);
      expect(x).toEqual(y);
      compared++;
      const ids = allowedIds(x).filter((id) => id !== EOS);
      if (ids.length === 0) break;
      const id = ids[Math.floor(r() * ids.length)];
      expect(ma.acceptToken(id)).toBe(true);
      expect(mb.acceptToken(id)).toBe(true);
    }
  }
  return compared;
}

const toolSet = (n: number) =>
  composedMcpTools(n).map((t) => ({
    type: "function" as const,
    function: { name: t.name, parameters: t.inputSchema as Record<string, unknown> },
  }));

describe("warming a matcher in idle time", () => {
  it("leaves every mask as it was: seeded walks with and without warming agree (a 30-tool set, JSON)", () => {
    const tools = compileTools(toolSet(30) as never, { format: "qwen3", toolChoice: "required" });
    const grammars: Grammar[] = [tools.grammar, jsonGrammar()];
    for (const [i, g] of grammars.entries()) {
      // two automata of one grammar (the cap is part of an automaton's key): one warmed, one not
      const warmed = createMatcher(g, vocab, { maxStates: 199_999 });
      let slices = 0;
      while (warmed.warm(2048) && slices < 200) slices++;
      expect(tableOf(warmed).warmer!.computed).toBeGreaterThan(20);
      const compared = walkBoth(
        () => createMatcher(g, vocab, { maxStates: 199_999 }),
        () => createMatcher(g, vocab),
        SEED + i,
        6,
        120,
      );
      expect(compared).toBeGreaterThan(200);
    }
  });

  it("walks at most the work it is given in each slice, and the steps after it walk less", () => {
    const tools = compileTools(toolSet(20) as never, { format: "qwen3", toolChoice: "required" });
    const cold = createMatcher(tools.grammar, vocab, { maxStates: 199_998 });
    const warm = createMatcher(tools.grammar, vocab, { maxStates: 199_997 });
    const table = tableOf(warm);
    warm.warm(0); // the first mask
    let given = 0;
    let spent = 0;
    for (let k = 0; k < 400; k++) {
      const n0 = table.nodesWalked;
      const w0 = workOf(table);
      const more = warm.warm(1024);
      // the trie walks stop at the slice's end (a stopped walk counts the node it stopped at)
      expect(table.nodesWalked - n0).toBeLessThanOrEqual(1024 + 1);
      given += 1024;
      spent += workOf(table) - w0;
      if (!more) break;
    }
    // what one position's determinization overshoots is taken from the next slice
    expect(spent).toBeLessThanOrEqual(given + 16 * 4096);
    expect(table.warmer!.computed).toBeGreaterThan(50);
    // the same walks after warming walk fewer trie nodes than cold
    const nodesAlong = (m: () => TokenMatcher): number => {
      const t = tableOf(m());
      const n0 = t.nodesWalked;
      walkBoth(m, m, SEED + 7, 4, 80);
      return t.nodesWalked - n0;
    };
    const coldNodes = nodesAlong(() => createMatcher(tools.grammar, vocab, { maxStates: 199_998 }));
    const warmNodes = nodesAlong(() => createMatcher(tools.grammar, vocab, { maxStates: 199_997 }));
    expect(cold.bitmaskSize).toBe(warm.bitmaskSize);
    expect(warmNodes * 2).toBeLessThan(coldNodes);
  });

  it("stops below the tables' bounds, and decoding after it never throws for them", () => {
    const g = jsonGrammar();
    const capped = createMatcher(g, vocab, { maxStates: 400 });
    const A = tableOf(capped).automaton;
    let slices = 0;
    while (capped.warm(4096) && slices < 1000) slices++;
    expect(slices).toBeLessThan(1000);
    // a quarter of the cap, and one position's configurations past it at most
    expect(A.configCount).toBeLessThanOrEqual(100 + 64);
    expect(A.resets).toBe(0);
    expect(tableOf(capped).warmer!.stopReason).toBe("bounds");
    // seeded walks under the cap after the warm-up: masks equal to the unbounded ones, no throw
    const compared = walkBoth(
      () => createMatcher(g, vocab, { maxStates: 400 }),
      () => createMatcher(g, vocab),
      SEED,
      8,
      200,
    );
    expect(compared).toBeGreaterThan(800);
    // once the decoding has started the tables afresh, the warm-up starts again on the new tables, within bounds
    expect(capped.warm(4096)).toBeTypeOf("boolean");
  });

  it("says why it ended: every position within its levels warmed (a small schema)", () => {
    const g = compileSchema({
      type: "object",
      properties: { unit: { enum: ["celsius", "fahrenheit"] }, days: { type: "boolean" } },
      required: ["unit"],
      additionalProperties: false,
    }).grammar;
    const m = createMatcher(g, vocab, { maxStates: 199_996 });
    let slices = 0;
    while (m.warm(4096) && slices < 200) slices++;
    expect(slices).toBeLessThan(200);
    const warmer = tableOf(m).warmer!;
    expect(warmer.stopReason).toBe("done");
    // the first mask's prefetch had computed most of it: the warm-up went through every position all the same
    expect(warmer.computed + tableOf(m).prefetchedMasks).toBeGreaterThan(5);
    expect(tableOf(m).automaton.resets).toBe(0);
  });

  it("warms the 117-tool set's tools: their first positions are computed before a call reaches them", () => {
    const tools = githubMcpTools().map((t) => ({
      type: "function" as const,
      function: { name: t.name, parameters: t.inputSchema as Record<string, unknown> },
    }));
    const compiled = compileTools(tools as never, { format: "qwen3", toolChoice: "required" });
    const m = compiled.createMatcher(vocab);
    const table = tableOf(m);
    const states0 = table.automaton.nfa.stateCount;
    for (let k = 0; k < 60 && m.warm(8192); k++);
    // the lazily built tool frames were built by the warm-up, not by a step
    expect(table.automaton.nfa.stateCount).toBeGreaterThan(states0 * 4);
    expect(() => m.warm(-1)).toThrow(RangeError);
  });
});
