import { exprKey } from "../grammar/analysis/exprKey.js";
import type { GExpr } from "../grammar/Grammar.js";

/**
 * The same alternatives, shaped for llama.cpp's stack-based grammar matcher: alternatives that begin with the same
 * literal text share it (`"\\b" | "\\t" | "\\u000" [0-7]` → `"\\" ([bt] | "u000" [0-7])`), and single-character
 * literals and character classes side by side become one class, and `H | H X | … | H X{n}` becomes `H X{0,n}`. llama.cpp keeps one stack per alternative it could
 * be in and walks every candidate token through every stack, so fewer alternatives at a position is less work per
 * token. Exact: `a x | a y` and `a (x | y)` are the same language, and so are `"b" | [cd]` and `[b-d]`.
 *
 * `token` nodes are left whole (they may stand for a special token). Order among the returned alternatives follows
 * the first occurrence of each group; GBNF alternation is unordered, so this only keeps the output stable.
 */
export function factorAlternatives(items: readonly GExpr[]): GExpr[] {
  return mergeClasses(factorPrefixes(mergeRepeatCounts(items)));
}

/** An alternative read as `head X{k}`: its items before the counted tail, the tail's item, and the count. */
interface Counted {
  head: readonly GExpr[];
  item: GExpr | null;
  count: number;
}

function counted(e: GExpr): Counted {
  const items = e.type === "seq" ? e.items : [e];
  const last = items[items.length - 1];
  if (items.length >= 2 && last.type === "repeat" && last.max === last.min)
    return { head: items.slice(0, -1), item: last.item, count: last.min };
  if (items.length >= 2 && last.type === "charClass") return { head: items.slice(0, -1), item: last, count: 1 };
  return { head: items, item: null, count: 0 };
}

/**
 * Alternatives `H | H X | H X{2} | … | H X{n}` (a number's digit counts: `[1-9] | [1-9] [0-9] | … | [1-9] [0-9]{307}`)
 * become `H X{0,n}`: one alternative instead of n + 1, so llama.cpp keeps one stack where it kept one per count
 * (hundreds of stacks per token on a bounded `number`). Exact: the counts merged are contiguous.
 */
function mergeRepeatCounts(items: readonly GExpr[]): GExpr[] {
  if (items.length < 3) return [...items];
  const parts = items.map(counted);
  const headKeys = parts.map((p) => p.head.map((h) => exprKey(h)).join(" "));
  // the tail item of each head, from the alternatives that have one (an `H` alone takes any tail, with count 0)
  const tailOf = new Map<string, string>();
  for (let i = 0; i < parts.length; i++) {
    const it = parts[i].item;
    if (it === null) continue;
    const k = exprKey(it);
    const seen = tailOf.get(headKeys[i]);
    tailOf.set(headKeys[i], seen === undefined || seen === k ? k : "\u0000mixed");
  }
  const groups = new Map<string, number[]>();
  for (let i = 0; i < parts.length; i++) {
    const tail = tailOf.get(headKeys[i]);
    if (tail === undefined || tail === "\u0000mixed") continue;
    const key = `${headKeys[i]}\u0000${tail}`;
    const g = groups.get(key);
    if (g) g.push(i);
    else groups.set(key, [i]);
  }
  const replaced = new Map<number, GExpr | null>();
  for (const members of groups.values()) {
    if (members.length < 3) continue;
    const counts = members.map((i) => parts[i].count).sort((a, b) => a - b);
    if (new Set(counts).size !== counts.length || counts[counts.length - 1] - counts[0] !== counts.length - 1) continue;
    const withItem = members.find((i) => parts[i].item !== null)!;
    const merged: GExpr = {
      type: "seq",
      items: [
        ...parts[withItem].head,
        { type: "repeat", item: parts[withItem].item!, min: counts[0], max: counts[counts.length - 1] },
      ],
    };
    members.forEach((i, n) => replaced.set(i, n === 0 ? merged : null));
  }
  if (replaced.size === 0) return [...items];
  const out: GExpr[] = [];
  items.forEach((e, i) => {
    const r = replaced.get(i);
    if (r === undefined) out.push(e);
    else if (r !== null) out.push(r);
  });
  return out;
}

