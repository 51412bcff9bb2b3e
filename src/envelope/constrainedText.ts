import type { GExpr } from "../grammar/Grammar.js";
import { ALL_SCALARS, normalizeRanges, type Ranges } from "../grammar/ranges.js";
import type { Dfa } from "../regex/Dfa.js";
import { dfaToExpr } from "../regex/dfaToExpr.js";
import { BoundedMap } from "../util/BoundedMap.js";

/** What a run of free text (reasoning, or text before the calls) must satisfy. */
export interface TextConstraint {
  /** Substrings the text never contains (the markers that would end it or open a call). */
  readonly avoid: readonly string[];
  /** Strings the text does not start with (a reasoning block's opening, a start prefix). */
  readonly notStartingWith?: readonly string[];
  /** Code points the text does not start with (inclusive [lo, hi] pairs). */
  readonly notStartingWithChars?: Ranges;
  /**
   * The marker that follows the text (and is in `avoid`): the text is such that in `text + before` the first
   * occurrence of `before` is at the very end. Without this, `"\n</think>\n"` followed by the
   * marker `"\n</think>\n\n"` would contain the marker earlier than where the grammar puts it, and a parser cutting
   * at the first occurrence would read another text.
   */
  readonly before?: string;
  /** The text has at least one character (Functionary v3.2's text message: an empty one is no message). */
  readonly nonEmpty?: boolean;
}

/** Above this, the expression is not worth building (markers are a few dozen code points). */
const MAX_EXPR_SIZE = 200_000;

/**
 * The regular language of texts satisfying `c`, as one grammar expression without rule references: the product of
 * an Aho–Corasick automaton of the avoided strings and a trie of the forbidden starts, turned into an expression by
 * state elimination (src/regex/dfaToExpr). A few dozen states for real markers.
 */
export function constrainedText(c: TextConstraint): GExpr {
  // a format's constraints are constants: each is built once per process (expressions are immutable)
  const key = JSON.stringify([
    c.avoid,
    c.notStartingWith ?? [],
    c.notStartingWithChars ?? [],
    c.before ?? null,
    c.nonEmpty ?? false,
  ]);
  let e = built.get(key);
  if (e === undefined) built.set(key, (e = build(c)));
  return e;
}

/** Expressions by constraint, the oldest dropped first. */
const built = new BoundedMap<string, GExpr>({ maxEntries: 256, order: "insertion" });

function build(c: TextConstraint): GExpr {
  const avoid = [...new Set(c.avoid.filter((m) => m !== ""))];
  if (c.before !== undefined && !avoid.includes(c.before)) avoid.push(c.before);
  const ac = ahoCorasick(avoid.map(codePoints));
  const starts = prefixTrie((c.notStartingWith ?? []).filter((s) => s !== "").map(codePoints));
  const badFirst = normalizeRanges([...(c.notStartingWithChars ?? [])]);
  const before = c.before === undefined ? undefined : codePoints(c.before);

  // alphabet: every code point that any automaton tells apart, as singletons, and the forbidden first ranges
  const points = new Set<number>([...ac.alphabet, ...starts.alphabet]);
  const bounds = new Set<number>();
  for (const p of points) bounds.add(p).add(p + 1);
  for (let i = 0; i < badFirst.length; i += 2) bounds.add(badFirst[i]).add(badFirst[i + 1] + 1);
  const cuts = [...bounds, ALL_SCALARS[0]].filter((b) => b <= 0x10ffff).sort((a, b) => a - b);
  const intervals: [number, number][] = [];
  for (let i = 0; i < cuts.length; i++) {
    const lo = cuts[i];
    const hi = (i + 1 < cuts.length ? cuts[i + 1] : 0x110000) - 1;
    if (lo <= hi && (i === 0 || lo !== cuts[i - 1])) intervals.push([lo, hi]);
  }

  // product states: (Aho–Corasick node, start-trie node or FREE once the text left every forbidden start)
  const FREE = -1;
  const ids = new Map<string, number>();
  // the third component: a character has been read (only told apart when the text must not be empty)
  const queue: [number, number, boolean][] = [];
  const dfa: Dfa = { start: 0, accept: [], trans: [] };
  const stateOf = (q: number, s: number, read: boolean): number => {
    const key = `${q},${s},${read || c.nonEmpty !== true}`;
    let id = ids.get(key);
    if (id === undefined) {
      id = dfa.accept.length;
      ids.set(key, id);
      dfa.accept.push(acceptable(q) && (read || c.nonEmpty !== true));
      dfa.trans.push([]);
      queue.push([q, s, read]);
    }
    return id;
  };
  // q stands for the longest suffix of the text that is a prefix of an avoided string: every occurrence of `before`
  // that would start inside the text starts inside that suffix
  const acceptable = (q: number): boolean => {
    if (before === undefined) return true;
    const tail = [...ac.word[q], ...before];
    for (let at = 0; at < ac.word[q].length; at++) if (before.every((cp, i) => tail[at + i] === cp)) return false;
    return true;
  };
  stateOf(0, 0, false);
  for (let k = 0; k < queue.length; k++) {
    const [q, s] = queue[k];
    const out = dfa.trans[k];
    for (const [lo, hi] of intervals) {
      if (s === 0 && inRanges(badFirst, lo)) continue;
      const q2 = ac.next(q, lo);
      if (ac.matches[q2]) continue;
      let s2 = FREE;
      if (s !== FREE) {
        s2 = starts.child(s, lo) ?? FREE;
        if (s2 !== FREE && starts.terminal[s2]) continue;
      }
      const to = stateOf(q2, s2, true);
      const n = out.length;
      if (n > 0 && out[n - 1] === to && out[n - 2] + 1 === lo) out[n - 2] = hi;
      else out.push(lo, hi, to);
    }
  }
  return dfaToExpr(dfa, MAX_EXPR_SIZE, "");
}

