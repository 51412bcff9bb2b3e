import type { GExpr } from "../grammar/Grammar.js";

/** IR nodes of an expression as emitters print it (a sub-expression used twice counts twice). */
export function countNodes(e: GExpr): number {
  switch (e.type) {
    case "seq":
    case "alt":
      return e.items.reduce((n, x) => n + countNodes(x), 1);
    case "repeat":
      return 1 + countNodes(e.item);
    default:
      return 1;
  }
}
