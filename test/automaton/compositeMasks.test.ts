import { describe, expect, it } from "vitest";
import type { MaskTable } from "../../src/automaton/MaskTable.js";
import { compileSchema } from "../../src/compile.js";
import { firstDecodableCases, type DecodableCase } from "../../bench/jsonSchemaBenchSample.js";
import { qwen3 } from "../support/qwen3.js";
import { exactMask } from "../support/automaton/walkCheck.js";

/**
 * A mask composed from a frame's dense local part (inside a string: most of the vocabulary) and the tokens its caller
 * adds after the frame's exits is stored as the shared local bitset and those ids, not as a copy of the whole
 * bitset (19 KB for Qwen3) per configuration: since the first mask's prefetch goes past string values, every string
 * of a schema has a few such masks. Counted in the cached bytes of the first pass through JSONSchemaBench schemas;
 * masks exact (mask bit ⇔ acceptToken over the whole Qwen3 vocabulary) inside string values.
 */
const SCHEMAS = 12;

const cases = (): DecodableCase[] => firstDecodableCases(SCHEMAS);

describe("composed masks of string positions", () => {
  it("are stored without a copy of the vocabulary's bitset, and exact", () => {
    const { vocab, encode } = qwen3();
    const bits = new Uint32Array(Math.ceil(vocab.size / 32));
    const decoder = new TextDecoder();
    let bytes = 0;
    let checked = 0;
    for (const c of cases()) {
      const m = compileSchema(c.schema).createMatcher(vocab);
      const table = (m as unknown as { table: MaskTable }).table;
      let text = "";
      let inString = 0;
      for (const id of [...encode(c.text), vocab.eosTokenIds[0]]) {
        // the step right after a string value's opening quote: a composed mask (the string's local part, the exits)
        if (inString === 1 && checked < 2 * SCHEMAS) {
          expect(exactMask(m, vocab.size, bits)).toBeGreaterThan(1000);
          checked++;
        } else m.fillNextTokenBitmask(bits);
        expect(m.acceptToken(id)).toBe(true);
        text += decoder.decode(vocab.bytes.subarray(vocab.offsets[id], vocab.offsets[id + 1]));
        inString = text.endsWith(': "') ? 1 : inString === 1 ? 2 : 0;
      }
      bytes += table.memoryBytes();
    }
    expect(checked).toBeGreaterThan(SCHEMAS);
    // a copy of the whole bitset per composed mask: 1,657,604 bytes of masks for these 12 first passes
    expect(bytes).toBeLessThan(900_000);
  });
});
