/**
 * A long prompt tokenized in pieces with a turn of the event loop between them, so that tokenizing a large tool set's
 * prompt (about 100 ms in one call for 117 tools) never holds the loop that streams other requests' tokens that long.
 * node-llama-cpp's tokenizer runs on the calling thread (a second model instance on a worker thread crashed its
 * addon), so the prompt is cut instead, only where the pieces' tokens joined are the whole text's tokens.
 */

/** Tokenizes a text (special tokens spelled as text are read as special tokens). */
export type Tokenize = (text: string) => readonly number[];

/**
 * The places a piece may end: just after a newline that follows a non-space character and precedes `{`, `<` or an
 * ASCII letter (where a tool's JSON line, a tag or a word starts). The pre-tokenizers of the BPE vocabularies llama.cpp
 * reads for Qwen, Llama 3 and the like never join a newline to the character after it there, and special tokens are
 * split off before pre-tokenizing; whether a model's tokenizer keeps to that is checked ({@link piecesAreExact}).
 */
const CUT = /(?<=\S\n)[{<A-Za-z]/g;

/** Where `text` is cut into pieces of at least `size` characters (the last may be shorter). */
export function pieceEnds(text: string, size: number): number[] {
  const ends: number[] = [];
  let from = 0;
  while (text.length - from > size) {
    CUT.lastIndex = from + size;
    const m = CUT.exec(text);
    if (m === null) break;
    ends.push(m.index);
    from = m.index;
  }
  return ends;
}

/**
 * Whether `tokenize` gives, at every kind of place {@link pieceEnds} cuts, the same tokens for the two sides as for
 * the whole: a tokenizer that adds a space or a BOS token to each text, or whose pre-tokenizer joins a newline to
 * what follows (DeepSeek V3's punctuation runs), fails, and its prompts are tokenized whole.
 */
export function piecesAreExact(tokenize: Tokenize): boolean {
  for (const before of ["}", "]", '"', ",", ".", ":", ">", "a", "7", "é"]) {
    for (const after of ["{", "<", "a", "Z"]) {
      const left = ` the x${before}\n`;
      const right = `${after}"name": 1}\n`;
      if (!sameTokens([...tokenize(left), ...tokenize(right)], tokenize(left + right))) return false;
    }
  }
  return true;
}

function sameTokens(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((t, i) => t === b[i]);
}

/** `text`'s tokens, tokenized in pieces of about `size` characters with a macrotask turn between two pieces. */
export async function tokenizeInPieces(text: string, tokenize: Tokenize, size: number): Promise<number[]> {
  const out: number[] = [];
  let from = 0;
  for (const end of [...pieceEnds(text, size), text.length]) {
    if (from > 0) await new Promise<void>((resolve) => setImmediate(resolve));
    for (const t of tokenize(text.slice(from, end))) out.push(t);
    from = end;
  }
  return out;
}
