/**
 * The grammar IR: a closed set of expression kinds over Unicode code points, plus `token` for special tokens.
 * Lowering builds it from the schema IR; every emitter (GBNF, regex, JSON-schema union) and the automaton read it,
 * and nothing reads the schema IR after lowering.
 *
 * Invariants (checked by `validateGrammar`):
 * - `charClass.ranges` is a flat list of inclusive [lo, hi] code-point pairs, sorted, non-overlapping,
 *   non-adjacent, never empty, within 0..0x10FFFF and never containing a surrogate (U+D800..U+DFFF).
 * - `repeat`: 0 <= min, and max === null (unbounded) or min <= max.
 * - every `ref` names a rule of the grammar; rule names match /^[a-z][a-z0-9-]*$/ (valid GBNF names).
 * - `literal.text` is non-empty and contains no lone surrogate.
 *
 * The member interfaces are not exported (their names, `Literal`, `Seq`, `Token`…, are too generic for a package
 * root): code walking a grammar narrows by `type` (`Extract<GExpr, { type: "repeat" }>`).
 */
export type GExpr = Literal | CharClass | Seq | Alt | Repeat | Ref | Token | Counted;

/** Exactly this text. */
export interface Literal {
  type: "literal";
  text: string;
}

/** One code point from `ranges` ([lo0, hi0, lo1, hi1, ...], inclusive). */
export interface CharClass {
  type: "charClass";
  ranges: readonly number[];
}

/** Each item in order. An empty `items` is the empty string (epsilon). */
export interface Seq {
  type: "seq";
  items: GExpr[];
}

/** One of the items. An empty `items` matches nothing (the grammar's "never"). */
export interface Alt {
  type: "alt";
  items: GExpr[];
}

/** `item` repeated between `min` and `max` times (`max: null` = unbounded). */
export interface Repeat {
  type: "repeat";
  item: GExpr;
  min: number;
  max: number | null;
}

/** The rule named `rule`. */
export interface Ref {
  type: "ref";
  rule: string;
}

/**
 * A special token such as Qwen3's `<tool_call>`. `text` is its content. The automaton accepts the vocabulary's
 * special token with that content, and (unless `specialTokens: "token-only"`) the same text spelled by ordinary
 * tokens; text emitters print it as a literal (llama.cpp matches a GBNF literal against either).
 */
export interface Token {
  type: "token";
  text: string;
}

/**
 * The words of a small automaton whose length (in characters, each edge one) lies in [`min`, `max`]: a counter kept
 * beside the automaton's state. A length bound over a regular language is the product of the automaton with the
 * counter; as rules, a rule per (loop state, length): `format: uri` under `maxLength: 2048` would need about 235,000
 * rule alternatives, and a text grammar (GBNF) has no counter. So the token automaton builds this product's reachable
 * pairs itself, when a decoding first enters the node, and the text emitters refuse it (LIMIT_GRAMMAR_SIZE), naming
 * `path`.
 *
 * Every state can reach an accepting one (the automaton is trimmed); which (state, length) pairs can still end
 * within the bounds is derived from it (`countedLive`).
 */
export interface Counted {
  type: "counted";
  /** Per state: whether a word may end there, and its edges, each reading one character spelled by `label`. */
  states: readonly CountedState[];
  start: number;
  min: number;
  max: number;
  /** JSON Pointer of the schema the bound comes from, for the emitters' refusal. */
  path: string;
}

/** A state of a {@link Counted} automaton. */
export interface CountedState {
  accept: boolean;
  /**
   * `label` reads exactly `len` characters (≥ 1; a token-free expression, as spelled, which may reference counter-free
   * rules: the paths between two loop states); `to` is the next state's index.
   */
  edges: readonly { label: GExpr; len: number; to: number }[];
}

/**
 * The grammar IR behind every artifact: named rules over {@link GExpr} expressions, from `root`
 * (`compiled.grammar`).
 */
export interface Grammar {
  /** Rules in a deterministic order (the root first). */
  rules: Map<string, GExpr>;
  /** The name of the start rule (a key of `rules`). */
  root: string;
}

export const MAX_CODE_POINT = 0x10ffff;
export const SURROGATE_LO = 0xd800;
export const SURROGATE_HI = 0xdfff;
