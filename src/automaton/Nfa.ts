import type { Deadline } from "../Deadline.js";
import type { RepeatCopies } from "./RepeatCopies.js";

/**
 * A byte-level NFA with call edges, in compressed-row form (edges of state q are [xStart[q], xStart[q+1])). Rules
 * that are recursive (and the root) are "frame rules": a reference to one is a call edge (the matcher pushes a
 * frame); every other reference is inlined. `token` nodes are atom edges.
 *
 * Only productive parts of the grammar are built (a sub-expression that derives no finite text is left out), so
 * every state lies on a path from its rule's start to its end: a mask never lets a token lead into a dead end.
 */
export interface Nfa {
  stateCount: number;
  byteStart: Int32Array;
  byteLo: Uint8Array;
  byteHi: Uint8Array;
  byteTo: Int32Array;
  epsStart: Int32Array;
  epsTo: Int32Array;
  /** Call edges: call frame rule callRule[k], continue at callTo[k] when it returns. */
  callStart: Int32Array;
  callRule: Int32Array;
  callTo: Int32Array;
  atomStart: Int32Array;
  atomIdx: Int32Array;
  atomTo: Int32Array;
  frameNames: string[];
  /** Start state per frame rule, or -1 for a rule that derives nothing. */
  frameStart: number[];
  frameEnd: number[];
  /** 1 for frame end states. */
  isEnd: Uint8Array;
  /** Texts of the grammar's `token` nodes, indexed by atom index. */
  atomTexts: string[];
  /**
   * Per frame: a key naming its structure when the frame is self-contained (a synthesized frame with no calls or
   * atoms), so that masks computed inside it can be shared by every grammar with the same frame; else undefined.
   */
  frameKey: (string | undefined)[];
  /**
   * The key naming frame `f`'s structure for sharing masks across grammars: `frameKey[f]`, or, for a rule frame (or
   * a string-like frame whose loop refers to rules) whose rules reach no special token, a key of everything it can
   * call: the rules its references reach, with their bodies, which of them are frames, and whether the grammar is
   * built lazily. Two grammars with the same such key build the same frames (state for state, edge for edge), so
   * that frame's masks are the same in both (the any-JSON-value rule of a schema that allows any value, with its
   * objects, arrays and strings, is the same in every schema). Computed on first ask; undefined when there is none.
   */
  frameKeyOf(f: number): string | undefined;
  /** Closure keys (frameKeyOf) made after the construction, when a mask first asked for them (see EAGER_CLOSURE_KEYS). */
  closureKeysLate: number;
  /** Per state: its frame, and its index in a canonical (breadth-first) numbering of that frame's states. */
  stateFrame: Int32Array;
  stateCanon: Int32Array;
  /** The copies of its bounded repetitions built alike (see Automaton.countedKey). */
  repeatCopies: RepeatCopies;
  /**
   * Builds frame `f` if it is a lazy frame not built yet (see `LAZY_ITEM_STATES`): its states and edges are appended
   * (the typed arrays above may be replaced by longer ones: read them afresh afterwards). Returns its start state.
   */
  ensureFrame(f: number): number;
  /** Lazy frames whose states and edges were copied from a frame of the same structure built before (see `builtFrames`). */
  framesCopied: number;
  /** States numbered by a walk of their frame (a copied frame takes the numbering recorded with its build instead). */
  statesNumbered: number;
  /**
   * Parts of the grammar are built when a decoding first reaches them: a large grammar (a large tool set), or a
   * deferred one until it is built whole (see `deferred`).
   */
  lazy: boolean;
  /**
   * A grammar small enough to be built whole, with a large choice among alternatives next to a special token (the
   * tools of a turn): built lazily for its first mask (the envelope and the trie of the tools' names, not their
   * arguments), then whole where a decoding first enters one of the alternatives' frames (a tool's name chosen), or
   * any frame after `firstMaskDone`, in one step rather than a tool's part in each of the first steps of each tool's
   * first call. False once built whole.
   */
  deferred: boolean;
  /** Called by the mask table once the first mask (and its prefetch) is computed: see `deferred`. */
  firstMaskDone(): void;
  /**
   * Set by the mask table while it prefetches: a deferred grammar then throws DEFERRED_HOLD where it would be built
   * whole, so that the prefetch stops there and leaves the build to the step that needs it (a tool's name).
   */
  holdDeferred: boolean;
  /** Builds every lazy frame, so that analyses over all states (completion distances) see the whole grammar. */
  buildAll(): void;
}

export interface NfaOptions {
  specialTokens: "token-or-text" | "token-only";
  maxStates: number;
  /**
   * With "token-only": the `token` texts the vocabulary has as special tokens. A `token` node missing from it derives
   * nothing, so that no mask leads into a place only that token could leave. Undefined: all are available.
   */
  availableAtoms?: ReadonlySet<string>;
  /** The budget of the construction (one step per state built, and the grammar analyses' steps). */
  deadline?: Deadline;
}
