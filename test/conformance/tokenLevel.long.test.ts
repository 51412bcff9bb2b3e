/**
 * Token-level conformance: the JSON-Schema-Test-Suite (draft2020-12) and the JSONSchemaBench sample again, now through
 * the token matcher over the real Qwen3 vocabulary, each instance tokenized by the Qwen3 tokenizer
 * (@huggingface/tokenizers). The matcher's verdict (every token accepted, then complete, with the EOS bit set exactly
 * then) must equal `accepts()`, and no invalid instance may be accepted. The quick tier runs every 24th JSONSchemaBench schema, the long tier (`npm run test:long`) every third;
 * `TOKEN_LEVEL_ALL=1` runs all of them.
 */
import { describe, expect, it } from "vitest";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { compileSchema } from "../../src/compile.js";
import type { CompiledGrammar } from "../../src/CompiledGrammar.js";
import { ToolgramError } from "../../src/errors.js";
import { canonicalJson, type JsonValue } from "../../src/json.js";
import { loadTestSuite } from "../../src/conformance/loadTestSuite.js";
import { CONFORMANCE_OPTIONS, readCorpus } from "../../src/conformance/judgeCorpus.js";
import { Referee } from "../../src/conformance/referee.js";
import { qwen3 } from "../support/qwen3.js";
import { LONG_TIER, tierSample } from "../support/tier.js";

const here = dirname(fileURLToPath(import.meta.url));
const referee = new Referee();

interface Tally {
  schemas: number;
  instances: number;
  agree: number;
  mismatches: string[];
  invalidAccepted: string[];
  /** Grammars that compiled but whose matcher could not be built (a named limit): reported, and a failure. */
  matcherRefused: string[];
  /** Instances the tokenizer's normalization rewrites (not the same text once tokenized). */
  normalized: number;
}

function decode(vocab: ReturnType<typeof qwen3>["vocab"], ids: number[]): string {
  const parts: Uint8Array[] = ids.map((id) =>
    vocab.atoms.has(id) ? new TextEncoder().encode(vocab.atoms.get(id)) : vocab.tokenBytes(id),
  );
  const all = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) {
    all.set(p, o);
    o += p.length;
  }
  return new TextDecoder().decode(all);
}

function run(cases: { id: string; schema: unknown; tests: { data: JsonValue; valid: boolean }[] }[]): Tally {
  const { vocab, encode } = qwen3();
  const bits = new Uint32Array(Math.ceil(vocab.size / 32));
  const eos = vocab.eosTokenIds[0];
  const t: Tally = {
    schemas: 0,
    instances: 0,
    agree: 0,
    mismatches: [],
    invalidAccepted: [],
    matcherRefused: [],
    normalized: 0,
  };
  for (const c of cases) {
    let g: CompiledGrammar;
    try {
      g = compileSchema(c.schema, CONFORMANCE_OPTIONS);
    } catch (e) {
      if (e instanceof ToolgramError) continue;
      throw e;
    }
    t.schemas++;
    try {
      judgeAll(g, c, t, vocab, encode, bits, eos);
    } catch (e) {
      if (!(e instanceof ToolgramError)) throw e;
      t.matcherRefused.push(`${c.id}: ${e.code}`);
    }
  }
  return t;
}

function judgeAll(
  g: CompiledGrammar,
  c: { id: string; tests: { data: JsonValue; valid: boolean }[] },
  t: Tally,
  vocab: ReturnType<typeof qwen3>["vocab"],
  encode: (text: string) => number[],
  bits: Uint32Array,
  eos: number,
): void {
  {
    const m = g.createMatcher(vocab);
    for (const test of c.tests) {
      let text: string;
      try {
        text = canonicalJson(test.data);
      } catch {
        continue;
      }
      const ids = encode(text);
      // Qwen3's tokenizer normalizes to NFC: "a\u0308" comes out as the tokens of "ä". The matcher judges the tokens,
      // so an instance the tokenizer rewrites is not a test of the same text (counted apart).
      if (decode(vocab, ids) !== text) {
        t.normalized++;
        continue;
      }
      t.instances++;
      m.reset();
      let ok = true;
      for (const id of ids)
        if (!m.acceptToken(id)) {
          ok = false;
          break;
        }
      const tokenVerdict = ok && m.isCompleted();
      if (ok) {
        // the EOS bit must say the same as isCompleted()
        m.fillNextTokenBitmask(bits);
        const eosBit = ((bits[eos >>> 5] >>> (eos & 31)) & 1) === 1;
        if (eosBit !== tokenVerdict) t.mismatches.push(`${c.id}: EOS bit ${eosBit} but isCompleted ${tokenVerdict}`);
      }
      const ref = g.accepts(text);
      if (tokenVerdict === ref) t.agree++;
      else t.mismatches.push(`${c.id}: matcher ${tokenVerdict}, accepts ${ref} on ${text.slice(0, 120)}`);
      if (tokenVerdict && !test.valid) t.invalidAccepted.push(`${c.id}: ${text.slice(0, 120)}`);
    }
  }
}

describe("token-level conformance (Qwen3 vocabulary)", () => {
  it("JSON-Schema-Test-Suite draft2020-12: matcher = accepts(), no invalid accepted", () => {
    // the quick tier checks every 4th suite case; the long tier all of them
    const cases = tierSample(
      loadTestSuite(join(here, "../fixtures/json-schema-test-suite/draft2020-12"), "draft2020-12"),
      4,
    ).map((c) => {
      const byAjv = /^optional\/(format\/|content)/.test(c.file);
      return {
        id: `${c.file} | ${c.description}`,
        schema: c.schema,
        tests: c.tests.map((x) => ({
          data: x.data,
          valid: byAjv ? referee.validText(c.schema, canonicalJson(x.data)) : x.valid,
        })),
      };
    });
    const t = run(cases);
    console.log(
      `token-level suite: ${t.schemas} schemas, ${t.instances} instances, ${t.agree} agree, ${t.matcherRefused.length} matchers refused, ${t.normalized} rewritten by the tokenizer's normalizer`,
    );
    expect(t.matcherRefused.slice(0, 10)).toEqual([]);
    expect(t.mismatches.slice(0, 10)).toEqual([]);
    expect(t.invalidAccepted.slice(0, 10)).toEqual([]);
  }, 600_000);

  it("JSONSchemaBench sample: matcher = accepts(), no invalid accepted", () => {
    const rows = readCorpus(join(here, "../fixtures/jsonschemabench/sample.jsonl")).filter(
      (_, i) => process.env.TOKEN_LEVEL_ALL || i % (LONG_TIER ? 3 : 24) === 0,
    );
    const t = run(rows.map((r) => ({ id: r.id, schema: r.schema, tests: r.tests ?? [] })));
    console.log(
      `token-level JSONSchemaBench: ${t.schemas} schemas, ${t.instances} instances, ${t.agree} agree, ${t.normalized} rewritten by the tokenizer's normalizer, matchers refused: ${JSON.stringify(t.matcherRefused)}`,
    );
    // A matcher refused with a named limit fails closed (no verdict, no wrong one); a few very large real-world
    // schemas exceed limits.maxAutomatonStates. Bounded so that a regression cannot hide here.
    expect(t.matcherRefused.every((r) => r.endsWith(": LIMIT_AUTOMATON_SIZE"))).toBe(true);
    expect(t.matcherRefused.length).toBeLessThanOrEqual(Math.ceil(t.schemas / 100));
    expect(t.mismatches.slice(0, 10)).toEqual([]);
    expect(t.invalidAccepted.slice(0, 10)).toEqual([]);
  }, 600_000);
});
