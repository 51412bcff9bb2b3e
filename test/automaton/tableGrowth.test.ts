import { describe, expect, it } from "vitest";
import type { MaskTable } from "../../src/automaton/MaskTable.js";
import { compileSchema } from "../../src/compile.js";
import { canonicalJson } from "../../src/json.js";
import { sampleRows } from "../../bench/jsonSchemaBenchSample.js";
import { qwen3 } from "../support/qwen3.js";
import { bit } from "./tinyVocab.js";

/**
 * The automaton's byte tables (a row of 256 entries per R-state and per configuration) are sized from the NFA when the
 * matcher is made, so that decoding a schema's instances rarely grows them inside a mask: a growth allocates, fills and
 * copies 128–256 KB, a tenth of the slowest cold masks. Counted on the JSONSchemaBench schemas the bench decodes (the
 * first 12, every valid instance): masks during which a table grew. With 64 rows for every automaton, 11 of their
 * masks grew a table.
 */

describe("byte tables sized from the NFA", () => {
  it("rarely grow while the bench's JSONSchemaBench instances are decoded", () => {
    const { vocab, encode } = qwen3();
    const bits = new Uint32Array(Math.ceil(vocab.size / 32));
        let schemas = 0;
    let masks = 0;
    let grew = 0;
    for (const rec of sampleRows()) {
      if (schemas >= 12) break;
      if (JSON.stringify(rec.schema).length > 3000) continue;
      let c;
      try {
        c = compileSchema(rec.schema);
      } catch {
        continue;
      }
      const texts = rec.tests.filter((t) => t.valid).map((t) => canonicalJson(t.data)).filter((t) => c.accepts(t));
      if (texts.length === 0) continue;
      schemas++;
      for (const text of texts) {
        const m = c.createMatcher(vocab);
        const A = (m as unknown as { table: MaskTable }).table.automaton;
        for (const id of [...encode(text), vocab.eosTokenIds[0]]) {
          const before = A.cTrans.length + A.rsTable.length;
          m.fillNextTokenBitmask(bits);
          masks++;
          if (A.cTrans.length + A.rsTable.length !== before) grew++;
          expect(bit(bits, id)).toBe(true);
          expect(m.acceptToken(id)).toBe(true);
        }
      }
    }
    expect(masks).toBeGreaterThan(300);
    expect(grew).toBeLessThanOrEqual(2);
  });
});
