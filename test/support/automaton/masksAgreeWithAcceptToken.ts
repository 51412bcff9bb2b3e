import { expect } from "vitest";
import type { TokenMatcher } from "../../../src/automaton/TokenMatcher.js";
import { compileSchema } from "../../../src/compile.js";
import { seededRandom } from "../../../src/util/seededRandom.js";
import type { Vocabulary } from "../../../src/vocab/Vocabulary.js";
import { bit } from "../tinyVocab.js";
import { allowedIds } from "./allowedIds.js";

/**
 * Seeded random walks under each schema's masks, checking at every step that the mask allows exactly the ids
 * `acceptToken` takes (every id of a small vocabulary). Returns the sum of `counted(matcher)` after each walk: the
 * masks a sharing under test composed, so a test can check that the sharing was exercised and not only correct.
 */
export function masksAgreeWithAcceptToken(
  schemas: readonly [string, unknown][],
  vocab: Vocabulary,
  walk: { seed: number; walks: number; steps: number },
  counted: (m: TokenMatcher) => number,
): number {
  const bits = new Uint32Array(Math.ceil(vocab.size / 32));
  let total = 0;
  for (const [name, schema] of schemas) {
    const rnd = seededRandom(walk.seed);
    for (let w = 0; w < walk.walks; w++) {
      const m = compileSchema(schema).createMatcher(vocab);
      for (let step = 0; step < walk.steps && !m.isTerminated(); step++) {
        m.fillNextTokenBitmask(bits);
        for (let id = 0; id < vocab.size; id++) {
          const ok = m.acceptToken(id);
          if (ok) m.rollback(1);
          if (ok !== bit(bits, id)) expect.fail(`${name}, walk ${w}, step ${step}: token ${id} mask ${!ok}`);
        }
        const ids = allowedIds(bits);
        if (ids.length === 0) break;
        m.acceptToken(ids[Math.floor(rnd() * ids.length)]);
      }
      total += counted(m);
    }
  }
  return total;
}
