import type { GExpr } from "../grammar/Grammar.js";
import { cls, EPSILON, lit, NOTHING, rep, seq } from "../grammar/build.js";
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
  /** "compact", "flexible-N" or "indent-W-D": distinguishes styles in rule names and caches of shared rules. */
  id: string;
  /**
   * The style of the values inside an array or object in this style: absent when it is this style itself (compact,
   * flexible). An indented layout's members sit one level deeper than their container.
   */
  inner?: () => JsonStyle;
}

/** The style of the members of a container written in `style`. */
export function innerStyle(style: JsonStyle): JsonStyle {
  return style.inner === undefined ? style : style.inner();
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

/**
 * Containers nest at most this deep in an indented layout (below the top-level value): the indentation of a member
 * depends on its depth, which a context-free grammar can only count with one rule per depth. Deeper containers can
 * only be empty (`{}` / `[]`).
 */
export const MAX_INDENTED_DEPTH = 12;

const indentedStyles = new Map<string, JsonStyle>();

/**
 * Python's `json.dumps(value, indent=width)` layout for a value at nesting depth `depth` (its first character
 * continues a line whose members sit `depth * width` spaces in): each member on a line of its own, indented
 * `(depth + 1) * width` spaces, the closing bracket on a line indented `depth * width` spaces, `,` at line ends,
 * `": "` between key and value, `{}` / `[]` when empty. Memoized, so a depth's style is one object (caches key on it).
 */
export function indentedJsonStyle(width: number, depth: number): JsonStyle {
  const id = `indent-${width}-${depth}`;
  let style = indentedStyles.get(id);
  if (style !== undefined) return style;
  const line = (d: number): string => `\n${" ".repeat(width * d)}`;
  const full = depth < MAX_INDENTED_DEPTH;
  style = {
    ws: EPSILON,
    objectOpen: full ? lit(`{${line(depth + 1)}`) : NOTHING,
    objectClose: lit(`${line(depth)}}`),
    emptyObject: lit("{}"),
    arrayOpen: full ? lit(`[${line(depth + 1)}`) : NOTHING,
    arrayClose: lit(`${line(depth)}]`),
    emptyArray: lit("[]"),
    itemSeparator: lit(`,${line(depth + 1)}`),
    keySeparator: lit(": "),
    keywords: JSON_KEYWORDS,
    id,
    inner: () => indentedJsonStyle(width, Math.min(depth + 1, MAX_INDENTED_DEPTH)),
  };
  indentedStyles.set(id, style);
  return style;
}
