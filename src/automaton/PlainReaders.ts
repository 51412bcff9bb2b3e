import { type Automaton, DEAD } from "./Automaton.js";
import { PLAIN_NEXT, PLAIN_STATES } from "./plainText.js";

/**
 * Pairs of a configuration and a plain reader's state (see plainText) the search from one configuration looks at
 * before it gives up: an unanchored pattern's search has a few dozen (its partial matches, and the configurations
 * inside a character of several bytes).
 */
const SEARCH_PAIRS = 256;

/**
 * The most characters a count of characters is searched for (see charsLive): the search costs about 10 pairs a
 * character, and past 32 the trie nodes above a longer plain token are few (Qwen3: 13,000 nodes walked at most at 32,
 * 32,600 at 16, 180,000 at 8: see MaskWalk.composePlainUpTo).
 */
export const PLAIN_CHARS_CAP = 32;

/**
 * Pairs the search for a count of characters (see charsLive) looks at before it stops: a bounded string's copies make
 * a configuration per character and per UTF-8 reader state inside one (about 10 per character).
 */
const COUNT_PAIRS = 512;

/**
 * Which configurations read every plain text (see plainText): from such a configuration, every plain byte string
 * leads to a live configuration, so every plain token is allowed there (inside a string that reads any text: an
 * unanchored `pattern` before, inside and after its match). Found by a search of the pairs (configuration, reader
 * state) reachable from the configuration by the automaton's own steps, at most SEARCH_PAIRS of them, each checked on
 * every byte the reader allows there; kept per configuration for the automaton's epoch. A configuration met between
 * characters by a search that succeeds reads every plain text too (what it reaches was searched), so the positions
 * after the first one of such a string cost a lookup.
 */
export class PlainReaders {
  private readonly automaton: Automaton;
  /** Per configuration: 1 reads every plain text, 2 does not (or was given up on), 0 not searched yet. */
  private verdict = new Uint8Array(0);
  /** Per configuration: 1 + the count charsLive found (capped at the cap it was asked with), 0 not searched yet. */
  private chars = new Uint8Array(0);
  private epoch: number;
  /** Searches made, and pairs they looked at (the work of this check: each pair steps one configuration's row). */
  searches = 0;
  pairs = 0;

  constructor(automaton: Automaton) {
    this.automaton = automaton;
    this.epoch = automaton.tableEpoch;
  }

  /** Every plain byte string leads from configuration `c` to a live configuration (see the class). */
  allowsAllPlain(c: number): boolean {
    const A = this.automaton;
    this.sameEpoch();
    if (this.verdict.length < A.configCount) {
      const v = new Uint8Array(Math.max(A.configCount * 2, 1024));
      v.set(this.verdict);
      this.verdict = v;
    }
    const known = this.verdict[c];
    if (known !== 0) return known === 1;
    // the count's search first (see charsLive): it ends with this verdict where it looks at every pair reachable
    // (within its cap), or finds a text that dies or more pairs than this search looks at within PLAIN_CHARS_CAP
    // characters, where this one would fail too, after up to SEARCH_PAIRS pairs (a `maxLength: 255` string's first
    // copies); and a bounded string's mask asks for that count next (MaskWalk.composePlainUpTo)
    const n = this.charsLive(c, PLAIN_CHARS_CAP);
    if (this.verdict[c] === 1) return true;
    if (n < PLAIN_CHARS_CAP) {
      this.verdict[c] = 2;
      return false;
    }
    this.searches++;
    const seen = new Set<number>([c * PLAIN_STATES]);
    // depth first: a string that dies at a bound (a `maxLength`) is found dead after one path to it
    const todo = [c * PLAIN_STATES];
    let ok = true;
    search: while (todo.length > 0) {
      const pair = todo.pop()!;
      const x = Math.floor(pair / PLAIN_STATES);
      const s = pair - x * PLAIN_STATES;
      if (s === 0 && x !== c) {
        const v = x < this.verdict.length ? this.verdict[x] : 0;
        if (v === 2) {
          ok = false;
          break;
        }
        if (v === 1) continue;
      }
      this.pairs++;
      // the bytes no stack can read are known without making a configuration: most searches fail there (an enum's
      // value, a number, a key's name), before stepAll makes the configurations of the others
      A.recordDeadBytes(x);
      const dead = A.cTrans;
      for (let b = 0; b < 256; b++)
        if (PLAIN_NEXT[s * 256 + b] >= 0 && dead[x * 256 + b] === DEAD) {
          ok = false;
          break search;
        }
      A.stepAll(x);
      const row = A.cTrans;
      for (let b = 0; b < 256; b++) {
        const t = PLAIN_NEXT[s * 256 + b];
        if (t < 0) continue;
        const y = row[x * 256 + b];
        if (y < 0) {
          ok = false;
          break search;
        }
        const p = y * PLAIN_STATES + t;
        if (seen.has(p)) continue;
        if (seen.size >= SEARCH_PAIRS) {
          ok = false;
          break search;
        }
        seen.add(p);
        todo.push(p);
      }
    }
    // the search may have made configurations past the verdicts' length
    if (this.verdict.length < A.configCount) {
      const v = new Uint8Array(A.configCount * 2);
      v.set(this.verdict);
      this.verdict = v;
    }
    if (!ok) {
      this.verdict[c] = 2;
      return false;
    }
    for (const p of seen) if (p % PLAIN_STATES === 0) this.verdict[p / PLAIN_STATES] = 1;
    return true;
  }

