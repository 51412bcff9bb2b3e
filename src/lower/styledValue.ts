import type { GExpr } from "../grammar/Grammar.js";
import { lit, seq } from "../grammar/build.js";
import { canonicalJson, quoteJsonString, type JsonValue } from "../json.js";
import { innerStyle, JSON_KEYWORDS, type JsonStyle } from "./JsonStyle.js";

/**
 * The texts of one JSON value in a style: canonicalJson's text in compact style, with ws pieces when flexible, and
 * the style's spelling of true / false / null.
 */
export function styledValue(v: JsonValue, style: JsonStyle): GExpr {
  if (v === null) return lit(style.keywords.null);
  if (typeof v === "boolean") return lit(v ? style.keywords.true : style.keywords.false);
  if (typeof v !== "object" || (style.id === "compact" && style.keywords === JSON_KEYWORDS))
    return lit(canonicalJson(v));
  if (Array.isArray(v)) {
    if (v.length === 0) return style.emptyArray;
    const parts: GExpr[] = [style.arrayOpen];
    v.forEach((x, i) => parts.push(...(i ? [style.itemSeparator] : []), styledValue(x, innerStyle(style))));
    return seq(...parts, style.arrayClose);
  }
  const entries = Object.entries(v);
  if (entries.length === 0) return style.emptyObject;
  const parts: GExpr[] = [style.objectOpen];
  entries.forEach(([k, x], i) =>
    parts.push(
      ...(i ? [style.itemSeparator] : []),
      lit(quoteJsonString(k)),
      style.keySeparator,
      styledValue(x, innerStyle(style)),
    ),
  );
  return seq(...parts, style.objectClose);
}
