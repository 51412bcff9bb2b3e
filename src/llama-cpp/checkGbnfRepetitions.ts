import { LimitExceededError, ToolgramError } from "../errors.js";

/** Largest repetition bound passed to llama.cpp, which expands `x{m,n}` into about n copies of x. */
export const MAX_GBNF_REPETITION = 100_000;

/**
 * Rejects GBNF repetition bounds that would take llama.cpp down before it parses them: `x{3,1}` makes it allocate
 * until the process is killed, and huge bounds expand into huge rule sets. Skips string literals, character
 * classes and comments, so that braces inside them are not mistaken for bounds.
 */
export function checkGbnfRepetitions(gbnf: string): void {
  let i = 0;
  while (i < gbnf.length) {
    const c = gbnf[i];
    if (c === '"' || c === "[") {
      const close = c === '"' ? '"' : "]";
      i++;
      while (i < gbnf.length && gbnf[i] !== close) i += gbnf[i] === "\\" ? 2 : 1;
      i++;
    } else if (c === "#") {
      while (i < gbnf.length && gbnf[i] !== "\n") i++;
    } else if (c === "{") {
      const match = /^\{\s*(\d*)\s*(,?)\s*(\d*)\s*\}/.exec(gbnf.slice(i, i + 64));
      if (match !== null) {
        const min = match[1] === "" ? 0 : Number(match[1]);
        const max = match[2] === "" ? min : match[3] === "" ? undefined : Number(match[3]);
        const at = `at offset ${i}: ${match[0]}`;
        if (max !== undefined && min > max) {
          throw new ToolgramError(
            "INVALID_INPUT",
            `GBNF repetition ${at} has a minimum above its maximum; swap or fix the bounds.`,
          );
        }
        if (min > MAX_GBNF_REPETITION || (max ?? 0) > MAX_GBNF_REPETITION) {
          throw new LimitExceededError(
            "LIMIT_REPETITION",
            `GBNF repetition ${at} exceeds ${MAX_GBNF_REPETITION}; use an unbounded repetition or a smaller bound.`,
          );
        }
        i += match[0].length;
      } else {
        i++;
      }
    } else {
      i++;
    }
  }
}
