import type { Deadline } from "../../Deadline.js";
import type { GExpr, Grammar } from "../Grammar.js";
import { children, foldExpr } from "./foldExpr.js";

/**
 * The rule names `e` references, with their number of occurrences, in first-occurrence order. Kept per body and per
 * deadline, i.e. per compile: the optimizer's passes and rounds ask for the references of every body several times
 * (dead rules, deduplication, inlining, its dead rules again), and most bodies are the same objects each time. Per
 * compile and not per process, as `simplify`'s results: a process-wide table would let a later compile skip (and not
 * count) steps an earlier one spent, so one schema could cost a different number of steps depending on what ran
 * before. `deadline` is ticked per node walked.
 */
export function refsOf(e: GExpr, deadline?: Deadline): ReadonlyMap<string, number> {
  const cache = refsCache(deadline);
  let refs = cache.get(e);
  if (refs === undefined) {
    // pre-order, every occurrence (counts are occurrences); a loop of its own: every body is walked once per compile
    const counts = new Map<string, number>();
    let nothing = false;
    const stack: GExpr[] = [e];
    while (stack.length > 0) {
      const x = stack.pop() as GExpr;
      deadline?.tick("analyzing the grammar");
      refsWalked.nodes++;
      if (x.type === "ref") counts.set(x.rule, (counts.get(x.rule) ?? 0) + 1);
      else if (x.type === "seq" || x.type === "alt") {
        if (x.type === "alt" && x.items.length === 0) nothing = true;
        for (let i = x.items.length - 1; i >= 0; i--) stack.push(x.items[i]);
      } else if (x.type === "repeat") stack.push(x.item);
      else if (x.type === "counted") {
        const labels = children(x);
        for (let i = labels.length - 1; i >= 0; i--) stack.push(labels[i]);
      }
    }
    if (nothing) holdingNothing(deadline).add(e);
    cache.set(e, (refs = counts));
  }
  return refs;
}

/**
 * Whether `e` holds the empty alternative (NOTHING) anywhere, told by the walk of `refsOf`: the smart constructors
 * absorb a sequence holding NOTHING, references and all, so a body rebuilt around one may lose references its parts
 * had (see `seedRefs`).
 */
export function holdsNothing(e: GExpr, deadline?: Deadline): boolean {
  refsOf(e, deadline);
  return holdingNothing(deadline).has(e);
}

/**
 * Records the references of `e` without walking it, for a pass that knows them from its parts (inlining: a body's
 * own references with each inlined rule's replaced by that rule's expansion's, none of them holding NOTHING, so `e`
 * holds none either).
 */
export function seedRefs(e: GExpr, refs: ReadonlyMap<string, number>, deadline?: Deadline): void {
  const cache = refsCache(deadline);
  if (cache.get(e) === undefined) cache.set(e, refs);
}

const nothingWithin = new WeakMap<Deadline, WeakSet<GExpr>>();
const nothingUncounted = new WeakSet<GExpr>();

function holdingNothing(deadline: Deadline | undefined): WeakSet<GExpr> {
  if (deadline === undefined) return nothingUncounted;
  let set = nothingWithin.get(deadline);
  if (set === undefined) nothingWithin.set(deadline, (set = new WeakSet()));
  return set;
}

/** Nodes walked to find references, for tests that count the work (a body asked for twice is walked once). */
export const refsWalked = { nodes: 0 };

type RefsCache = Map<GExpr, ReadonlyMap<string, number>> | WeakMap<GExpr, ReadonlyMap<string, number>>;

// a compile's table is a Map (it goes with the deadline, and a WeakMap's entries cost several times a Map's)
const refsWithin = new WeakMap<Deadline, Map<GExpr, ReadonlyMap<string, number>>>();
const refsUncounted = new WeakMap<GExpr, ReadonlyMap<string, number>>();

function refsCache(deadline: Deadline | undefined): RefsCache {
  if (deadline === undefined) return refsUncounted;
  let m = refsWithin.get(deadline);
  if (m === undefined) refsWithin.set(deadline, (m = new Map()));
  return m;
}

/** Adds the rule names referenced by `e` to `counts` (with their number of occurrences), in first-occurrence order. */
export function collectRefs(e: GExpr, counts: Map<string, number>, deadline?: Deadline): void {
  for (const [r, n] of refsOf(e, deadline)) counts.set(r, (counts.get(r) ?? 0) + n);
}

/** Direct references of every rule (each rule's referenced names, in first-occurrence order). */
export function referenceGraph(g: Grammar, deadline?: Deadline): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const [name, body] of g.rules) out.set(name, [...refsOf(body, deadline).keys()]);
  return out;
}

/** How often each rule is referenced in the whole grammar. */
export function referenceCounts(g: Grammar, deadline?: Deadline): Map<string, number> {
  const counts = new Map<string, number>();
  for (const body of g.rules.values()) collectRefs(body, counts, deadline);
  return counts;
}

const withRefs = new WeakMap<GExpr, boolean>();

/** Whether `e` references a rule (memoized per node, iterative). */
export function hasRefs(e: GExpr): boolean {
  return foldExpr<boolean>(e, (x, kids) => x.type === "ref" || kids.some(Boolean), withRefs);
}
