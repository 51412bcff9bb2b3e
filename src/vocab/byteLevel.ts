/**
 * GPT-2's byte-to-unicode alphabet, used by byte-level BPE vocabularies (GPT-2, Llama 3, Qwen): every byte is shown
 * as a printable code point (`Ġ` = space 0x20, `Ċ` = newline 0x0A) so that pieces are valid strings.
 */
let decodeTable: Int16Array | undefined;

/** Code point (< 0x200) → byte, or -1 for a code point outside the alphabet. */
export function byteLevelDecodeTable(): Int16Array {
  if (decodeTable) return decodeTable;
  const t = new Int16Array(0x200).fill(-1);
  let n = 0;
  for (let b = 0; b < 256; b++) {
    const printable = (b >= 0x21 && b <= 0x7e) || (b >= 0xa1 && b <= 0xac) || (b >= 0xae && b <= 0xff);
    if (printable) t[b] = b;
    else t[256 + n++] = b;
  }
  decodeTable = t;
  return t;
}

/** The bytes of a byte-level piece, or undefined when a character is outside the alphabet. */
export function decodeByteLevelPiece(piece: string, table = byteLevelDecodeTable()): Uint8Array | undefined {
  const out = new Uint8Array(piece.length);
  for (let i = 0; i < piece.length; i++) {
    const c = piece.charCodeAt(i);
    const b = c < 0x200 ? table[c] : -1;
    if (b < 0) return undefined;
    out[i] = b;
  }
  return out;
}

const BYTE_PIECE = /^<0x([0-9A-Fa-f]{2})>$/;
const encoder = new TextEncoder();

/** A SentencePiece piece: `▁` is a space, `<0xAB>` a single byte (byte fallback). */
export function decodeSentencePiece(piece: string): Uint8Array {
  const m = BYTE_PIECE.exec(piece);
  if (m) return Uint8Array.of(parseInt(m[1], 16));
  return encoder.encode(piece.replace(/\u2581/g, " "));
}
