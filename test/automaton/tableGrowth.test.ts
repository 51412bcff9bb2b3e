import { describe, expect, it } from "vitest";
import type { MaskTable } from "../../src/automaton/MaskTable.js";
import { compileSchema } from "../../src/compile.js";
import { canonicalJson } from "../../src/json.js";
import { sampleRows } from "../../bench/jsonSchemaBenchSample.js";
import { qwen3 } from "../support/qwen3.js";
import { bit } from "../support/tinyVocab.js";
import { twentyToolGrammar, twentyTools } from "../../bench/handGrammars.js";
import { prng, sampleArguments, twentyOpenAiTools } from "../../bench/toolSets.js";
import type { Automaton } from "../../src/automaton/Automaton.js";
import { createMatcher } from "../../src/automaton/createMatcher.js";

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
      const texts = rec.tests
        .filter((t) => t.valid)
        .map((t) => canonicalJson(t.data))
        .filter((t) => c.accepts(t));
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

  it("grow by copying the rows made so far, not by filling the rows to come", () => {
    // the bench's hand-built 20-tool grammar (built lazily: its tables start small and double while calls are
    // decoded) and its seeded calls
    const { vocab, encode } = qwen3();
    const bits = new Uint32Array(Math.ceil(vocab.size / 32));
    const g = twentyToolGrammar();
    const hand = twentyTools().map((t) => t.name);
    const rnd = prng(7);
    const tools = twentyOpenAiTools();
    const texts: string[] = [];
    for (let i = 0; i < 24; i++) {
      const tool = tools[Math.floor(rnd() * tools.length)];
      const text = `<tool_call>\n${canonicalJson({ name: tool.function.name, arguments: sampleArguments(tool, rnd) as never })}\n</tool_call>`;
      if (hand.some((n) => text.includes(`"${n}"`))) texts.push(text);
    }
    let A: Automaton | undefined;
    for (const text of texts) {
      const m = createMatcher(g, vocab);
      A = (m as unknown as { table: MaskTable }).table.automaton;
      for (const id of [...encode(text), vocab.eosTokenIds[0]]) {
        m.fillNextTokenBitmask(bits);
        expect(bit(bits, id)).toBe(true);
        expect(m.acceptToken(id)).toBe(true);
      }
    }
    const final = A!.cTrans.length + A!.rsTable.length;
    // the tables doubled several times (from 64 rows each)
    expect(final).toBeGreaterThan(8 * 64 * 256);
    // a doubling used to write the whole new table (UNKNOWN in its new half, the old half copied), so the last
    // doubling of each table alone wrote its final length; copies alone add up to less than it
    expect(A!.growthWrites).toBeLessThan(final);
  });
});
