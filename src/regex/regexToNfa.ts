import type { Deadline } from "../Deadline.js";
import { LimitExceededError } from "../errors.js";
import type { Ranges } from "../grammar/ranges.js";
import type { RNode } from "./RegexNode.js";

/** The stage name the string automata's work is counted under in the compile's budget. */
export const AUTOMATA_STAGE = "building the automaton of the string constraints";

/**
 * A Thompson NFA over code-point ranges. Besides free moves (`eps`) it has assertion moves: `atStart` edges may be
 * taken only before the first code point, `atEnd` edges only after the last one.
 */
export interface RegexNfa {
  start: number;
  final: number;
  eps: number[][];
  atStart: number[][];
  atEnd: number[][];
  /** Per state: [ranges, target] pairs. */
  edges: [Ranges, number][][];
}

/** A deterministic automaton as `Dfa` (Dfa.ts) has it: flat [lo, hi, target] transition lists per state. */
export interface EmbeddedDfa {
  start: number;
  accept: boolean[];
  trans: number[][];
}

/**
 * Builds the NFA of `node`; throws LIMIT_AUTOMATON_SIZE past `maxStates` states. `and` / `not` nodes (resolved
 * lookarounds) are built by `embed` into a DFA of their whole-string language, whose states are copied in; their
 * anchors fire at the ends of that language, which is why lookarounds are resolved into nodes that reach the end
 * (lookaheads) or start at the beginning (lookbehinds) of the string.
 */
export function regexToNfa(
  node: RNode,
  maxStates: number,
  path: string,
  deadline?: Deadline,
  embed?: (n: RNode) => EmbeddedDfa,
): RegexNfa {
  const nfa: RegexNfa = { start: 0, final: 0, eps: [], atStart: [], atEnd: [], edges: [] };
  const state = (): number => {
    if (nfa.eps.length >= maxStates) {
      throw new LimitExceededError(
        "LIMIT_AUTOMATON_SIZE",
        `the string constraints need more than ${maxStates} automaton states; simplify the pattern or its repetition bounds, or raise limits.maxAutomatonStates`,
        path,
      );
    }
    deadline?.tick(AUTOMATA_STAGE, path);
    nfa.eps.push([]);
    nfa.atStart.push([]);
    nfa.atEnd.push([]);
    nfa.edges.push([]);
    return nfa.eps.length - 1;
  };
  // build(n, from) returns the state reached after n, starting from `from`
  const build = (n: RNode, from: number): number => {
    switch (n.t) {
      case "chars": {
        const to = state();
        if (n.ranges.length > 0) nfa.edges[from].push([n.ranges, to]);
        return to;
      }
      case "start": {
        const to = state();
        nfa.atStart[from].push(to);
        return to;
      }
      case "end": {
        const to = state();
        nfa.atEnd[from].push(to);
        return to;
      }
      case "seq": {
        let cur = from;
        for (const it of n.items) cur = build(it, cur);
        return cur;
      }
      case "alt": {
        const to = state();
        for (const it of n.items) {
          const s = state();
          nfa.eps[from].push(s);
          nfa.eps[build(it, s)].push(to);
        }
        return to;
      }
      case "and":
      case "not": {
        if (!embed) throw new Error("regexToNfa: intersections and complements need an automaton builder");
        const d = embed(n);
        const to = state();
        const ids = d.accept.map(() => state());
        if (ids.length === 0) return to; // the empty language: nothing leads to `to`
        nfa.eps[from].push(ids[d.start]);
        d.accept.forEach((acc, s) => {
          if (acc) nfa.eps[ids[s]].push(to);
          const t = d.trans[s];
          for (let i = 0; i < t.length; i += 3) nfa.edges[ids[s]].push([[t[i], t[i + 1]], ids[t[i + 2]]]);
        });
        return to;
      }
      case "look":
        throw new Error("regexToNfa: lookarounds must be resolved before building an automaton");
      case "rep": {
        let cur = from;
        for (let i = 0; i < n.min; i++) {
          const s = state();
          nfa.eps[cur].push(s);
          cur = build(n.item, s);
        }
        if (n.max === null) {
          // a fresh loop head so that the loop cannot be entered from the mandatory copies' inner states
          const head = state();
          nfa.eps[cur].push(head);
          const body = state();
          nfa.eps[head].push(body);
          nfa.eps[build(n.item, body)].push(head);
          return head;
        }
        const out = state();
        nfa.eps[cur].push(out);
        for (let i = n.min; i < n.max; i++) {
          const s = state();
          nfa.eps[cur].push(s);
          cur = build(n.item, s);
          nfa.eps[cur].push(out);
        }
        return out;
      }
    }
  };
  nfa.start = state();
  nfa.final = build(node, nfa.start);
  return nfa;
}
