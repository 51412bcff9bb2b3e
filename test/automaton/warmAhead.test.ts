import { describe, expect, it } from "vitest";
import { jsonGrammar } from "../../bench/handGrammars.js";
import { composedMcpTools } from "../../bench/toolSets.js";
import { createMatcher } from "../../src/automaton/createMatcher.js";
import type { MaskTable } from "../../src/automaton/MaskTable.js";
import type { TokenMatcher } from "../../src/automaton/TokenMatcher.js";
import { compileTools } from "../../src/compile.js";
import type { Grammar } from "../../src/grammar/Grammar.js";
import { seededRandom } from "../../src/util/seededRandom.js";
import { allowedIds } from "../support/automaton/allowedIds.js";
import { tinyVocab } from "../support/tinyVocab.js";

/**
 * The warm-up ahead of a generation (TokenMatcher.warmAhead): after each accepted token, the masks of the positions
 * the generation reaches next, within a counted work budget, without changing any mask, and below the tables'
 * bounds. Work is counted (trie nodes, closures, configurations), never timed.
 */
const SEED = Number(process.env.TOOLGRAM_SEED ?? 20261129);
const vocab = tinyVocab();
const EOS = vocab.eosTokenIds[0];

const tableOf = (m: TokenMatcher): MaskTable => (m as unknown as { table: MaskTable }).table;
/** Whether filling `m`'s next mask computed anything: trie nodes walked or configurations made. */
function fillComputes(m: TokenMatcher, bits: Uint32Array): boolean {
  const t = tableOf(m);
  const n0 = t.nodesWalked;
  const c0 = t.automaton.configCount;
  m.fillNextTokenBitmask(bits);
  return t.nodesWalked !== n0 || t.automaton.configCount !== c0;
}

const toolSet = (n: number) =>
  composedMcpTools(n).map((t) => ({
    type: "function" as const,
    function: { name: t.name, parameters: t.inputSchema as Record<string, unknown> },
  }));

const tools5 = (): Grammar => compileTools(toolSet(5) as never, { format: "qwen3", toolChoice: "required" }).grammar;

