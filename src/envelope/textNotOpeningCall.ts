import type { GExpr } from "../grammar/Grammar.js";
import { alt, cls, EPSILON, lit, rep, seq } from "../grammar/build.js";
import { ALL_SCALARS, normalizeRanges, subtractRanges } from "../grammar/ranges.js";
import type { FormatDescription } from "../formats/FormatDescription.js";
import { listLayout } from "../formats/listLayout.js";

/** What `String.prototype.trimStart` removes: the parser skips these before deciding whether a reply is a call. */
export const TRIMMED_WHITESPACE: readonly number[] = [
  0x09, 0x0d, 0x20, 0x20, 0xa0, 0xa0, 0x1680, 0x1680, 0x2000, 0x200a, 0x2028, 0x2029, 0x202f, 0x202f, 0x205f, 0x205f,
  0x3000, 0x3000, 0xfeff, 0xfeff,
];

const ANY_TEXT = rep(cls(ALL_SCALARS), 0, null);

/**
 * The first character of a list format's reply (`[`, or a list without brackets' first JSON object's `{`), as
 * decideStart reads it; undefined for a format of blocks.
 */
export function listOpening(d: FormatDescription): string | undefined {
  return d.grouping === "list" ? (listLayout(d).open || "{")[0] : undefined;
}

/**
 * For formats whose call is the whole reply (no opening marker): the replies that are plain text, i.e. that the
 * parser (`decideStart`) never takes for the start of a call. Empty, or a text whose first character is not
 * whitespace, not the call's opening bracket (the list's `[`, or the unit's first character), and that does not begin with a start prefix (`<|python_tag|>`).
 * A subset of what the parser reads as text: e.g. `[1] is cited` is text to the pythonic parser, but no text
 * starting with `[` is in this language, so the grammar's verdict never depends on the parser's lookahead.
 */
export function textNotOpeningCall(d: FormatDescription, unitFirstCharacter: string | undefined): GExpr {
  const bracket = listOpening(d) ?? unitFirstCharacter;
  if (bracket === undefined) throw new Error(`internal: ${d.name}'s call units cannot open a reply`);
  const firsts = [bracket, ...d.startPrefixes.map((p) => p[0])].map((c) => c.codePointAt(0) as number);
  if (new Set(firsts).size !== firsts.length)
    throw new Error(`internal: ${d.name}'s start prefixes share a first character`);
  const plain = seq(
    cls(subtractRanges(ALL_SCALARS, normalizeRanges([...TRIMMED_WHITESPACE, ...firsts.flatMap((c) => [c, c])]))),
    ANY_TEXT,
  );
  // a text that starts like a prefix but is not it: the prefix's first i characters, then anything but the next one.
  // Written as a trie (one alternative per prefix at the top), so that no alternative's weight grows with the
  // prefix's length where alternatives are picked uniformly (the grammar samplers of the tests)
  const nearPrefixes = d.startPrefixes.map((p) => {
    const cps = [...p];
    const near = (i: number): GExpr => {
      const next = cps[i].codePointAt(0) as number;
      const other = seq(cls(subtractRanges(ALL_SCALARS, [next, next])), ANY_TEXT);
      return i + 1 < cps.length ? alt(EPSILON, other, seq(lit(cps[i]), near(i + 1))) : alt(EPSILON, other);
    };
    return seq(lit(cps[0]), near(1));
  });
  return alt(EPSILON, plain, ...nearPrefixes);
}
