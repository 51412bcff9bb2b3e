import type { CompiledGrammar } from "../CompiledGrammar.js";
import { Vocabulary } from "../vocab/Vocabulary.js";

/** Every byte as a token of its own, and an end token (id 256): the grammar's shortest completion, byte by byte. */
const BYTES = Vocabulary.fromPieces([...Array.from({ length: 256 }, (_, b) => Uint8Array.of(b)), null], {
  eosTokenIds: [256],
});

/** Completions longer than this are not written (no tool call needs one; a grammar could). */
const MAX_CLOSING_BYTES = 4096;

/**
 * The shortest text that completes `prefix` in the grammar (`""` when it is complete already), or undefined when
 * `prefix` is not a prefix of the grammar's language or no completion is short enough. A generation cut at a token
 * budget it could not steer (llama-server's `n_predict`) is closed with it: the call is finished, not cut. Among
 * the shortest completions it takes, byte by byte, the lowest byte that keeps the completion shortest (a string is
 * closed with `"`, a missing required property gets the shortest value its schema allows).
 */
export function closingText(grammar: CompiledGrammar, prefix: string): string | undefined {
  const matcher = grammar.createMatcher(BYTES);
  if (!matcher.acceptString(prefix)) return undefined;
  let left = matcher.tokensToComplete();
  if (!Number.isFinite(left) || left > MAX_CLOSING_BYTES) return undefined;
  const bits = new Uint32Array(matcher.bitmaskSize);
  const out: number[] = [];
  while (!matcher.isCompleted()) {
    // `left` bytes and the end token: only bytes along a shortest completion are allowed
    matcher.fillNextTokenBitmaskWithin(bits, left + 1);
    const next = lowestByte(bits);
    if (next < 0 || !matcher.acceptToken(next)) return undefined;
    out.push(next);
    left--;
  }
  return new TextDecoder().decode(Uint8Array.from(out));
}

function lowestByte(bits: Uint32Array): number {
  for (let b = 0; b < 256; b++) if ((bits[b >>> 5] >>> (b & 31)) & 1) return b;
  return -1;
}