describe("warming ahead of a generation", () => {
  it("leaves every mask as it was: seeded walks with and without warm-ahead agree (a 5-tool set, JSON)", () => {
    for (const [i, g] of [tools5(), jsonGrammar()].entries()) {
      const r = seededRandom(SEED + i);
      const x = new Uint32Array(Math.ceil(vocab.size / 32));
      const y = new Uint32Array(x.length);
      let compared = 0;
      let computedAhead = 0;
      for (let w = 0; w < 2; w++) {
        // two automata of one grammar (the cap is part of an automaton's key): one warmed ahead, one not
        const ahead = createMatcher(g, vocab, { maxStates: 199_995 });
        const plain = createMatcher(g, vocab);
        for (let k = 0; k < 48 && !ahead.isTerminated(); k++) {
          ahead.warmAhead(512);
          ahead.fillNextTokenBitmask(x);
          plain.fillNextTokenBitmask(y);
          expect(x).toEqual(y);
          compared++;
          const ids = allowedIds(x).filter((id) => id !== EOS);
          if (ids.length === 0) break;
          const id = ids[Math.floor(r() * ids.length)];
          expect(ahead.acceptToken(id)).toBe(true);
          expect(plain.acceptToken(id)).toBe(true);
        }
        computedAhead = tableOf(ahead).aheadWarmer!.computed;
      }
      expect(compared).toBeGreaterThan(50);
      expect(computedAhead).toBeGreaterThan(10);
    }
  });

  it("warms the positions after the current one: with the budget enough, the steps after it compute no mask", () => {
    const g = tools5();
    const r = seededRandom(SEED + 5);
    const bits = new Uint32Array(Math.ceil(vocab.size / 32));
    let steps = 0;
    let computedSteps = 0;
    let coldSteps = 0;
    for (let w = 0; w < 2; w++) {
      const m = createMatcher(g, vocab, { maxStates: 199_994 });
      const cold = createMatcher(g, vocab, { maxStates: 199_993 });
      for (let k = 0; k < 60 && !m.isTerminated(); k++) {
        if (k > 0) {
          // the position after the token is what the walk had warmed, from the position before it
          if (fillComputes(m, bits)) computedSteps++;
          steps++;
        }
        m.warmAhead(8192);
        // the current position's mask is the first the walk computes
        expect(fillComputes(m, bits)).toBe(false);
        if (fillComputes(cold, bits)) coldSteps++;
        const ids = allowedIds(bits).filter((id) => id !== EOS);
        if (ids.length === 0) break;
        const id = ids[Math.floor(r() * ids.length)];
        expect(m.acceptToken(id)).toBe(true);
        expect(cold.acceptToken(id)).toBe(true);
      }
    }
    expect(steps).toBeGreaterThan(100);
    // without warm-ahead, many of the same steps compute their mask; with it, (nearly) none
    expect(coldSteps).toBeGreaterThan(30);
    expect(computedSteps).toBeLessThanOrEqual(steps / 20);
  });

  it("warms ahead of where the generation is, not from the start of the grammar", () => {
    const g = tools5();
    const r = seededRandom(SEED + 9);
    const bits = new Uint32Array(Math.ceil(vocab.size / 32));
    // one generation, until a position 20 tokens or more into it whose mask is not known yet (a probe automaton that
    // computed every mask before it tells, counted), in two automata: one to be warmed from the start, one ahead of
    // its position
    const a = createMatcher(g, vocab, { maxStates: 199_992 });
    const b = createMatcher(g, vocab, { maxStates: 199_991 });
    const probe = createMatcher(g, vocab, { maxStates: 199_990 });
    let k = 0;
    for (let fresh = false; !(fresh && k >= 20); k++) {
      a.fillNextTokenBitmask(bits);
      b.fillNextTokenBitmask(bits);
      if (k === 0) probe.fillNextTokenBitmask(bits);
      const ids = allowedIds(bits).filter((id) => id !== EOS);
      const id = ids[Math.floor(r() * ids.length)];
      expect(a.acceptToken(id) && b.acceptToken(id) && probe.acceptToken(id)).toBe(true);
      fresh = fillComputes(probe, bits);
    }
    expect(k).toBeLessThan(200);
    // the same work: from the start, the warm-up is elsewhere; ahead, the next position is the first it computes
    const ta = tableOf(a);
    const tb = tableOf(b);
    const work = (t: MaskTable): number => t.nodesWalked + 16 * (t.automaton.closureWalks + t.automaton.configCount);
    const wa = work(ta);
    const wb = work(tb);
    a.warm(256);
    b.warmAhead(256);
    expect(work(ta) - wa).toBeGreaterThan(100);
    expect(work(tb) - wb).toBeGreaterThan(0);
    expect(fillComputes(a, bits)).toBe(true);
    expect(fillComputes(b, bits)).toBe(false);
    expect(tb.aheadWarmer!.computed).toBeGreaterThan(1);
    expect(() => b.warmAhead(Number.NaN)).toThrow(RangeError);
  });

  it("stops below the tables' bounds: it never makes configurations past a quarter of the cap", () => {
    const g = jsonGrammar();
    const r = seededRandom(SEED + 3);
    const bits = new Uint32Array(Math.ceil(vocab.size / 32));
    const y = new Uint32Array(bits.length);
    let nearBounds = 0;
    for (let w = 0; w < 3; w++) {
      const capped = createMatcher(g, vocab, { maxStates: 400 });
      const free = createMatcher(g, vocab);
      const A = tableOf(capped).automaton;
      for (let k = 0; k < 120 && !capped.isTerminated(); k++) {
        const c0 = A.configCount;
        const resets = A.resets;
        capped.warmAhead(1 << 16);
        // what it made stops at a quarter of the cap (one position's determinization may pass it)
        if (A.configCount > c0) expect(A.configCount).toBeLessThanOrEqual(100 + 64);
        expect(A.resets).toBe(resets);
        if (tableOf(capped).aheadWarmer!.stopReason === "bounds") nearBounds++;
        capped.fillNextTokenBitmask(bits);
        free.fillNextTokenBitmask(y);
        expect(bits).toEqual(y);
        const ids = allowedIds(bits).filter((id) => id !== EOS);
        if (ids.length === 0) break;
        const id = ids[Math.floor(r() * ids.length)];
        expect(capped.acceptToken(id)).toBe(true);
        expect(free.acceptToken(id)).toBe(true);
      }
    }
    expect(nearBounds).toBeGreaterThan(10);
  });

  it("still warms ahead after the warm-up from the start stopped at its bounds: that one leaves it room", () => {
    const g = jsonGrammar();
    const r = seededRandom(SEED + 4);
    const bits = new Uint32Array(Math.ceil(vocab.size / 32));
    const m = createMatcher(g, vocab, { maxStates: 800 });
    const table = tableOf(m);
    let slices = 0;
    while (m.warm(4096) && slices < 1000) slices++;
    expect(table.warmer!.stopReason).toBe("bounds");
    const A = table.automaton;
    const stoppedAt = A.configCount;
    // a sixteenth of the cap under a small cap: the warm-up from the start stopped that far below a quarter
    expect(stoppedAt).toBeLessThanOrEqual(200 - 50 + 64);
    for (let k = 0; k < 60 && !m.isTerminated(); k++) {
      m.warmAhead(2048);
      m.fillNextTokenBitmask(bits);
      const ids = allowedIds(bits).filter((id) => id !== EOS);
      if (ids.length === 0) break;
      expect(m.acceptToken(ids[Math.floor(r() * ids.length)])).toBe(true);
    }
    expect(table.aheadWarmer!.computed).toBeGreaterThan(0);
    expect(A.resets).toBe(0);
  });
});
