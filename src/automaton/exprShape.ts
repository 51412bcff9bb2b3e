/** What the NFA construction asks of an expression's shape, memoized per expression object. */
import { cachedKey } from "../grammar/analysis/exprKey.js";
import { foldExpr } from "../grammar/analysis/foldExpr.js";
import type { GExpr } from "../grammar/Grammar.js";
import { estimateStates } from "./frameRules.js";

const keys = new WeakMap<GExpr, string>();
/** A canonical text of an expression, so that equal sub-expressions built as different objects share a frame. */
export function structuralKey(e: GExpr): string {
  return cachedKey(e, keys);
}

const inlineMemo = new WeakMap<GExpr, number>();
/** `estimateStates` with every reference counting one state (a call). */
export function inlineStates(e: GExpr): number {
  return estimateStates(e, () => 1, inlineMemo);
}

/** One character: a class or a one-code-point literal (reads one character and nothing else). */
export function isStep(e: GExpr): boolean {
  return e.type === "charClass" || (e.type === "literal" && [...e.text].length === 1);
}

/** An unbounded loop over a class of more than 256 code points (string content and the like). */
export function isWideLoop(e: GExpr): boolean {
  if (e.type !== "repeat" || e.max !== null) return false;
  return hasWideClass(e.item);
}

function hasWideClass(x: GExpr): boolean {
  if (x.type === "charClass") {
    let n = 0;
    for (let i = 0; i < x.ranges.length; i += 2) n += x.ranges[i + 1] - x.ranges[i] + 1;
    return n > 256;
  }
  if (x.type === "alt" || x.type === "seq") return x.items.some(hasWideClass);
  if (x.type === "repeat") return hasWideClass(x.item);
  return false;
}

const withTokens = new WeakMap<GExpr, boolean>();
/** The expression has a special-token node. */
export function hasTokens(e: GExpr): boolean {
  return foldExpr<boolean>(e, (x, kids) => x.type === "token" || kids.some(Boolean), withTokens);
}
