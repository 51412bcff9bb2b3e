import { describe, expect, it } from "vitest";
import type { Automaton } from "../../src/automaton/Automaton.js";
import type { TokenMatcher } from "../../src/automaton/TokenMatcher.js";
import { compileSchema } from "../../src/compile.js";
import { bit, tinyVocab } from "../support/tinyVocab.js";

/**
 * The automaton's byte tables (a row of 256 entries per R-state and per configuration) grow in place: no growth copies
 * the rows made so far into fresh memory inside a mask (a table of 2–4 MB took 25–90 ms so on a loaded machine, the
 * largest part of masks that walked a few hundred trie nodes). Counted in the entries growths wrote, never timed; the
 * masks after the growths are checked against acceptToken for every id.
 */
const automaton = (m: TokenMatcher): Automaton => (m as unknown as { table: { automaton: Automaton } }).table.automaton;

// many optional keys with distinct names: a key position makes an R-state per name prefix
const names = Array.from({ length: 240 }, (_, i) => `k${(i * 7919).toString(36)}x${i}`);
const schema = {
  type: "object",
  properties: Object.fromEntries(names.map((n, i) => [n, i % 2 ? { type: "string" } : { type: "integer" }])),
};

describe("byte tables", () => {
  it("grow in place: rows made before a growth are not copied, and masks stay exact", () => {
    const vocab = tinyVocab();
    const bits = new Uint32Array(Math.ceil(vocab.size / 32));
    const compiled = compileSchema(schema);
    const A = automaton(compiled.createMatcher(vocab));
    const rowsFirst = A.cTrans.length + A.rsTable.length;
    for (const n of names) {
      // one matcher per key: each name's prefixes are R-states and configurations of their own
      const m = compiled.createMatcher(vocab);
      expect(m.acceptString(`{"${n}": `)).toBe(true);
      m.fillNextTokenBitmask(bits);
      for (let id = 0; id < vocab.size; id++) {
        const ok = m.acceptToken(id);
        if (ok) m.rollback(1);
        if (ok !== bit(bits, id)) expect.fail(`after key ${n}: token ${id} mask ${!ok}`);
      }
    }
    // the tables doubled several times from the rows they were made with...
    expect(A.cTrans.length + A.rsTable.length).toBeGreaterThan(4 * rowsFirst);
    // ...and no growth copied a row (a doubling by copying writes the rows so far: its whole old table)
    expect(A.growthWrites).toBe(0);
  });
});
