import type { GExpr } from "../grammar/Grammar.js";
import { alt, cls, EPSILON, NOTHING, rep, seq } from "../grammar/build.js";
import { ALL_SCALARS, complementRanges, intersectRanges, type Ranges } from "../grammar/ranges.js";
import { BoundedMap } from "../util/BoundedMap.js";

/**
 * A regular expression (no rule references, so it stays regular for the regex emitter and cheap for the automaton)
 * of exactly the texts that do not contain `marker` as a substring. Free text before tool calls uses it, so that a
 * malformed call can never hide inside "text".
 *
 * Built from the Knuth–Morris–Pratt automaton of the marker (state q = the longest prefix of `marker` that ends the
 * text read so far; reading the whole marker is the dead state), turned into an expression by state elimination.
 * Eliminating states from the last to the first keeps the expression O(m²) for a marker of m code points.
 */
export function textWithout(marker: string): GExpr {
  // a format's marker is a constant: its expression is built once per process (expressions are immutable)
  let e = withoutMarker.get(marker);
  if (e === undefined) withoutMarker.set(marker, (e = build(marker)));
  return e;
}

/** Expressions by marker, the oldest dropped first. */
const withoutMarker = new BoundedMap<string, GExpr>({ maxEntries: 256, order: "insertion" });

function build(marker: string): GExpr {
  const m = [...marker].map((c) => c.codePointAt(0) as number);
  if (m.length === 0) return NOTHING;
  const n = m.length;
  const START = n;
  const FINAL = n + 1;
  // edges[p].get(r): expression of the direct moves p → r
  const edges: Map<number, GExpr>[] = Array.from({ length: n + 2 }, () => new Map());
  const add = (p: number, r: number, e: GExpr): void => {
    const prev = edges[p].get(r);
    edges[p].set(r, prev === undefined ? e : alt(prev, e));
  };

  const fail = failureFunction(m);
  const markerChars = [...new Set(m)].sort((a, b) => a - b);
  const others: Ranges = intersectRanges(ALL_SCALARS, complementRanges(markerChars.flatMap((c) => [c, c])));
  for (let q = 0; q < n; q++) {
    const byTarget = new Map<number, number[]>();
    for (const c of markerChars) {
      const r = step(m, fail, q, c);
      if (r === n) continue; // the whole marker: dead
      const list = byTarget.get(r) ?? [];
      list.push(c, c);
      byTarget.set(r, list);
    }
    const zero = byTarget.get(0) ?? [];
    byTarget.set(0, [...zero, ...others]);
    for (const r of [...byTarget.keys()].sort((a, b) => a - b)) add(q, r, cls(byTarget.get(r) as number[]));
    add(q, FINAL, EPSILON);
  }
  add(START, 0, EPSILON);

  for (let q = n - 1; q >= 0; q--) {
    const loop = edges[q].get(q);
    const star = loop === undefined ? EPSILON : rep(loop, 0, null);
    const outs = [...edges[q].entries()].filter(([r]) => r !== q);
    for (let p = 0; p < edges.length; p++) {
      if (p === q) continue;
      const into = edges[p].get(q);
      if (into === undefined) continue;
      edges[p].delete(q);
      for (const [r, out] of outs) add(p, r, seq(into, star, out));
    }
    edges[q].clear();
  }
  return edges[START].get(FINAL) ?? NOTHING;
}

/** KMP failure function: fail[i] = length of the longest proper border of m[0..i]. */
function failureFunction(m: number[]): number[] {
  const fail = new Array<number>(m.length).fill(0);
  let k = 0;
  for (let i = 1; i < m.length; i++) {
    while (k > 0 && m[i] !== m[k]) k = fail[k - 1];
    if (m[i] === m[k]) k++;
    fail[i] = k;
  }
  return fail;
}

/** The KMP transition: from "q code points of the marker matched", read `c`. */
function step(m: number[], fail: number[], q: number, c: number): number {
  let k = q;
  while (k > 0 && m[k] !== c) k = fail[k - 1];
  return m[k] === c ? k + 1 : 0;
}
