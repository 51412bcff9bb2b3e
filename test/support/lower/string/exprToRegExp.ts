import type { GExpr } from "../../../../src/grammar/Grammar.js";

/** Test-only: a grammar expression (no refs/tokens) as an anchored JavaScript RegExp with the `u` flag. */
export function exprToRegExp(e: GExpr): RegExp {
  return new RegExp(`^(?:${src(e)})$`, "u");
}

const hex = (cp: number) => `\\u{${cp.toString(16)}}`;

function src(e: GExpr): string {
  switch (e.type) {
    case "literal":
      return Array.from(e.text, (ch) => hex(ch.codePointAt(0)!)).join("");
    case "charClass": {
      let s = "";
      for (let i = 0; i < e.ranges.length; i += 2)
        s += e.ranges[i] === e.ranges[i + 1] ? hex(e.ranges[i]) : `${hex(e.ranges[i])}-${hex(e.ranges[i + 1])}`;
      return `[${s}]`;
    }
    case "seq":
      return e.items.map((it) => `(?:${src(it)})`).join("");
    case "alt":
      return e.items.length === 0 ? "[^\\s\\S]" : e.items.map((it) => `(?:${src(it)})`).join("|");
    case "repeat":
      return `(?:${src(e.item)}){${e.min},${e.max ?? ""}}`;
    default:
      throw new Error(`exprToRegExp: unsupported node ${e.type}`);
  }
}
