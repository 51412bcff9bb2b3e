/**
 * The number spellings an unbounded number's grammar accepts (`ANY_NUMBER` in src/lower/number/lowerNumber.ts): no
 * value that overflows to ±Infinity — integer parts below 10^308, and a positive exponent (≤ 307) only after a one-digit
 * integer part. Bounded numbers' grammars accept no exponent at all; that narrowing is the grammar's, and only
 * `compiled.accepts(raw)` checks it.
 */
const NUMBER =
  /-?(?:[0-9](?:\.[0-9]+)?[eE]\+?0*(?:30[0-7]|[12][0-9][0-9]|[1-9][0-9]|[0-9])(?![0-9])|(?:0|[1-9][0-9]{0,307})(?:\.[0-9]+)?(?:[eE]-[0-9]+)?(?![0-9]))/y;
/** `text` is one number in a spelling a compiled grammar can emit (see NUMBER). */
export function isGrammarNumber(text: string): boolean {
  NUMBER.lastIndex = 0;
  return NUMBER.test(text) && NUMBER.lastIndex === text.length;
}

/** The one spelling per code point the grammars accept (docs/ARCHITECTURE.md, "JSON spelling"). */
const STRING = /"(?:[^"\\\u0000-\u001f]|\\["\\bfnrt]|\\u00(?:0[0-7be-f]|1[0-9a-f]))*"/y;

/**
 * Whether `text` is one JSON value spelled as `canonicalJson` spells it (with `indent`: as `indentedJson` spells it
 * at that depth) — no whitespace but one space after each
 * `:` and `,`, `{}` / `[]` when empty, strings in their one canonical spelling — except that numbers may use any JSON
 * spelling (`1e2`, `100.0`, `-0`). Compiled grammars (compact style) fix everything but the number spelling, so
 * strict parsing accepts the spellings a grammar can emit, not only the one the renderer writes.
 */
export function isCompactJson(text: string, indent?: { width: number; depth: number }): boolean {
  // the text between tokens: compact, or an indented layout's (see indentedJson) at the current depth
  const depth = (): number => (indent === undefined ? 0 : indent.depth + stack.length);
  const line = (d: number): string => (indent === undefined ? "" : `\n${" ".repeat(indent.width * d)}`);
  const separator = (): string => (indent === undefined ? ", " : `,${line(depth())}`);
  let i = 0;
  const token = (re: RegExp): boolean => {
    re.lastIndex = i;
    if (!re.test(text)) return false;
    i = re.lastIndex;
    return true;
  };
  const word = (w: string): boolean => {
    if (!text.startsWith(w, i)) return false;
    i += w.length;
    return true;
  };
  // iterative over an explicit stack, so deep nesting cannot overflow the call stack
  const stack: ("{" | "[")[] = [];
  for (;;) {
    // a value
    const c = text[i];
    if (c === "{" || c === "[") {
      i++;
      const close = c === "{" ? "}" : "]";
      if (word(close)) {
        // empty: fall through to what follows the value
      } else {
        stack.push(c);
        if (!word(line(depth()))) return false;
        if (c === "{" && !(token(STRING) && word(": "))) return false;
        continue;
      }
    } else if (c === '"') {
      if (!token(STRING)) return false;
    } else if (!(word("true") || word("false") || word("null") || token(NUMBER))) return false;
    // after a value: close containers, or a separator and the next item
    for (;;) {
      const top = stack[stack.length - 1];
      if (top === undefined) return i === text.length;
      if (word(separator())) {
        if (top === "{" && !(token(STRING) && word(": "))) return false;
        break;
      }
      if (!word(line(depth() - 1) + (top === "{" ? "}" : "]"))) return false;
      stack.pop();
    }
  }
}
