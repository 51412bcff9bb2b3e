import type { Vocabulary } from "../vocab/Vocabulary.js";

/**
 * The memory a matcher on the mask worker shares with the event loop: a few control words, the duration of the last
 * mask, a text (the forced continuation, or an error), and the mask words. The event loop posts operations (several
 * may be in flight: tokens accepted ahead) and waits, with `Atomics.waitAsync`, until `ctrl[FLAG]` (the count of
 * operations answered) reaches the count it posted; the worker writes each answer and counts it.
 */
export interface MaskShared {
  readonly buffer: SharedArrayBuffer;
  readonly ctrl: Int32Array;
  readonly ms: Float64Array;
  readonly text: Uint8Array;
  readonly mask: Uint32Array;
}

/** Indices of `ctrl`. */
export const FLAG = 0;
/** 1: accepted (or the operation succeeded); 0: the token was refused; 2: an error, its JSON in `text`. */
export const STATUS = 1;
/** Bytes of `text` in use. */
export const TEXT_LENGTH = 2;
/** The matcher's output is complete (after the last operation). */
export const COMPLETED = 3;
/** The token budget narrowed the mask. */
export const NARROWED = 4;
/** Set by the event loop when the worker is gone: nothing more will be answered. */
export const LOST = 5;
/** Set by the worker when it refused a token accepted ahead (a broken invariant). */
export const REFUSED = 6;

const CTRL_BYTES = 32;
/** Room for the longest forced text (TokenMatcher's 4,096 bytes) and an error's JSON. */
const TEXT_BYTES = 8192;

/** A fresh shared block for `words` mask words. */
export function createMaskShared(words: number): MaskShared {
  return viewMaskShared(new SharedArrayBuffer(CTRL_BYTES + 8 + TEXT_BYTES + words * 4), words);
}

/** The views of a block made by createMaskShared (on the other thread). */
export function viewMaskShared(buffer: SharedArrayBuffer, words: number): MaskShared {
  return {
    buffer,
    ctrl: new Int32Array(buffer, 0, CTRL_BYTES / 4),
    ms: new Float64Array(buffer, CTRL_BYTES, 1),
    text: new Uint8Array(buffer, CTRL_BYTES + 8, TEXT_BYTES),
    mask: new Uint32Array(buffer, CTRL_BYTES + 8 + TEXT_BYTES, words),
  };
}

const encoder = new TextEncoder();

/** Writes `s` into `text` (cut at its size, on a character boundary) and its length into the control words. */
export function writeText(shared: MaskShared, s: string): void {
  const { written } = encoder.encodeInto(s, shared.text);
  shared.ctrl[TEXT_LENGTH] = written;
}

/** The text the other thread wrote. */
export function readText(shared: MaskShared): string {
  // TextDecoder does not read shared memory: copy first
  return new TextDecoder().decode(shared.text.slice(0, shared.ctrl[TEXT_LENGTH]));
}

/** A matcher's operations, sent from the event loop to the mask worker. */
export type MaskOp =
  | {
      readonly op: "grammar";
      readonly gid: number;
      readonly grammar: unknown;
      readonly specialTokens: "token-or-text" | "token-only";
      readonly maxStates: number | undefined;
      readonly budget: unknown;
    }
  | { readonly op: "drop"; readonly gid: number }
  | {
      readonly op: "open";
      readonly mid: number;
      readonly gid: number;
      readonly buffer: SharedArrayBuffer;
      readonly jumpForward: boolean;
    }
  /** `ahead`: the event loop has already counted the token as accepted (its mask or forced text allowed it). */
  | { readonly op: "accept"; readonly mid: number; readonly token: number; readonly ahead: boolean }
  | { readonly op: "mask"; readonly mid: number; readonly tokensLeft: number }
  | { readonly op: "close"; readonly mid: number };

/** The vocabulary as plain data for the worker (it builds its own `Vocabulary`, and its own trie, from it). */
export type VocabularyData = Pick<Vocabulary, "size" | "eosTokenIds" | "kind" | "bytes" | "offsets" | "atoms">;

/**
 * An engine's counters in shared memory, one Int32 each, read and written with Atomics: its generations running
 * (`GENERATIONS`, which bounds its mask workers' warm-up between masks to when their generation runs alone) and the
 * warm-up slices its mask workers gave (`WARM_SLICES`, a count for tests).
 */
export const GENERATIONS = 0;
export const WARM_SLICES = 1;

/** A new engine's counters ({@link GENERATIONS}, {@link WARM_SLICES}), all zero. */
export function createEngineCounters(): Int32Array {
  return new Int32Array(new SharedArrayBuffer(2 * Int32Array.BYTES_PER_ELEMENT));
}

/** What a mask worker starts with: the vocabulary, and optionally its engine's counters' buffer. */
export interface MaskWorkerData extends VocabularyData {
  readonly engine?: SharedArrayBuffer;
}
