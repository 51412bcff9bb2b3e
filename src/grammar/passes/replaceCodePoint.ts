import type { GExpr } from "../Grammar.js";
import { alt, cls, lit, seq } from "../build.js";
import { mapCountedLabels } from "../counted.js";
import { rangesContain, subtractRanges } from "../ranges.js";

/**
 * `e` with every occurrence of the code point `cp` (in literals and character classes) written as `text` instead.
 * The language maps one to one when `cp` only ever stands for itself: Glaive's arguments are JSON text, where an
 * apostrophe can only occur inside a string, so replacing U+0027 by the escape `\u0027` gives exactly the
 * canonical Glaive spelling of the same values. Token nodes are markers, not text, and are left alone.
 */
export function replaceCodePoint(e: GExpr, cp: number, text: string): GExpr {
  switch (e.type) {
    case "literal": {
      const ch = String.fromCodePoint(cp);
      return e.text.includes(ch) ? lit(e.text.split(ch).join(text)) : e;
    }
    case "charClass":
      if (!rangesContain(e.ranges, cp)) return e;
      return alt(cls(subtractRanges(e.ranges, [cp, cp])), lit(text));
    case "seq":
    case "alt": {
      let changed = false;
      const items = e.items.map((it) => {
        const m = replaceCodePoint(it, cp, text);
        if (m !== it) changed = true;
        return m;
      });
      if (!changed) return e;
      return e.type === "seq" ? seq(...items) : alt(...items);
    }
    case "repeat": {
      const item = replaceCodePoint(e.item, cp, text);
      return item === e.item ? e : { type: "repeat", item, min: e.min, max: e.max };
    }
    case "counted":
      return mapCountedLabels(e, (l) => replaceCodePoint(l, cp, text));
    case "ref":
    case "token":
      return e;
  }
}
