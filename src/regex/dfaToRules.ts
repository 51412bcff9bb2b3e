import { rangesByTarget } from "./rangesByTarget.js";
import type { GExpr } from "../grammar/Grammar.js";
import { alt, cls, EPSILON, ref, seq } from "../grammar/build.js";
import type { Deadline } from "../Deadline.js";
import { AUTOMATA_STAGE, trim, type Dfa } from "./Dfa.js";

/**
 * The language of a DFA as right-linear rules, one per state (`s ::= "" | [class] t | ...`), added to `rules`;
 * returns the reference to the start state's rule. Linear in the automaton's size, for automata whose single
 * expression would be too large. `mapClass` rewrites each edge's class (e.g. into JSON spellings).
 * Rule names are `<prefix>-<k>-<state>` with the first `k` whose names are all free. The work is
 * counted in `deadline` (the compile's budget).
 */
export function dfaToRules(
  input: Dfa,
  rules: Map<string, GExpr>,
  prefix: string,
  mapClass: (e: GExpr) => GExpr,
  deadline?: Deadline,
  path = "",
): GExpr {
  const a = trim(input);
  const n = a.accept.length;
  if (n === 0) return alt();
  let k = 1;
  const taken = (kk: number) => [...rules.keys()].some((name) => name.startsWith(`${prefix}-${kk}-`));
  while (taken(k)) k++;
  const name = (s: number) => `${prefix}-${k}-${s}`;
  // an accepting state without exits ends the string: edges into it need no reference
  const isEnd = (s: number) => a.accept[s] && a.trans[s].length === 0;
  // states share few distinct classes (\S, \s...) and mapping one (JSON spelling) is costly: map each once
  const mapped = new Map<string, GExpr>();
  const edge = (ranges: number[]): GExpr => {
    const key = ranges.join(",");
    let e = mapped.get(key);
    if (e === undefined) mapped.set(key, (e = mapClass(cls(ranges))));
    return e;
  };
  for (let s = 0; s < n; s++) {
    deadline?.tick(AUTOMATA_STAGE, path, 1 + a.trans[s].length / 3);
    if (isEnd(s) && s !== a.start) continue;
    const byTarget = rangesByTarget(a.trans[s]);
    const parts: GExpr[] = [];
    if (a.accept[s]) parts.push(EPSILON);
    for (const [to, ranges] of byTarget) parts.push(isEnd(to) ? edge(ranges) : seq(edge(ranges), ref(name(to))));
    rules.set(name(s), alt(...parts));
  }
  return ref(name(a.start));
}
