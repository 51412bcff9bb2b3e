import { Vocabulary, type PieceInput } from "../../src/vocab/Vocabulary.js";

const enc = new TextEncoder();

/**
 * A hand-built vocabulary: single ASCII bytes, a few multi-character pieces, UTF-8 characters split across tokens,
 * invalid bytes, special tokens (two used by grammars, one never), EOS, and padding ids past the last entry.
 */
export function tinyPieces(): PieceInput[] {
  const pieces: PieceInput[] = [];
  for (let b = 0x20; b < 0x7f; b++) pieces.push(String.fromCharCode(b));
  pieces.push("\n", "\t");
  pieces.push(
    '{"',
    '": ',
    '", "',
    '"}',
    "null",
    "true",
    "tr",
    "ue",
    "12",
    ", ",
    '"]',
    "[{",
    "}]",
    "}}",
    '{"name": "',
    '"arguments": ',
    "get_weather",
    "search_web",
    '"celsius"',
    "locat",
    "ion",
    "\\n",
    "\\u00",
    "1f",
  );
  // é = C3 A9, 日 = E6 97 A5, 🎉 = F0 9F 8E 89, ÿ = C3 BF
  pieces.push(
    Uint8Array.of(0xc3),
    Uint8Array.of(0xa9),
    Uint8Array.of(0xbf),
    Uint8Array.of(0xe6, 0x97),
    Uint8Array.of(0xa5),
    Uint8Array.of(0xf0),
    Uint8Array.of(0x9f, 0x8e),
    Uint8Array.of(0x89),
  );
  pieces.push(enc.encode("é"), enc.encode("日本"), enc.encode("🎉"), Uint8Array.of(0xa9, 0x22)); // é" split after the lead byte
  pieces.push(Uint8Array.of(0xff), Uint8Array.of(0xc3, 0x28)); // never valid UTF-8
  // every other byte alone, as in byte-level BPE vocabularies, so that any text can be spelled
  for (let b = 0x80; b < 0x100; b++) pieces.push(Uint8Array.of(b));
  pieces.push(
    { text: "<tool_call>", special: true },
    { text: "</tool_call>", special: true },
    { text: "<|unused|>", special: true },
  );
  pieces.push({ text: "<|im_end|>", special: true });
  return pieces;
}

export function tinyVocab(): Vocabulary {
  const pieces = tinyPieces();
  const eos = pieces.length - 1;
  return Vocabulary.fromPieces(pieces, { eosTokenIds: [eos], size: pieces.length + 7 });
}

/** The text of a token sequence: ordinary tokens by their bytes, special tokens by their text. */
export function textOf(vocab: Vocabulary, ids: readonly number[]): { bytes: Uint8Array } {
  const parts: number[] = [];
  for (const id of ids) {
    if (vocab.eosTokenIds.includes(id)) continue;
    const atom = vocab.atoms.get(id);
    if (atom !== undefined) parts.push(...enc.encode(atom));
    else parts.push(...vocab.tokenBytes(id));
  }
  return { bytes: Uint8Array.from(parts) };
}

/** Decode UTF-8, dropping a trailing incomplete character (the rest must be valid). */
export function decodePrefix(bytes: Uint8Array): string {
  let end = bytes.length;
  let k = end - 1;
  while (k >= 0 && (bytes[k] & 0xc0) === 0x80 && end - k < 4) k--;
  if (k >= 0) {
    const lead = bytes[k];
    const need = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
    if (end - k < need) end = k;
  }
  return new TextDecoder("utf-8", { fatal: true }).decode(bytes.subarray(0, end));
}

export function bit(bits: Uint32Array, id: number): boolean {
  return ((bits[id >>> 5] >>> (id & 31)) & 1) === 1;
}
