import { LimitExceededError } from "../errors.js";
import type { GExpr } from "../grammar/Grammar.js";
import { alt, cls, EPSILON, NOTHING, rep, seq } from "../grammar/build.js";
import { unionRanges } from "../grammar/ranges.js";
import { exprSize } from "../grammar/analysis/exprSize.js";
import type { Dfa } from "./Dfa.js";
import type { Deadline } from "../Deadline.js";
import { AUTOMATA_STAGE, trim } from "./Dfa.js";

/** Automata above this many states are not turned into one expression. */
export const MAX_ELIMINATION_STATES = 1_000;

function sizeError(maxSize: number, path: string): LimitExceededError {
  return new LimitExceededError(
    "LIMIT_GRAMMAR_SIZE",
    `the string constraints turn into a grammar expression of more than ${maxSize} nodes; simplify the patterns/format/length combination`,
    path,
  );
}

/** Union that merges character classes, so parallel edges become one class. */
function union(a: GExpr, b: GExpr): GExpr {
  if (a.type === "charClass" && b.type === "charClass") return cls(unionRanges(a.ranges, b.ranges));
  return alt(a, b);
}

/**
 * The language of a DFA as one grammar expression, by state elimination (Brzozowski–McCluskey). States are removed
 * cheapest first (fewest in×out edges), which keeps chain-shaped automata linear. Throws LIMIT_GRAMMAR_SIZE when the
 * expression would exceed `maxSize` nodes (elimination can grow exponentially on dense automata); the work is counted
 * in `deadline` (the compile's budget).
 */
export function dfaToExpr(input: Dfa, maxSize: number, path: string, deadline?: Deadline): GExpr {
  const a = trim(input);
  const n = a.accept.length;
  if (n === 0) return NOTHING;
  // picking the cheapest state is linear, so elimination is quadratic: large automata fail fast instead
  if (n > MAX_ELIMINATION_STATES) throw sizeError(maxSize, path);
  const S = n;
  const F = n + 1;
  const out: Map<number, GExpr>[] = Array.from({ length: n + 2 }, () => new Map());
  const inc: Map<number, GExpr>[] = Array.from({ length: n + 2 }, () => new Map());
  const add = (i: number, j: number, e: GExpr): void => {
    const prev = out[i].get(j);
    const v = prev ? union(prev, e) : e;
    if (exprSize(v) > maxSize) throw sizeError(maxSize, path);
    out[i].set(j, v);
    inc[j].set(i, v);
  };
  for (let s = 0; s < n; s++) {
    const t = a.trans[s];
    const byTarget = new Map<number, number[]>();
    for (let i = 0; i < t.length; i += 3) {
      const r = byTarget.get(t[i + 2]);
      if (r) r.push(t[i], t[i + 1]);
      else byTarget.set(t[i + 2], [t[i], t[i + 1]]);
    }
    for (const [to, ranges] of byTarget) add(s, to, cls(ranges));
    if (a.accept[s]) add(s, F, EPSILON);
  }
  add(S, a.start, EPSILON);
  const alive = new Set<number>(Array.from({ length: n }, (_, i) => i));
  while (alive.size) {
    deadline?.tick(AUTOMATA_STAGE, path, 1 + alive.size);
    let best = -1;
    let bestCost = Infinity;
    for (const k of alive) {
      const cost = (inc[k].size - (inc[k].has(k) ? 1 : 0)) * (out[k].size - (out[k].has(k) ? 1 : 0));
      if (cost < bestCost || (cost === bestCost && k < best)) (best = k), (bestCost = cost);
    }
    const k = best;
    alive.delete(k);
    const self = out[k].get(k);
    const loop = self ? rep(self, 0, null) : EPSILON;
    const ins = [...inc[k]].filter(([i]) => i !== k);
    const outs = [...out[k]].filter(([j]) => j !== k);
    for (const [i] of ins) out[i].delete(k);
    for (const [j] of outs) inc[j].delete(k);
    deadline?.tick(AUTOMATA_STAGE, path, ins.length * outs.length);
    for (const [i, ei] of ins) for (const [j, ej] of outs) add(i, j, seq(ei, loop, ej));
    out[k].clear();
    inc[k].clear();
  }
  return out[S].get(F) ?? NOTHING;
}
