import { Deadline, type CompileBudget } from "../Deadline.js";
import type { Grammar } from "../grammar/Grammar.js";
import { TOKEN_ATOM, type Vocabulary } from "../vocab/Vocabulary.js";
import { Automaton, type AutomatonOptions } from "./Automaton.js";
import { MaskTable } from "./MaskTable.js";
import { TokenMatcher } from "./TokenMatcher.js";

/** Options of `compiled.createMatcher(vocab, options)`: how special tokens may spell markers, and a bound on states. */
export interface MatcherOptions {
  /**
   * `"token-or-text"`: a `token` node accepts its special token or the same text spelled by ordinary tokens.
   * `"token-only"`: only the special token. @defaultValue "token-or-text"
   */
  specialTokens?: "token-or-text" | "token-only";
  /** Cap on automaton states (code LIMIT_AUTOMATON_SIZE). */
  maxStates?: number;
}

const automata = new WeakMap<Grammar, Map<string, Automaton>>();
const tables = new WeakMap<Automaton, WeakMap<Vocabulary, MaskTable>>();

/** The automaton of a grammar, built once per grammar object and option set. */
export function compileAutomaton(grammar: Grammar, opts: AutomatonOptions = {}, budget?: CompileBudget): Automaton {
  let m = automata.get(grammar);
  if (!m) automata.set(grammar, (m = new Map()));
  const atoms =
    opts.specialTokens === "token-only" && opts.availableAtoms ? [...opts.availableAtoms].sort() : undefined;
  const key = `${opts.specialTokens ?? "token-or-text"}/${opts.maxStates ?? ""}/${atoms ? JSON.stringify(atoms) : ""}`;
  let a = m.get(key);
  if (!a) m.set(key, (a = new Automaton(grammar, opts, budget ? Deadline.fromLimits(budget) : undefined)));
  return a;
}

/** The shared mask table of an automaton for a vocabulary (masks cached per automaton configuration). */
export function maskTableFor(automaton: Automaton, vocab: Vocabulary): MaskTable {
  let m = tables.get(automaton);
  if (!m) tables.set(automaton, (m = new WeakMap()));
  let t = m.get(vocab);
  if (!t) m.set(vocab, (t = new MaskTable(automaton, vocab)));
  return t;
}

/**
 * A matcher for one decoding sequence. Cheap after the first call for a (grammar, vocabulary) pair: the automaton
 * and mask cache are shared. `budget` bounds building the automaton (LIMIT_COMPILE_STEPS / LIMIT_COMPILE_TIME).
 */
export function createMatcher(
  grammar: Grammar,
  vocab: Vocabulary,
  opts: MatcherOptions = {},
  budget?: CompileBudget,
): TokenMatcher {
  // with "token-only", a `token` node the vocabulary lacks cannot be emitted: the automaton must know it, or a mask
  // could lead into a place only that token leaves
  const availableAtoms = opts.specialTokens === "token-only" ? specialTexts(vocab) : undefined;
  return new TokenMatcher(maskTableFor(compileAutomaton(grammar, { ...opts, availableAtoms }, budget), vocab));
}

const specialTextCache = new WeakMap<Vocabulary, ReadonlySet<string>>();
function specialTexts(vocab: Vocabulary): ReadonlySet<string> {
  let s = specialTextCache.get(vocab);
  if (!s) {
    const texts = new Set<string>();
    for (const [id, text] of vocab.atoms) if (vocab.kind[id] === TOKEN_ATOM) texts.add(text);
    specialTextCache.set(vocab, (s = texts));
  }
  return s;
}
