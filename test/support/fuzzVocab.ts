import { Vocabulary } from "../../src/vocab/Vocabulary.js";
import { tinyPieces } from "./tinyVocab.js";

/**
 * The automaton tests' hand-built vocabulary plus every control byte, so that any text (escapes, raw control
 * characters in mutations) can be spelled token by token.
 */
export function fuzzVocab(): Vocabulary {
  const pieces = tinyPieces();
  const eos = pieces.length - 1;
  for (let b = 0; b < 0x20; b++) if (b !== 0x0a && b !== 0x09) pieces.push(Uint8Array.of(b));
  pieces.push(Uint8Array.of(0x7f));
  return Vocabulary.fromPieces(pieces, { eosTokenIds: [eos], size: pieces.length + 5 });
}