/** The literal an alternative begins with ("" when it begins otherwise). */
function leadingText(e: GExpr): string {
  if (e.type === "literal") return e.text;
  if (e.type === "seq" && e.items.length > 0 && e.items[0].type === "literal") return e.items[0].text;
  return "";
}

/** `e` with its first `n` UTF-16 units of leading literal removed. */
function dropPrefix(e: GExpr, n: number): GExpr {
  if (e.type === "literal") return { type: "literal", text: e.text.slice(n) };
  const seq = e as Extract<GExpr, { type: "seq" }>;
  const head = (seq.items[0] as Extract<GExpr, { type: "literal" }>).text.slice(n);
  const rest = seq.items.slice(1);
  const items = head === "" ? rest : [{ type: "literal", text: head } as GExpr, ...rest];
  return items.length === 1 ? items[0] : { type: "seq", items };
}

function firstCodePoint(text: string): string {
  return String.fromCodePoint(text.codePointAt(0)!);
}

/** Longest common prefix of `texts`, whole code points only. */
function commonPrefix(texts: readonly string[]): string {
  let p = texts[0];
  for (const t of texts) {
    let i = 0;
    while (i < p.length && i < t.length && p[i] === t[i]) i++;
    p = p.slice(0, i);
  }
  // never split a surrogate pair
  const last = p.charCodeAt(p.length - 1);
  return last >= 0xd800 && last <= 0xdbff ? p.slice(0, -1) : p;
}

function factorPrefixes(items: readonly GExpr[]): GExpr[] {
  const groups = new Map<string, GExpr[]>();
  const order: (string | GExpr)[] = [];
  for (const it of items) {
    const text = leadingText(it);
    if (text === "") {
      order.push(it);
      continue;
    }
    const key = firstCodePoint(text);
    const g = groups.get(key);
    if (g) g.push(it);
    else {
      groups.set(key, [it]);
      order.push(key);
    }
  }
  const out: GExpr[] = [];
  for (const o of order) {
    if (typeof o !== "string") {
      out.push(o);
      continue;
    }
    const g = groups.get(o)!;
    if (g.length === 1) {
      out.push(g[0]);
      continue;
    }
    const prefix = commonPrefix(g.map(leadingText));
    const rests = factorAlternatives(g.map((e) => dropPrefix(e, prefix.length)));
    const tail: GExpr = rests.length === 1 ? rests[0] : { type: "alt", items: rests };
    out.push({ type: "seq", items: [{ type: "literal", text: prefix }, tail] });
  }
  return out;
}

/** Single-code-point literals and character classes among `items` merged into one class (at the first one's place). */
function mergeClasses(items: readonly GExpr[]): GExpr[] {
  const ranges: [number, number][] = [];
  let at = -1;
  let count = 0;
  const out: GExpr[] = [];
  for (const it of items) {
    if (it.type === "charClass") {
      for (let i = 0; i < it.ranges.length; i += 2) ranges.push([it.ranges[i], it.ranges[i + 1]]);
    } else if (it.type === "literal" && it.text.length > 0 && firstCodePoint(it.text).length === it.text.length) {
      const cp = it.text.codePointAt(0)!;
      ranges.push([cp, cp]);
    } else {
      out.push(it);
      continue;
    }
    count++;
    if (at < 0) {
      at = out.length;
      out.push(it);
    }
  }
  if (count < 2) return out;
  ranges.sort((a, b) => a[0] - b[0]);
  const merged: number[] = [];
  for (const [lo, hi] of ranges) {
    const n = merged.length;
    if (n > 0 && lo <= merged[n - 1] + 1) merged[n - 1] = Math.max(merged[n - 1], hi);
    else merged.push(lo, hi);
  }
  out[at] = { type: "charClass", ranges: merged };
  return out;
}
