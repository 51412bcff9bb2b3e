import type { GExpr } from "../grammar/Grammar.js";
import { cls, EPSILON, lit, rep, seq } from "../grammar/build.js";
import type { WhitespaceOption } from "../options.js";

/** How the three keyword values are written. */
export interface JsonKeywords {
  true: string;
  false: string;
  null: string;
}

export const JSON_KEYWORDS: Readonly<JsonKeywords> = Object.freeze({ true: "true", false: "false", null: "null" });

/**
 * How JSON punctuation is spelled. Every piece already contains the whitespace allowed around it, so a value is
 * `objectOpen item (itemSeparator item)* objectClose` with one whitespace run at each token boundary and never two
 * in a row (an empty object is its own piece for that reason).
 */
export interface JsonStyle {
  /** Whitespace allowed at a token boundary (EPSILON in compact style). */
  ws: GExpr;
  /** `{` (+ ws) */
  objectOpen: GExpr;
  /** (ws +) `}` */
  objectClose: GExpr;
  /** `{}` (with ws inside in flexible style) */
  emptyObject: GExpr;
  arrayOpen: GExpr;
  arrayClose: GExpr;
  emptyArray: GExpr;
  /** Between items / members: `", "` compact, ws `,` ws flexible. */
  itemSeparator: GExpr;
  /** Between a key and its value: `": "` compact, ws `:` ws flexible. */
  keySeparator: GExpr;
  /** true / false / null: JSON's, or another language's (Python's True / False / None for the pythonic format). */
  keywords: Readonly<JsonKeywords>;
  /** "compact" or "flexible-N": distinguishes styles in rule names of shared rules. */
  id: string;
}

/** JSON's four whitespace characters: tab, LF, CR, space. */
const JSON_WS = cls([0x09, 0x0a, 0x0d, 0x0d, 0x20, 0x20]);

/** The spelling for a whitespace option: compact is exactly `canonicalJson`'s output. */
export function jsonStyle(option: WhitespaceOption): JsonStyle {
  if (option === "compact") {
    return {
      ws: EPSILON,
      objectOpen: lit("{"),
      objectClose: lit("}"),
      emptyObject: lit("{}"),
      arrayOpen: lit("["),
      arrayClose: lit("]"),
      emptyArray: lit("[]"),
      itemSeparator: lit(", "),
      keySeparator: lit(": "),
      keywords: JSON_KEYWORDS,
      id: "compact",
    };
  }
  const n = option.flexible.maxRun;
  const ws = rep(JSON_WS, 0, n);
  return {
    ws,
    objectOpen: seq(lit("{"), ws),
    objectClose: seq(ws, lit("}")),
    emptyObject: seq(lit("{"), ws, lit("}")),
    arrayOpen: seq(lit("["), ws),
    arrayClose: seq(ws, lit("]")),
    emptyArray: seq(lit("["), ws, lit("]")),
    itemSeparator: seq(ws, lit(","), ws),
    keySeparator: seq(ws, lit(":"), ws),
    keywords: JSON_KEYWORDS,
    id: `flexible-${n}`,
  };
}
