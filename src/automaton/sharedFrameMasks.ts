import type { Vocabulary } from "../vocab/Vocabulary.js";
import type { BoundedMap } from "../util/BoundedMap.js";

/**
 * Local masks of self-contained frames (string contents, keyed rules: see Nfa.frameKeyOf), shared by every grammar
 * over one vocabulary, the least recently used dropped first above the cap (most are a few ids; a string's is a
 * bitset of 19 KB for Qwen3).
 */
export const sharedLocals = new WeakMap<Vocabulary, BoundedMap<string, LocalMask>>();
export const SHARED_LOCALS_CAP = 1024;
/**
 * Keys of string-like self-contained frames (see MaskTable.warmSharedFrames) whose every R-state's local mask was
 * computed for a vocabulary, so that a later grammar does not look through their R-states again.
 */
export const framesWarmedWhole = new WeakMap<Vocabulary, BoundedMap<string, true>>();
/**
 * What a frame decides alone below one trie node, from its start: a walk that enters a keyed frame (see
 * `MaskWalk.enterFrame`) at a node with a large subtree takes this instead of walking the subtree, and walks from the
 * caller only below the exits. Keyed by the frame start's shared key and the node, per vocabulary, for every grammar
 * of the process.
 */
export interface SubtreeMask {
  /** Tokens of the subtree (below the node) the frame reads whole. */
  ids: Int32Array;
  /** Nodes of the subtree (deeper than the node's children) reached with the frame complete: their subtrees continue in the caller. */
  exits: Int32Array;
  /** The frame is complete at the node itself: the whole subtree may continue in the caller. */
  selfExit: boolean;
}
export const sharedSubtrees = new WeakMap<Vocabulary, BoundedMap<string, SubtreeMask>>();
/** Bounds on the shared subtree masks of one vocabulary (a process serving many schemas), least recently used dropped first. */
export const SHARED_SUBTREES_CAP = 4096;
export const SHARED_SUBTREES_BYTES = 16 << 20;
/** A subtree mask's bytes, as counted against SHARED_SUBTREES_BYTES and the table's cache bytes. */
export const subtreeBytes = (sub: SubtreeMask): number => (sub.ids.length + sub.exits.length) * 4 + 64;

/** What the top frame decides alone: tokens consumed inside it, and trie nodes where it may return to its caller. */
export interface LocalMask {
  /**
   * The tokens, as a bitset when there are many (inside a string: most of the vocabulary), else as their ids (after
   * a key, in a number: a few): exactly one of `bits` and `ids` is set.
   */
  bits?: Uint32Array;
  ids?: Int32Array;
  /** How many tokens: a mask composed from this part starts its count here instead of counting the bitset afterwards. */
  count: number;
  /** Trie nodes reached with the frame complete: their subtrees continue in the caller. */
  exits: Int32Array;
  /**
   * The same nodes as a bit per trie node, instead of `exits`, when there are many (free text may end anywhere, so
   * almost every node is an exit): the caller then visits only the exits whose byte it can read (`nodesByByte`).
   */
  exitBits?: Uint32Array;
  /** The frame is complete before any byte: every token may continue in the caller. */
  rootExit: boolean;
}
