import { type Automaton, DEAD } from "./Automaton.js";
import { PLAIN_NEXT, PLAIN_STATES } from "./plainText.js";

/**
 * Pairs of a configuration and a plain reader's state (see plainText) the search from one configuration looks at
 * before it gives up: an unanchored pattern's search has a few dozen (its partial matches, and the configurations
 * inside a character of several bytes).
 */
const SEARCH_PAIRS = 256;

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
    if (this.epoch !== A.tableEpoch) {
      this.epoch = A.tableEpoch;
      this.verdict = new Uint8Array(0);
    }
    if (this.verdict.length < A.configCount) {
      const v = new Uint8Array(Math.max(A.configCount * 2, 1024));
      v.set(this.verdict);
      this.verdict = v;
    }
    const known = this.verdict[c];
    if (known !== 0) return known === 1;
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
}