  /** Drops the verdicts of an earlier epoch of the automaton's tables (their configurations are gone). */
  private sameEpoch(): void {
    const A = this.automaton;
    if (this.epoch === A.tableEpoch) return;
    this.epoch = A.tableEpoch;
    this.verdict = new Uint8Array(0);
    this.chars = new Uint8Array(0);
  }

  /**
   * The largest count n <= `cap` (at most 120) such that every plain byte string of at most n characters leads from
   * configuration `c` to a live configuration (a character's partial UTF-8 tail counts as one): where a bounded
   * string (a `maxLength`) reads any text until its bound, the characters left before the bound, up to `cap`. Found
   * by a search of pairs (configuration, reader state) level by level, a level per character, so that each pair is
   * first met at its fewest characters and looked at once: a pair met again later has nothing new to check within
   * the count. Stops at COUNT_PAIRS pairs, with the levels it finished.
   */
  charsLive(c: number, upTo: number): number {
    const A = this.automaton;
    const cap = Math.min(upTo, 120);
    this.sameEpoch();
    if (this.chars.length < A.configCount) {
      const v = new Uint8Array(Math.max(A.configCount * 2, 1024));
      v.set(this.chars);
      this.chars = v;
    }
    // 1 + n: a count the search ended at on its own (a dead text, its pairs' cap); 128 + n: one it stopped at its cap
    const known = this.chars[c];
    if (known >= 128 && known - 128 >= cap) return cap;
    if (known !== 0 && known < 128) return Math.min(known - 1, cap);
    this.searches++;
    const seen = new Set<number>([c * PLAIN_STATES]);
    let level: number[] = [c * PLAIN_STATES];
    let n = 0;
    let ended = false;
    search: for (; n < cap; n++) {
      // one more character from every pair between characters; its continuation bytes stay on this level
      const nextLevel: number[] = [];
      const todo = level;
      while (todo.length > 0) {
        const pair = todo.pop()!;
        const x = Math.floor(pair / PLAIN_STATES);
        const s = pair - x * PLAIN_STATES;
        this.pairs++;
        ended = true;
        A.recordDeadBytes(x);
        const dead = A.cTrans;
        for (let b = 0; b < 256; b++) if (PLAIN_NEXT[s * 256 + b] >= 0 && dead[x * 256 + b] === DEAD) break search;
        A.stepAll(x);
        const row = A.cTrans;
        for (let b = 0; b < 256; b++) {
          const t = PLAIN_NEXT[s * 256 + b];
          if (t < 0) continue;
          const y = row[x * 256 + b];
          if (y < 0) break search;
          const p = y * PLAIN_STATES + t;
          if (seen.has(p)) continue;
          if (seen.size >= COUNT_PAIRS) break search;
          seen.add(p);
          (t === 0 ? nextLevel : todo).push(p);
        }
        ended = false;
      }
      level = nextLevel;
      // no pair left to look at: every plain text of any length stays live, from every configuration met between
      // characters too (what it reaches was searched)
      if (level.length === 0) {
        n = cap;
        if (this.verdict.length < A.configCount) {
          const v = new Uint8Array(A.configCount * 2);
          v.set(this.verdict);
          this.verdict = v;
        }
        for (const p of seen) if (p % PLAIN_STATES === 0) this.verdict[p / PLAIN_STATES] = 1;
        break;
      }
    }
    if (this.chars.length < A.configCount) {
      const v = new Uint8Array(A.configCount * 2);
      v.set(this.chars);
      this.chars = v;
    }
    this.chars[c] = ended ? 1 + n : 128 + n;
    return n;
  }
}
