import { describe, expect, it } from "vitest";
import { compileSchema } from "../../src/compile.js";
import { decodableCase, sampleRows, type DecodableCase } from "../../bench/jsonSchemaBenchSample.js";
import { qwen3 } from "../support/qwen3.js";
import { LONG_TIER } from "../support/tier.js";
import { bit } from "../support/tinyVocab.js";

/**
 * Cold masks over the real Qwen3 vocabulary, as the JSONSchemaBench bench workload meets them: every schema is new,
 * so almost every step computes a mask (a trie walk from a configuration never seen). At every step of a valid
 * instance, the mask must equal the reference — acceptToken for every one of the 151,936 ids — whichever way the mask
 * was computed and stored (a plain walk collecting the ids of a sparse mask, a composed frame mask, a dense copy, a
 * subtree taken whole), and a second matcher reaching the same configuration (a cache hit) must get the same mask.
 */
// steps checked per instance (each checks all 151,936 ids); the rest is followed, masks against the cache hit's only
const SCHEMAS = LONG_TIER ? 10 : 5;
const MAX_STEPS = LONG_TIER ? 40 : 6;

function cases(): DecodableCase[] {
  const rows = sampleRows();
  const out: DecodableCase[] = [];
  // from evenly spaced places of the sample (its subsets are in order), the first schema that compiles and has a valid
  // instance: fixed, so the verdict never depends on the machine
  for (let s = 0; s < SCHEMAS; s++) {
    for (let i = Math.floor((s * rows.length) / SCHEMAS); i < rows.length; i++) {
      const c = decodableCase(rows[i]);
      if (c) {
        out.push(c);
        break;
      }
    }
  }
  return out;
}

describe("cold masks on the Qwen3 vocabulary equal acceptToken for every id", () => {
  const { vocab, encode } = qwen3();
  const words = Math.ceil(vocab.size / 32);
  const seen = { sparse: 0, dense: 0 };

  it.each(cases().map((c) => [c.id, c] as const))("%s", (_id, c) => {
    const compiled = compileSchema(c.schema);
    expect(compiled.accepts(c.text)).toBe(true);
    const m = compiled.createMatcher(vocab);
    const again = compiled.createMatcher(vocab);
    const bits = new Uint32Array(words);
    const hit = new Uint32Array(words);
    const seq = [...encode(c.text), vocab.eosTokenIds[0]];
    for (let k = 0; k < seq.length; k++) {
      m.fillNextTokenBitmask(bits);
      again.fillNextTokenBitmask(hit);
      let allowed = 0;
      for (let w = 0; w < words; w++) {
        if (hit[w] !== bits[w]) expect.fail(`step ${k}: the cached mask differs from the computed one in word ${w}`);
        for (let x = bits[w]; x !== 0; x &= x - 1) allowed++;
      }
      if (allowed < words) seen.sparse++;
      else seen.dense++;
      if (k >= MAX_STEPS && k < seq.length - 1) {
        expect(m.acceptToken(seq[k]) && again.acceptToken(seq[k])).toBe(true);
        continue;
      }
      for (let id = 0; id < vocab.size; id++) {
        const ok = m.acceptToken(id);
        if (ok) m.rollback(1);
        if (ok !== bit(bits, id))
          expect.fail(
            `step ${k} of ${JSON.stringify(c.text.slice(0, 40))}: token ${id} mask ${bit(bits, id)} accept ${ok}`,
          );
      }
      expect(m.acceptToken(seq[k])).toBe(true);
      if (k < seq.length - 1) expect(again.acceptToken(seq[k])).toBe(true);
    }
    expect(m.isTerminated()).toBe(true);
  });

  it("met masks stored both ways (fewer allowed tokens than mask words, and more)", () => {
    expect(seen.sparse).toBeGreaterThan(0);
    expect(seen.dense).toBeGreaterThan(0);
  });
});
