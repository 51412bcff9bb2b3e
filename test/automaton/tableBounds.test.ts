import { describe, expect, it } from "vitest";
import { jsonGrammar } from "../../bench/handGrammars.js";
import { composedMcpTools } from "../../bench/toolSets.js";
import { createMatcher } from "../../src/automaton/createMatcher.js";
import type { TokenMatcher } from "../../src/automaton/TokenMatcher.js";
import { compileSchema, compileTools } from "../../src/compile.js";
import { createAcceptor } from "../../src/grammar/accepts.js";
import type { Grammar } from "../../src/grammar/Grammar.js";
import { Vocabulary } from "../../src/vocab/Vocabulary.js";
import { textOf, tinyPieces } from "../support/tinyVocab.js";
import { seededRandom } from "../../src/util/seededRandom.js";
import { allowedIds } from "../support/automaton/allowedIds.js";

/**
 * Bounds of the automaton's tables met while decoding: the tables start afresh (Automaton.reset) and every matcher
 * replays its input, so no mask or step throws for a size limit once a generation has started, and the masks are
 * the same as with unbounded tables. Work is counted in tokens, resets and states, never in time.
 */
const SEED = Number(process.env.TOOLGRAM_SEED ?? 20261128);

/** The tiny vocabulary with a single-byte token for every byte value (token budgets need one). */
function byteCompleteVocab(): Vocabulary {
  const pieces = tinyPieces();
  const eos = pieces.length - 1;
  const control = Array.from({ length: 0x20 }, (_, b) => Uint8Array.of(b))
    .filter((p) => p[0] !== 9 && p[0] !== 10)
    .concat([Uint8Array.of(0x7f)]);
  return Vocabulary.fromPieces([...control, ...pieces], { eosTokenIds: [control.length + eos] });
}
const vocab = byteCompleteVocab();
const EOS = vocab.eosTokenIds[0];

/**
 * A seeded walk under the matcher's budgeted masks (the output must end within `budget` tokens), EOS taken only when
 * nothing else is allowed or the budget bites: returns the tokens taken, the end token included.
 */
function walkToEnd(m: TokenMatcher, seed: number, budget: number, onStep?: (bits: Uint32Array) => void): number[] {
  const r = seededRandom(seed);
  const bits = new Uint32Array(m.bitmaskSize);
  const taken: number[] = [];
  for (let left = budget; left > 0 && !m.isTerminated(); left--) {
    m.fillNextTokenBitmaskWithin(bits, left);
    onStep?.(bits);
    const ids = allowedIds(bits);
    const other = ids.filter((id) => id !== EOS);
    const pick = other.length > 0 ? other[Math.floor(r() * other.length)] : EOS;
    expect(m.acceptToken(pick)).toBe(true);
    taken.push(pick);
  }
  return taken;
}

describe("table bounds met while decoding", () => {
  it("a recursive grammar under a small state cap: masks equal the unbounded ones, across resets and rollbacks", () => {
    const g = jsonGrammar();
    const capped = [createMatcher(g, vocab, { maxStates: 80 }), createMatcher(g, vocab, { maxStates: 80 })];
    const free = [createMatcher(g, vocab), createMatcher(g, vocab)];
    const A = (capped[0] as unknown as { table: { automaton: { resets: number } } }).table.automaton;
    const r = seededRandom(SEED);
    const a = new Uint32Array(capped[0].bitmaskSize);
    const b = new Uint32Array(capped[0].bitmaskSize);
    let tokens = 0;
    const depth = [0, 0];
    for (let step = 0; step < 3000; step++) {
      // two matchers share the capped tables: a reset made by one is replayed by the other when it next runs
      const k = r() < 0.5 ? 0 : 1;
      capped[k].fillNextTokenBitmask(a);
      free[k].fillNextTokenBitmask(b);
      expect(a).toEqual(b);
      const ids = allowedIds(a).filter((id) => id !== EOS);
      if (ids.length === 0 || r() < 0.01) {
        capped[k].reset();
        free[k].reset();
        depth[k] = 0;
        continue;
      }
      if (r() < 0.05 && depth[k] > 0) {
        capped[k].rollback(1);
        free[k].rollback(1);
        depth[k]--;
        continue;
      }
      const id = ids[Math.floor(r() * ids.length)];
      expect(capped[k].acceptToken(id)).toBe(true);
      expect(free[k].acceptToken(id)).toBe(true);
      depth[k]++;
      tokens++;
    }
    expect(tokens).toBeGreaterThan(2000);
    expect(A.resets).toBeGreaterThan(3);
  });

  it("a 235-tool set (the union of the stored MCP servers' tools) decodes to the end under seeded walks", () => {
    const tools = composedMcpTools(235).map((t) => ({
      type: "function" as const,
      function: { name: t.name, parameters: t.inputSchema as Record<string, unknown> },
    }));
    expect(tools.length).toBe(235);
    const compiled = compileTools(tools as never, { format: "qwen3" });
    const accepts = createAcceptor(compiled.grammar);
    let tokens = 0;
    for (let w = 0; w < 6; w++) {
      const m = compiled.createMatcher(vocab);
      const taken = walkToEnd(m, SEED + w, 1500);
      expect(m.isTerminated()).toBe(true);
      tokens += taken.length;
      const text = new TextDecoder().decode(textOf(vocab, taken.slice(0, -1)).bytes);
      expect(accepts.accepts(text), text.slice(0, 200)).toBe(true);
    }
    expect(tokens).toBeGreaterThan(1000);
  });

  it("40 levels of anyOf [S, array of S] ($defs) driven by seeded walks: no throw, every output accepted", () => {
    const defs: Record<string, unknown> = { s0: { type: "integer" } };
    for (let k = 1; k <= 40; k++)
      defs[`s${k}`] = {
        anyOf: [{ $ref: `#/$defs/s${k - 1}` }, { type: "array", items: { $ref: `#/$defs/s${k - 1}` } }],
      };
    const compiled = compileSchema({ $defs: defs, $ref: "#/$defs/s40" });
    const g: Grammar = compiled.grammar;
    const accepts = createAcceptor(g);
    let tokens = 0;
    for (let w = 0; w < 8 && tokens < 3000; w++) {
      const m = compiled.createMatcher(vocab);
      const taken = walkToEnd(m, SEED + 100 + w, 800);
      expect(m.isTerminated()).toBe(true);
      tokens += taken.length;
      const text = new TextDecoder().decode(textOf(vocab, taken.slice(0, -1)).bytes);
      expect(accepts.accepts(text), text.slice(0, 200)).toBe(true);
    }
    expect(tokens).toBeGreaterThan(500);
  });
});
