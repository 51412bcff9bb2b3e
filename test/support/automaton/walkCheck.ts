import fc from "fast-check";
import { expect } from "vitest";
import { createMatcher } from "../../../src/automaton/createMatcher.js";
import { createAcceptor } from "../../../src/grammar/accepts.js";
import type { Grammar } from "../../../src/grammar/Grammar.js";
import type { Vocabulary } from "../../../src/vocab/Vocabulary.js";
import type { TokenMatcher } from "../../../src/automaton/TokenMatcher.js";
import { bit, decodePrefix, textOf } from "../tinyVocab.js";

/**
 * Random walks under the matcher's own masks. At every step: mask bit ⇔ acceptToken for every id, the mask is not
 * empty (no dead end), and the text so far can still be completed (the reference acceptor's isPrefix). A walk that
 * ends with EOS spells a text the acceptor accepts; `onText` gets it for further checks.
 */
export function checkRandomWalks(
  grammar: Grammar,
  vocab: Vocabulary,
  opts: { seed: number; numRuns: number; maxLength: number; onText?: (text: string) => void },
): void {
  const acceptor = createAcceptor(grammar);
  const eos = vocab.eosTokenIds[0];
  const words = Math.ceil(vocab.size / 32);
  fc.assert(
    fc.property(
      fc.array(fc.nat(), { minLength: 1, maxLength: opts.maxLength }),
      fc.double({ min: 0, max: 1, noNaN: true }),
      (choices, eosBias) => {
        const m = createMatcher(grammar, vocab);
        const ids: number[] = [];
        for (const c of choices) {
          const bits = new Uint32Array(words);
          m.fillNextTokenBitmask(bits);
          const allowed: number[] = [];
          for (let id = 0; id < vocab.size; id++) {
            const ok = m.acceptToken(id);
            if (ok) m.rollback(1);
            if (ok !== bit(bits, id))
              throw new Error(
                `mask bit ${bit(bits, id)} but acceptToken ${ok} for token ${id} after ${JSON.stringify(ids)}`,
              );
            if (ok) allowed.push(id);
          }
          if (allowed.length === 0) throw new Error(`dead end after ${JSON.stringify(ids)}`);
          const pick = allowed.includes(eos) && (c % 100) / 100 < eosBias ? eos : allowed[c % allowed.length];
          expect(m.acceptToken(pick)).toBe(true);
          ids.push(pick);
          const text = decodePrefix(textOf(vocab, ids).bytes);
          if (pick === eos) {
            expect(acceptor.accepts(text)).toBe(true);
            opts.onText?.(text);
            return;
          }
          if (!acceptor.isPrefix(text))
            throw new Error(`no completion of ${JSON.stringify(text)} after ${JSON.stringify(ids)}`);
        }
      },
    ),
    { seed: opts.seed, numRuns: opts.numRuns },
  );
}

/**
 * Fills the matcher's mask and checks it against acceptToken for every id below `size` (rolling back each accepted
 * token): mask bit ⇔ acceptToken. Returns how many ids are allowed.
 */
export function exactMask(m: TokenMatcher, size: number, bits: Uint32Array): number {
  m.fillNextTokenBitmask(bits);
  let allowed = 0;
  for (let id = 0; id < size; id++) {
    const ok = m.acceptToken(id);
    if (ok) {
      m.rollback(1);
      allowed++;
    }
    if (ok !== bit(bits, id)) expect.fail(`token ${id}: mask ${bit(bits, id)}, acceptToken ${ok}`);
  }
  return allowed;
}
