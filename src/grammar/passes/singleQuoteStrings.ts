import type { GExpr } from "../Grammar.js";
import { alt, cls, lit, seq } from "../build.js";
import { mapCountedLabels } from "../counted.js";
import { rangesContain, subtractRanges } from "../ranges.js";

/**
 * `e` (JSON text in its canonical spelling) with every string between apostrophes instead of double quotes: each
 * unescaped `"` (a delimiter: inside a JSON string `"` is always escaped) becomes `'`, each apostrophe (only ever raw
 * inside a string) becomes the escape `\u0027`, and escapes (`\"`, `\\`, `\u00XX`, each one literal of the lowered
 * string) stay as they are, since Python reads them alike. One to one on values, so a pattern constrains the value it
 * constrained before. Character classes never hold `"` (JSON escapes it) and are left alone apart from the
 * apostrophe. Token nodes are markers, not text.
 */
export function singleQuoteStrings(e: GExpr): GExpr {
  switch (e.type) {
    case "literal": {
      if (!e.text.includes('"') && !e.text.includes("'")) return e;
      let out = "";
      for (let i = 0; i < e.text.length; i++) {
        const c = e.text[i];
        if (c === "\\") out += c + (e.text[++i] ?? "");
        else if (c === '"') out += "'";
        else if (c === "'") out += "\\u0027";
        else out += c;
      }
      return lit(out);
    }
    case "charClass":
      if (!rangesContain(e.ranges, 0x27)) return e;
      return alt(cls(subtractRanges(e.ranges, [0x27, 0x27])), lit("\\u0027"));
    case "seq":
    case "alt": {
      let changed = false;
      const items = e.items.map((it) => {
        const m = singleQuoteStrings(it);
        if (m !== it) changed = true;
        return m;
      });
      if (!changed) return e;
      return e.type === "seq" ? seq(...items) : alt(...items);
    }
    case "repeat": {
      const item = singleQuoteStrings(e.item);
      return item === e.item ? e : { type: "repeat", item, min: e.min, max: e.max };
    }
    case "counted":
      return mapCountedLabels(e, singleQuoteStrings);
    case "ref":
    case "token":
      return e;
  }
}
