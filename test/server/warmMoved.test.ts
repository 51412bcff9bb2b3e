import { describe, expect, it } from "vitest";
import { createMatcher } from "../../src/automaton/createMatcher.js";
import type { MaskTable } from "../../src/automaton/MaskTable.js";
import type { TokenMatcher } from "../../src/automaton/TokenMatcher.js";
import { compileTools } from "../../src/compile.js";
import { warmMoved } from "../../src/server/idleWarm.js";
import { composedMcpTools } from "../../bench/toolSets.js";
import { tinyVocab } from "../support/tinyVocab.js";
import { allowedIds } from "../support/automaton/allowedIds.js";

/**
 * The mask worker's idle slices for a generation that moved: ahead of its position first, then its grammar from the
 * start. Counted in masks computed by each warm-up, never in time.
 */
const vocab = tinyVocab();
const tableOf = (m: TokenMatcher): MaskTable => (m as unknown as { table: MaskTable }).table;

describe("the mask worker's idle slices after a step", () => {
  it("warm ahead of the position until nothing is left there, then from the start, and ahead again after a token", () => {
    const tools = composedMcpTools(5).map((t) => ({
      type: "function" as const,
      function: { name: t.name, parameters: t.inputSchema as Record<string, unknown> },
    }));
    const g = compileTools(tools as never, { format: "qwen3", toolChoice: "required" }).grammar;
    const m = createMatcher(g, vocab, { maxStates: 199_989 });
    const table = tableOf(m);
    const bits = new Uint32Array(m.bitmaskSize);
    for (let k = 0; k < 12; k++) {
      m.fillNextTokenBitmask(bits);
      expect(m.acceptToken(allowedIds(bits).filter((id) => !vocab.eosTokenIds.includes(id))[0])).toBe(true);
    }
    const moved = { ahead: true };
    let slices = 0;
    // ahead only: no slice goes to the warm-up from the start while the position has more
    while (moved.ahead && slices < 500) {
      expect(warmMoved(m, moved, 256, 256)).toBe(true);
      slices++;
      expect(table.warmer).toBeUndefined();
    }
    expect(slices).toBeLessThan(500);
    expect(table.aheadWarmer!.computed).toBeGreaterThan(3);
    // then from the start
    warmMoved(m, moved, 256, 256);
    expect(table.warmer).toBeDefined();
    // a token accepted: ahead again, from the new position
    m.fillNextTokenBitmask(bits);
    m.acceptToken(allowedIds(bits).filter((id) => !vocab.eosTokenIds.includes(id))[0]);
    moved.ahead = true;
    const before = table.warmer!.computed;
    warmMoved(m, moved, 4096, 256);
    expect(table.warmer!.computed).toBe(before);
    // the new position's mask was the slice's first: reading it walks nothing
    const n0 = table.nodesWalked;
    const c0 = table.automaton.configCount;
    m.fillNextTokenBitmask(bits);
    expect(table.nodesWalked).toBe(n0);
    expect(table.automaton.configCount).toBe(c0);
  });
});