function codePoints(s: string): number[] {
  return [...s].map((ch) => ch.codePointAt(0) as number);
}

function inRanges(r: Ranges, cp: number): boolean {
  for (let i = 0; i < r.length; i += 2) if (cp >= r[i] && cp <= r[i + 1]) return true;
  return false;
}

interface Trie {
  children: Map<number, number>[];
  terminal: boolean[];
  alphabet: Set<number>;
  child(node: number, cp: number): number | undefined;
}

function prefixTrie(words: number[][]): Trie {
  const children: Map<number, number>[] = [new Map()];
  const terminal = [false];
  const alphabet = new Set<number>();
  for (const w of words) {
    let n = 0;
    for (const cp of w) {
      alphabet.add(cp);
      let m = children[n].get(cp);
      if (m === undefined) {
        m = children.length;
        children.push(new Map());
        terminal.push(false);
        children[n].set(cp, m);
      }
      n = m;
    }
    terminal[n] = true;
  }
  return { children, terminal, alphabet, child: (node, cp) => children[node].get(cp) };
}

/** The Aho–Corasick automaton of `words`: `next` is the full transition, `matches[q]` says a word ends at q. */
function ahoCorasick(words: number[][]): {
  next(q: number, cp: number): number;
  matches: boolean[];
  word: number[][];
  alphabet: Set<number>;
} {
  const trie = prefixTrie(words);
  const word: number[][] = [[]];
  const n = trie.children.length;
  const fail = new Array<number>(n).fill(0);
  const matches = [...trie.terminal];
  const order: number[] = [];
  for (const [cp, c] of trie.children[0]) {
    order.push(c);
    word[c] = [cp];
  }
  for (let i = 0; i < order.length; i++) {
    const u = order[i];
    matches[u] = matches[u] || matches[fail[u]];
    for (const [cp, v] of trie.children[u]) {
      word[v] = [...word[u], cp];
      let f = fail[u];
      while (f !== 0 && !trie.children[f].has(cp)) f = fail[f];
      const g = trie.children[f].get(cp);
      fail[v] = g !== undefined && g !== v ? g : 0;
      order.push(v);
    }
  }
  const next = (q: number, cp: number): number => {
    let r = q;
    for (;;) {
      const c = trie.children[r].get(cp);
      if (c !== undefined) return c;
      if (r === 0) return 0;
      r = fail[r];
    }
  };
  return { next, matches, word, alphabet: trie.alphabet };
}
