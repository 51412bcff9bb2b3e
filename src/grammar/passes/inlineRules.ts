import type { GExpr, Grammar } from "../Grammar.js";
import type { Deadline } from "../../Deadline.js";
import { exprSizeAtMost } from "../analysis/exprSize.js";
import { hasRefs, holdsNothing, referenceCounts, referenceGraph, refsOf, seedRefs } from "../analysis/refs.js";
import { recursiveRules } from "../analysis/ruleGraph.js";
import { removeDeadRules } from "./removeDeadRules.js";
import { mapRefs, simplify } from "./rewrite.js";

/** Bodies of at most this many IR nodes are inlined wherever they are used. */
export const INLINE_MAX_NODES = 3;

/**
 * Inlines every non-root, non-recursive rule that is referenced once, or whose body is trivially small and refers
 * to no rule, then drops
 * the rules left unreferenced. Bodies an inlining changes are rebuilt with the smart constructors (flattened, literals
 * merged); the others are left as they are: the lowering and the envelopes build them with the smart constructors,
 * which give what `simplify` would (test/compile/simplifiedBodies.test.ts checks it on every format), and simplifying
 * them again walked every node of the grammar. Returns `g` itself when that changes nothing.
 */
export function inlineRules(g: Grammar, deadline?: Deadline): Grammar {
  const graph = referenceGraph(g, deadline);
  const counts = referenceCounts(g, deadline);
  const rec = new Set(recursiveRules(g, deadline, graph));
  deadline?.check("inlining grammar rules");
  const inlinable = new Set<string>();
  for (const [name, body] of g.rules) {
    if (name === g.root || rec.has(name)) continue;
    // a small body that refers on (`[a-z] next`, a state of a string automaton) is not copied into each user: chains
    // of them copied into each other made a 24,000-state length product cost hundreds of millions of steps
    if (counts.get(name) === 1 || (exprSizeAtMost(body, INLINE_MAX_NODES) && !hasRefs(body))) inlinable.add(name);
  }
  // full expansion of inlinable rules; terminates because none of them is on a cycle. Callees first, in an
  // iterative depth-first post-order (a chain of single-use rules can be deeper than the call stack)
  const expanded = new Map<string, GExpr>();
  const withExpanded = (e: GExpr): GExpr =>
    mapRefs(e, (r) => (inlinable.has(r.rule) ? (expanded.get(r.rule) as GExpr) : r));
  // the references of each expansion, from its body's and its inlined rules' (null: not known so, walk it)
  const expandedRefs = new Map<string, ReadonlyMap<string, number> | null>();
  // entries composing may merge in all: a few times the grammar's references (what walking the rebuilt bodies would
  // cost at least), so chains of single-use rules thousands deep, whose maps would be copied into each other, are
  // walked instead once it is spent
  let edges = 0;
  for (const succ of graph.values()) edges += succ.length;
  const budget = { left: COMPOSE_PER_REFERENCE * edges + COMPOSE_BASE };
  const composedRefs = (e: GExpr): ReadonlyMap<string, number> | null =>
    composeRefs(e, inlinable, expandedRefs, budget, deadline);
  const expandRule = (name: string): void => {
    const stack: { v: string; i: number }[] = [{ v: name, i: 0 }];
    while (stack.length > 0) {
      const top = stack[stack.length - 1];
      const succ = graph.get(top.v) ?? [];
      if (top.i < succ.length) {
        const w = succ[top.i++];
        if (inlinable.has(w) && !expanded.has(w)) stack.push({ v: w, i: 0 });
        continue;
      }
      stack.pop();
      deadline?.tick("inlining grammar rules");
      const body = g.rules.get(top.v) as GExpr;
      expanded.set(top.v, withExpanded(body));
      expandedRefs.set(top.v, composedRefs(body));
    }
  };
  const expand = (e: GExpr): GExpr => {
    // the bodies of `g`, whose references referenceGraph has just found (cached per deadline)
    let any = false;
    for (const r of refsOf(e, deadline).keys()) {
      if (!inlinable.has(r)) continue;
      any = true;
      if (!expanded.has(r)) expandRule(r);
    }
    // a body that refers to no inlined rule is itself (mapRefs would rebuild nothing, after walking all of it)
    return any ? withExpanded(e) : e;
  };
  const rules = new Map<string, GExpr>();
  let changed = inlinable.size > 0;
  for (const [name, body] of g.rules) {
    if (inlinable.has(name)) continue;
    deadline?.tick("inlining grammar rules");
    const inlined = inlinable.size ? expand(body) : body;
    const b = inlined === body ? body : simplify(inlined, deadline);
    if (b !== body) {
      changed = true;
      // the dead-rule removal below, and the next round, read the rebuilt body's references: known from its parts
      const refs = composedRefs(body);
      if (refs !== null) seedRefs(b, refs, deadline);
    }
    rules.set(name, b);
  }
  // nothing inlined and every body already simple: the grammar itself (optimize's fixed point, told by identity)
  return removeDeadRules(changed ? { root: g.root, rules } : g, deadline);
}

/** Entries `composeRefs` may merge within one inlining: this many per reference of the grammar, plus COMPOSE_BASE. */
const COMPOSE_PER_REFERENCE = 4;
const COMPOSE_BASE = 4096;

/**
 * The references of `e` once every inlinable rule it refers to is replaced by its expansion: `e`'s own, each inlined
 * one's replaced by the expansion's (counts multiplied), in first-occurrence order (an expansion's first references
 * come where the rule is first referenced). Null when a part holds NOTHING (simplifying may then drop references), an
 * expansion's are not known, or `budget` is spent. Ticks the deadline per entry merged.
 */
function composeRefs(
  e: GExpr,
  inlinable: ReadonlySet<string>,
  expandedRefs: ReadonlyMap<string, ReadonlyMap<string, number> | null>,
  budget: { left: number },
  deadline: Deadline | undefined,
): ReadonlyMap<string, number> | null {
  if (holdsNothing(e, deadline)) return null;
  const out = new Map<string, number>();
  for (const [r, n] of refsOf(e, deadline)) {
    deadline?.tick("analyzing the grammar");
    if (--budget.left < 0) return null;
    if (!inlinable.has(r)) {
      out.set(r, (out.get(r) ?? 0) + n);
      continue;
    }
    const sub = expandedRefs.get(r);
    if (sub === undefined || sub === null) return null;
    for (const [s, m] of sub) {
      deadline?.tick("analyzing the grammar");
      if (--budget.left < 0) return null;
      out.set(s, (out.get(s) ?? 0) + n * m);
    }
  }
  return out;
}
