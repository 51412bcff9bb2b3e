import { LimitExceededError } from "../errors.js";
import type { GExpr } from "../grammar/Grammar.js";
import { alt, EPSILON, NOTHING, opt, rep, seq } from "../grammar/build.js";
import type { ArrayNode } from "../schema/SchemaNode.js";
import type { LowerState } from "./LowerState.js";
import { lowerUniqueArray } from "./lowerUniqueArray.js";
import { relation } from "./schemaRelation.js";

/**
 * `[` items `]`: prefix items in order, then `items`, with the length bounds. `contains` is enforced exactly when
 * every position's schema either always or never matches it: the count of matching items is then a function of
 * the length, and the bounds become length bounds.
 */
export function lowerArray(n: ArrayNode, st: LowerState): GExpr {
  const P = n.prefixItems;
  const I = n.items;
  let minL = n.minItems;
  let maxL: number | undefined = n.maxItems;
  if (I === null) maxL = Math.min(maxL ?? P.length, P.length);
  if (n.uniqueItems) {
    // contains is counted exactly there: the values used are known
    const unique = lowerUniqueArray(n, st, minL, maxL);
    if (typeof unique !== "string") return unique;
    st.relax("uniqueItems", `${n.path}/uniqueItems`, unique);
  }

  if (n.contains && !(n.contains.min === 0 && n.contains.max === undefined)) {
    const c = n.contains;
    const rel = P.map((p) => relation(p, c.schema, st.defs));
    const relI = I === null ? "none" : relation(I, c.schema, st.defs);
    if (rel.includes("mixed") || relI === "mixed") {
      st.relax(
        "contains",
        `${n.path}/contains`,
        "the items may or may not match the contains schema, so the count of matching items is not a function of the length",
      );
    } else {
      const bounds = containsLengths(
        rel.map((r) => r === "all"),
        relI === "all",
        c.min,
        c.max,
      );
      if (!bounds) return NOTHING;
      minL = Math.max(minL, bounds.min);
      if (bounds.max !== undefined) maxL = maxL === undefined ? bounds.max : Math.min(maxL, bounds.max);
    }
  }
  if (maxL !== undefined && minL > maxL) return NOTHING;

  const s = st.style;
  const pe = P.map((p, _j) => st.share(p.path, "", st.lower(p)));
  const ie = I === null ? NOTHING : st.share(I.path, "", st.lower(I));
  const itemAt = (i: number): GExpr => (i < P.length ? pe[i] : ie);

  // items at positions >= i (i >= 1), each after a separator
  const rest = (i: number): GExpr => {
    if (maxL !== undefined && i >= maxL) return EPSILON;
    if (i < P.length) {
      const body = seq(s.itemSeparator, pe[i], rest(i + 1));
      return i >= minL ? opt(body) : body;
    }
    const a = Math.max(0, minL - i);
    const b = maxL === undefined ? null : maxL - i;
    if (I === null) return a > 0 ? NOTHING : EPSILON;
    const bound = Math.max(a, b ?? 0);
    if (bound > st.limits.maxRepeatBound) {
      throw new LimitExceededError(
        "LIMIT_REPETITION",
        `an item count bound of ${bound} is above limits.maxRepeatBound ${st.limits.maxRepeatBound}; lower minItems/maxItems or raise the limit`,
        n.path,
      );
    }
    return rep(seq(s.itemSeparator, ie), a, b);
  };
  const nonEmpty = maxL === 0 ? NOTHING : seq(s.arrayOpen, itemAt(0), rest(1), s.arrayClose);
  return alt(minL === 0 ? s.emptyArray : NOTHING, nonEmpty);
}

/**
 * Lengths L whose count of matching items, count(L) = #matching prefix positions below L + (items match ? L - n : 0),
 * lies in [cmin, cmax]. count is non-decreasing, so they form an interval; null when empty.
 */
export function containsLengths(
  prefixAll: boolean[],
  itemsAll: boolean,
  cmin: number,
  cmax: number | undefined,
): { min: number; max?: number } | null {
  const n = prefixAll.length;
  const count = (L: number): number => {
    let c = 0;
    for (let j = 0; j < Math.min(L, n); j++) if (prefixAll[j]) c++;
    return c + (itemsAll && L > n ? L - n : 0);
  };
  let lo: number | undefined;
  for (let L = 0; L <= n; L++)
    if (count(L) >= cmin) {
      lo = L;
      break;
    }
  if (lo === undefined) {
    if (!itemsAll) return null;
    lo = n + (cmin - count(n));
  }
  let hi: number | undefined;
  if (cmax !== undefined) {
    if (count(lo) > cmax) return null;
    if (count(n) <= cmax) {
      hi = itemsAll ? n + (cmax - count(n)) : undefined;
    } else {
      for (let L = n; L >= 0; L--)
        if (count(L) <= cmax) {
          hi = L;
          break;
        }
    }
  }
  return hi === undefined ? { min: lo } : { min: lo, max: hi };
}
