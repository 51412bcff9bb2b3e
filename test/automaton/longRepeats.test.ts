import { describe, expect, it } from "vitest";
import type { TokenMatcher } from "../../src/automaton/TokenMatcher.js";
import { REPEAT_CHUNK } from "../../src/automaton/thompsonStep.js";
import { compileSchema } from "../../src/compile.js";
import { seededRandom } from "../../src/util/seededRandom.js";
import { allowedIds } from "../support/automaton/allowedIds.js";
import { bit, tinyVocab } from "../support/tinyVocab.js";

/**
 * A long bounded repetition (a `maxLength: 32767` string) builds its first REPEAT_CHUNK copies and a lazy frame of
 * the rest, built when a decoding first comes near the chunk's end. Built whole, three such strings made about
 * 98,000 NFA states inside the mask that first entered one of them. The work is counted in NFA states, never timed;
 * the masks are checked against acceptToken for every id across the chunks' ends and at the bounds.
 */
interface Built {
  table: { automaton: { nfa: { stateCount: number } } };
}
const nfaStates = (m: TokenMatcher): number => (m as unknown as Built).table.automaton.nfa.stateCount;

const vocab = tinyVocab();
/** The tiny vocabulary's id of a printable ASCII character (its single-byte pieces come first, from 0x20). */
const idOf = (ch: string): number => ch.charCodeAt(0) - 0x20;

const longStrings = (min: number, max: number): unknown => ({
  type: "object",
  properties: Object.fromEntries(["k", "c", "b"].map((p) => [p, { type: "string", minLength: min, maxLength: max }])),
  required: ["k"],
  additionalProperties: false,
});

describe("long bounded repetitions", () => {
  it("build a chunk of copies, not every copy, when a decoding enters them", () => {
    for (const max of [32767, 100_000]) {
      const m = compileSchema(longStrings(50, max)).createMatcher(vocab);
      const bits = new Uint32Array(Math.ceil(vocab.size / 32));
      for (const ch of `{"k": "${"x".repeat(200)}`) {
        m.fillNextTokenBitmask(bits);
        expect(m.acceptToken(idOf(ch))).toBe(true);
      }
      m.fillNextTokenBitmask(bits);
      // three strings of a chunk each and the object around them (every copy: over 3 × 32,767 states)
      expect(nfaStates(m)).toBeLessThan(4 * REPEAT_CHUNK);
    }
  });

  it("masks agree with acceptToken for every id across the chunks' ends and at the bounds", () => {
    const bits = new Uint32Array(Math.ceil(vocab.size / 32));
    const cases: [number, number][] = [
      [REPEAT_CHUNK + 6, 2 * REPEAT_CHUNK + 52], // required copies past the first chunk
      [3, 3 * REPEAT_CHUNK + 17], // three chunks of optional copies
    ];
    for (const [min, max] of cases) {
      const rnd = seededRandom(min + max);
      const m = compileSchema({ type: "string", minLength: min, maxLength: max }).createMatcher(vocab);
      let chars = -1; // the opening quote first
      let checked = 0;
      for (let step = 0; step < 10_000; step++) {
        m.fillNextTokenBitmask(bits);
        const near = (x: number): boolean => Math.abs(chars - x) <= 24;
        if (chars < 0 || near(min) || near(max) || [1, 2, 3].some((k) => near(k * REPEAT_CHUNK))) {
          checked++;
          for (let id = 0; id < vocab.size; id++) {
            const ok = m.acceptToken(id);
            if (ok) m.rollback(1);
            if (ok !== bit(bits, id)) expect.fail(`{${min},${max}} after ${chars} characters: token ${id} mask ${!ok}`);
          }
        }
        // ASCII letters and digits only, so that characters are counted by bytes, until only the quote is left
        const ids = allowedIds(bits).filter((id) => id < 0x5f && /^[a-z0-9]$/i.test(String.fromCharCode(id + 0x20)));
        const id = ids.length > 0 ? ids[Math.floor(rnd() * ids.length)] : idOf('"');
        expect(m.acceptToken(id)).toBe(true);
        chars++;
        if (chars > 0 && id === idOf('"')) break;
      }
      expect(m.isCompleted()).toBe(true);
      expect(chars).toBe(max + 1); // every character up to the bound, then the closing quote
      expect(checked).toBeGreaterThan(100);
    }
  });
});
