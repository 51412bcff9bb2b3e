import type { Alt, CharClass, GExpr, Literal, Ref, Repeat, Seq, Token } from "./Grammar.js";
import { normalizeRanges } from "./ranges.js";

/**
 * Smart constructors for the grammar IR. They apply only local, meaning-preserving simplifications
 * (flatten nested seq/alt, drop epsilons from seq, collapse single-item seq/alt) so that passes and emitters see
 * small trees; they never change the language.
 */
export const EPSILON: Seq = Object.freeze({ type: "seq", items: [] }) as Seq;
export const NOTHING: Alt = Object.freeze({ type: "alt", items: [] }) as Alt;

export function lit(text: string): GExpr {
  return text.length === 0 ? EPSILON : ({ type: "literal", text } satisfies Literal);
}

/** A class from [lo, hi] pairs (normalized here); an empty class is NOTHING. */
export function cls(pairs: readonly number[]): GExpr {
  const ranges = normalizeRanges(pairs);
  return ranges.length === 0 ? NOTHING : ({ type: "charClass", ranges } satisfies CharClass);
}

export function isNothing(e: GExpr): boolean {
  return e.type === "alt" && e.items.length === 0;
}

export function isEpsilon(e: GExpr): boolean {
  return e.type === "seq" && e.items.length === 0;
}

export function seq(...parts: GExpr[]): GExpr {
  return seqOf(parts);
}

/** `seq` over an array (no argument spreading: a flattened sequence can have more items than a call takes). */
export function seqOf(parts: readonly GExpr[]): GExpr {
  // one pass, one array: nested sequences flattened and adjacent literals merged (emitters print "ab" rather than
  // "a" "b") as items are appended
  const items: GExpr[] = [];
  for (const p of parts) {
    if (p.type === "seq") {
      for (const it of p.items) pushMerged(items, it);
    } else if (p.type === "alt" && p.items.length === 0) {
      return NOTHING;
    } else {
      pushMerged(items, p);
    }
  }
  return items.length === 1 ? items[0] : ({ type: "seq", items } satisfies Seq);
}

function pushMerged(items: GExpr[], it: GExpr): void {
  const n = items.length;
  if (n > 0 && it.type === "literal") {
    const last = items[n - 1];
    if (last.type === "literal") {
      items[n - 1] = { type: "literal", text: last.text + it.text };
      return;
    }
  }
  items.push(it);
}

export function alt(...parts: GExpr[]): GExpr {
  const items: GExpr[] = [];
  for (const p of parts) {
    if (isNothing(p)) continue;
    if (p.type === "alt") items.push(...p.items);
    else items.push(p);
  }
  return items.length === 1 ? items[0] : ({ type: "alt", items } satisfies Alt);
}

export function rep(item: GExpr, min: number, max: number | null): GExpr {
  if (max !== null && max < min) return NOTHING;
  if (max === 0) return EPSILON;
  if (min === 1 && max === 1) return item;
  if (isNothing(item)) return min === 0 ? EPSILON : NOTHING;
  if (isEpsilon(item)) return EPSILON;
  return { type: "repeat", item, min, max } satisfies Repeat;
}

export function opt(item: GExpr): GExpr {
  return rep(item, 0, 1);
}

export function ref(rule: string): Ref {
  return { type: "ref", rule };
}

export function token(text: string): Token {
  return { type: "token", text };
}
