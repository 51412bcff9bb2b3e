import { Vocabulary, type CompiledGrammar } from "../../src/index.js";

/** How a model output relates to the grammar's language. */
export interface OutputAnalysis {
  /** UTF-16 length of the longest prefix the grammar accepts as the start of some output. */
  acceptedLength: number;
  /** The whole text is in the language (an end token could follow). */
  complete: boolean;
  /** The text leaves the language at `acceptedLength` (else it is a prefix of some output). */
  leaves: boolean;
  /** What the grammar allows at the point where the text stops being accepted (or ends). */
  expected: string[];
  /** How many more bytes the grammar needs at least to complete (0 when complete). */
  bytesToComplete: number;
  /** The unique continuation from there ("" when there is a choice). */
  forced: string;
}

// one token per byte value: the matcher walks any text character by character and names the bytes it allows
const byteVocabulary = Vocabulary.fromPieces(
  Array.from({ length: 256 }, (_, b) => Uint8Array.of(b)),
  { eosTokenIds: [256], size: 257 },
);

/** Walk `text` through the compiled grammar one character at a time and say where and why it stops. */
export function analyzeOutput(compiled: CompiledGrammar, text: string): OutputAnalysis {
  const m = compiled.createMatcher(byteVocabulary);
  let accepted = 0;
  for (const ch of text) {
    if (!m.acceptString(ch)) break;
    accepted += ch.length;
  }
  const bits = new Uint32Array(m.bitmaskSize);
  m.fillNextTokenBitmask(bits);
  const allowed: number[] = [];
  for (let b = 0; b < 256; b++) if ((bits[b >>> 5] >>> (b & 31)) & 1) allowed.push(b);
  return {
    acceptedLength: accepted,
    complete: accepted === text.length && m.isCompleted(),
    leaves: accepted < text.length,
    expected: describeBytes(allowed),
    bytesToComplete: m.tokensToComplete(),
    forced: m.forcedText(),
  };
}

/** Allowed next bytes as short readable items: characters, ranges, and "a character ≥ U+0080" for lead bytes. */
export function describeBytes(bytes: readonly number[]): string[] {
  const out: string[] = [];
  const ascii = bytes.filter((b) => b < 0x80);
  if (bytes.some((b) => b >= 0xc2)) out.push("a non-ASCII character");
  let i = 0;
  while (i < ascii.length) {
    let j = i;
    while (j + 1 < ascii.length && ascii[j + 1] === ascii[j] + 1) j++;
    if (j - i >= 2) out.push(`${show(ascii[i])}–${show(ascii[j])}`);
    else for (let k = i; k <= j; k++) out.push(show(ascii[k]));
    i = j + 1;
  }
  return out;
}

function show(b: number): string {
  const names: Record<number, string> = { 9: "\\t", 10: "\\n", 13: "\\r", 32: "space" };
  if (names[b]) return names[b];
  if (b < 0x20 || b === 0x7f) return `0x${b.toString(16).padStart(2, "0")}`;
  return String.fromCharCode(b);
}

/** Line and column (1-based) of a UTF-16 offset. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const line = before.split("\n").length;
  return { line, column: offset - before.lastIndexOf("\n") };
}
