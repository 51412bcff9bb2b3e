import type { GExpr } from "../grammar/Grammar.js";
import { lit, seq } from "../grammar/build.js";
import { canonicalJson, quoteJsonString, type JsonValue } from "../json.js";
import type { JsonStyle } from "./JsonStyle.js";

/** The texts of one JSON value in a style: canonicalJson's text in compact style, with ws pieces when flexible. */
export function styledValue(v: JsonValue, style: JsonStyle): GExpr {
  if (style.id === "compact" || v === null || typeof v !== "object") return lit(canonicalJson(v));
  if (Array.isArray(v)) {
    if (v.length === 0) return style.emptyArray;
    const parts: GExpr[] = [style.arrayOpen];
    v.forEach((x, i) => parts.push(...(i ? [style.itemSeparator] : []), styledValue(x, style)));
    return seq(...parts, style.arrayClose);
  }
  const entries = Object.entries(v);
  if (entries.length === 0) return style.emptyObject;
  const parts: GExpr[] = [style.objectOpen];
  entries.forEach(([k, x], i) => parts.push(...(i ? [style.itemSeparator] : []), lit(quoteJsonString(k)), style.keySeparator, styledValue(x, style)));
  return seq(...parts, style.objectClose);
}
