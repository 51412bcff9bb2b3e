/** String delimiters the lenient JSON reader accepts, with their closing quote. */
const CLOSING_QUOTE: Record<string, string> = { '"': '"', "'": "'", "\u201c": "\u201d", "\u2018": "\u2019" };

/**
 * The closing brackets that `text` (JSON that ends early) lacks, innermost first — or null when the text does not
 * end outside every string with only brackets left open (then adding brackets would be a guess), or when a bracket
 * closes the wrong kind. Linear in the text.
 */
export function closeOpenBrackets(text: string): string | null {
  const stack: string[] = [];
  let quote: string | null = null;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote !== null) {
      if (c === "\\") i++;
      else if (c === quote) quote = null;
    } else if (c in CLOSING_QUOTE) quote = CLOSING_QUOTE[c];
    else if (c === "{") stack.push("}");
    else if (c === "[") stack.push("]");
    else if (c === "}" || c === "]") {
      if (stack.pop() !== c) return null;
    }
  }
  if (quote !== null || stack.length === 0) return null;
  return stack.reverse().join("");
}
