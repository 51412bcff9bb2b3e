import type { Ranges } from "../grammar/ranges.js";

/**
 * A regular expression over Unicode code points: the common form that ECMAScript patterns, `format` definitions and
 * length bounds are read into before becoming a grammar expression or an automaton.
 * `start` / `end` are the `^` / `$` assertions (no multiline): they match only at the very start / end of the text.
 */
export type RNode =
  | { t: "chars"; ranges: Ranges }
  | { t: "seq"; items: RNode[] }
  | { t: "alt"; items: RNode[] }
  | { t: "rep"; item: RNode; min: number; max: number | null }
  | { t: "start" }
  | { t: "end" }
  | RLook
  | { t: "and"; items: RNode[] }
  | { t: "not"; item: RNode };

/**
 * A lookaround assertion as parsed (`(?=…)`, `(?!…)`, `(?<=…)`, `(?<!…)`); `raw` and `offset` name it in refusals.
 * Lookarounds are resolved (resolveLookarounds) into `and` / `not` before an automaton is built: `and` is the
 * intersection of whole-string languages, `not` the complement of one (over every string of Unicode scalar values).
 */
export interface RLook {
  t: "look";
  behind: boolean;
  negate: boolean;
  item: RNode;
  raw: string;
  offset: number;
}

export const R_EMPTY: RNode = { t: "seq", items: [] };
export const R_NEVER: RNode = { t: "alt", items: [] };

export function rChars(ranges: Ranges): RNode {
  return { t: "chars", ranges };
}

export function rSeq(...items: RNode[]): RNode {
  const out: RNode[] = [];
  for (const it of items) {
    if (it.t === "seq") out.push(...it.items);
    else out.push(it);
  }
  return out.length === 1 ? out[0] : { t: "seq", items: out };
}

export function rAlt(...items: RNode[]): RNode {
  const out: RNode[] = [];
  for (const it of items) {
    if (it.t === "alt") out.push(...it.items);
    else out.push(it);
  }
  return out.length === 1 ? out[0] : { t: "alt", items: out };
}

export function rRep(item: RNode, min: number, max: number | null): RNode {
  return { t: "rep", item, min, max };
}

/** A literal string as a sequence of single-code-point classes. */
export function rLit(s: string): RNode {
  return rSeq(...Array.from(s, (ch) => rChars([ch.codePointAt(0)!, ch.codePointAt(0)!])));
}

/**
 * Whether the node contains a `^` or `$` assertion anywhere, or a lookaround / Boolean operation (which, like an
 * anchor, only an automaton enforces).
 */
export function hasAnchor(n: RNode): boolean {
  switch (n.t) {
    case "start":
    case "end":
    case "look":
    case "and":
    case "not":
      return true;
    case "chars":
      return false;
    case "rep":
      return hasAnchor(n.item);
    default:
      return n.items.some(hasAnchor);
  }
}

/** Whether the node contains a lookaround assertion (`behind` picks lookbehinds or lookaheads; unset: either). */
export function hasLook(n: RNode, behind?: boolean): boolean {
  switch (n.t) {
    case "look":
      return behind === undefined || n.behind === behind || hasLook(n.item, behind);
    case "rep":
    case "not":
      return hasLook(n.item, behind);
    case "seq":
    case "alt":
    case "and":
      return n.items.some((it) => hasLook(it, behind));
    default:
      return false;
  }
}

/**
 * How many automaton states the node expands into when bounded repetitions are unrolled (saturating at `cap + 1`),
 * so that `(a{1,1000}){1,1000}` is refused before any state is built.
 */
export function expansionSize(n: RNode, cap: number): number {
  const sat = (x: number) => (x > cap ? cap + 1 : x);
  switch (n.t) {
    case "chars":
    case "start":
    case "end":
      return 1;
    case "rep": {
      const inner = expansionSize(n.item, cap);
      const copies = n.max === null ? Math.max(n.min, 1) : n.max;
      return sat(inner * Math.max(copies, 1) + 1);
    }
    case "look":
    case "not":
      return sat(expansionSize(n.item, cap) + 1);
    default: {
      let s = 1;
      for (const it of n.items) s = sat(s + expansionSize(it, cap));
      return s;
    }
  }
}
