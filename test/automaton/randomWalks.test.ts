import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { WEATHER_TOOLS, jsonGrammar, toolCallGrammar, twentyToolGrammar } from "../../bench/handGrammars.js";
import { createMatcher } from "../../src/automaton/createMatcher.js";
import type { TokenMatcher } from "../../src/automaton/TokenMatcher.js";
import { createAcceptor } from "../../src/grammar/accepts.js";
import { alt, cls, lit, opt, ref, rep, seq, token } from "../../src/grammar/build.js";
import type { Grammar } from "../../src/grammar/Grammar.js";
import { Vocabulary } from "../../src/vocab/Vocabulary.js";
import { compileSchema, compileTools } from "../../src/compile.js";
import { twentyOpenAiTools } from "../../bench/toolSets.js";
import { bit, decodePrefix, textOf, tinyVocab } from "../support/tinyVocab.js";

/**
 * The automaton's contract, checked on random walks under its own masks:
 * - mask bit i ⇔ acceptToken(i), for every id (padding, specials and EOS included), at every step;
 * - a walk that ends with EOS spells a text the reference acceptor accepts; any walk spells a prefix of one;
 * - rollback restores the exact masks; forcedText is the unique continuation.
 */
const SEED = Number(process.env.TOOLGRAM_SEED ?? 20261122);
const vocab = tinyVocab();
const EOS = vocab.eosTokenIds[0];
// a byte-level vocabulary (every single byte, the grammar's special tokens) to check forcedText's uniqueness
const byteVocab = Vocabulary.fromPieces(
  [
    ...Array.from({ length: 256 }, (_, b) => Uint8Array.of(b)),
    { text: "<tool_call>", special: true },
    { text: "</tool_call>", special: true },
  ],
  { eosTokenIds: [] },
);

const GRAMMARS: [string, Grammar][] = [
  ["json (recursive)", jsonGrammar()],
  ["tool calls (atoms)", toolCallGrammar(WEATHER_TOOLS)],
  ["twenty tools", twentyToolGrammar()],
  ["compileTools: twenty tools", compileTools(twentyOpenAiTools(), { format: "qwen3" }).grammar],
  [
    "compileSchema: nested object",
    compileSchema({
      type: "object",
      properties: {
        a: { type: "array", items: { type: "integer", minimum: -5, maximum: 120 }, maxItems: 3 },
        b: { type: "string", maxLength: 4 },
        c: {},
      },
      required: ["a"],
    }).grammar,
  ],
  [
    "unicode classes",
    {
      root: "root",
      rules: new Map([
        [
          "root",
          seq(
            rep(alt(cls([0xe0, 0xff]), lit("日本"), lit("🎉"), cls([0x61, 0x7a])), 1, 6),
            opt(seq(token("<tool_call>"), ref("tail"))),
          ),
        ],
        ["tail", alt(lit("x"), seq(lit("["), ref("tail"), lit("]")))],
      ]),
    },
  ],
];

function maskOf(m: TokenMatcher, size: number): Uint32Array {
  const bits = new Uint32Array(Math.ceil(size / 32));
  m.fillNextTokenBitmask(bits);
  return bits;
}

describe.each(GRAMMARS)("random walks: %s", (_name, gr) => {
  const acceptor = createAcceptor(gr);
  it("mask ⇔ acceptToken; walks end in accepted text; rollback restores masks", () => {
    fc.assert(
      fc.property(
        fc.array(fc.nat(), { minLength: 1, maxLength: 60 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (choices, eosBias) => {
          const m = createMatcher(gr, vocab);
          const ids: number[] = [];
          const masks: Uint32Array[] = [];
          let ended = false;
          for (const c of choices) {
            const bits = maskOf(m, vocab.size);
            masks.push(bits);
            const allowedIds: number[] = [];
            for (let id = 0; id < vocab.size; id++) {
              const ok = m.acceptToken(id);
              if (ok) m.rollback(1);
              if (ok !== bit(bits, id))
                throw new Error(
                  `mask bit ${bit(bits, id)} but acceptToken ${ok} for token ${id} after ${JSON.stringify(ids)}`,
                );
              if (ok) allowedIds.push(id);
            }
            if (allowedIds.length === 0) throw new Error(`dead end after ${JSON.stringify(ids)}`);
            const pick =
              allowedIds.includes(EOS) && (c % 100) / 100 < eosBias ? EOS : allowedIds[c % allowedIds.length];
            expect(m.acceptToken(pick)).toBe(true);
            ids.push(pick);
            if (pick === EOS) {
              ended = true;
              break;
            }
          }
          const text = decodePrefix(textOf(vocab, ids).bytes);
          if (ended) expect(acceptor.accepts(text)).toBe(true);
          else expect(acceptor.isPrefix(text)).toBe(true);
          // rollback to a random step gives that step's mask again, and re-accepting gives the same masks
          const back = choices[0] % ids.length;
          m.rollback(ids.length - back);
          for (let k = back; k < ids.length; k++) {
            expect(maskOf(m, vocab.size)).toEqual(masks[k]);
            expect(m.acceptToken(ids[k])).toBe(true);
          }
        },
      ),
      { seed: SEED, numRuns: 40 },
    );
  });

  it("forcedText is the unique continuation", () => {
    fc.assert(
      fc.property(fc.array(fc.nat(), { minLength: 0, maxLength: 40 }), (choices) => {
        // walk in the byte vocabulary: every step is one byte or a special token
        const m = createMatcher(gr, byteVocab);
        for (const c of choices) {
          const f = m.forcedText();
          if (f !== "") {
            expect(m.isCompleted()).toBe(false);
            // every byte of f is the only choice at its step
            const bytes = new TextEncoder().encode(f);
            const saved = maskOf(m, byteVocab.size);
            for (const b of bytes) {
              const bits = maskOf(m, byteVocab.size);
              const ok: number[] = [];
              for (let id = 0; id < byteVocab.size; id++) if (bit(bits, id)) ok.push(id);
              expect(ok).toEqual([b]);
              expect(m.acceptToken(b)).toBe(true);
            }
            m.rollback(bytes.length);
            expect(maskOf(m, byteVocab.size)).toEqual(saved);
          }
          const bits = maskOf(m, byteVocab.size);
          const ok: number[] = [];
          for (let id = 0; id < byteVocab.size; id++) if (bit(bits, id)) ok.push(id);
          if (ok.length === 0) break;
          m.acceptToken(ok[c % ok.length]);
        }
      }),
      { seed: SEED, numRuns: 30 },
    );
  });
});
