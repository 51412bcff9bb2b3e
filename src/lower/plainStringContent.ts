import type { GExpr } from "../grammar/Grammar.js";
import { alt, cls, lit, rep, seq } from "../grammar/build.js";
import { ALL_SCALARS, subtractRanges } from "../grammar/ranges.js";

/**
 * One code point of a JSON string's content, in its canonical spelling (see docs/ARCHITECTURE.md): written
 * literally unless it is `"`, `\` or a control character, which use `\"`, `\\`, `\n`, `\r`, `\t`, `\b`, `\f` or
 * `\u00XX` (lowercase hex). Exactly one text per code point.
 */
export const STRING_CHAR: GExpr = alt(
  cls(subtractRanges(ALL_SCALARS, [0x00, 0x1f, 0x22, 0x22, 0x5c, 0x5c])),
  seq(lit("\\"), cls([0x22, 0x22, 0x5c, 0x5c, 0x62, 0x62, 0x66, 0x66, 0x6e, 0x6e, 0x72, 0x72, 0x74, 0x74])),
  seq(lit("\\u00"), alt(seq(lit("0"), cls([0x30, 0x37, 0x62, 0x62, 0x65, 0x66])), seq(lit("1"), cls([0x30, 0x39, 0x61, 0x66])))),
);

/** The content of any JSON string (no constraints). */
export const ANY_STRING_CONTENT: GExpr = rep(STRING_CHAR, 0, null);
