import type { TokenTrie } from "../vocab/TokenTrie.js";

/**
 * Plain text: what a JSON string holds without a delimiter — UTF-8 characters of at least U+0020 but for `"` and `\`,
 * strictly encoded (no surrogates, no overlong forms), possibly ending inside a character. Most of a vocabulary is
 * plain (all but about 10,500 of Qwen3's 333,000 trie nodes lead only to plain tokens), and inside a string that reads
 * any text (an unanchored `pattern`: "any text, then the pattern") every plain token is allowed whatever the position,
 * so a mask there is the vocabulary's plain tokens plus a walk of the few trie nodes above a token that is not plain
 * (see MaskWalk.composePlain).
 *
 * The states of a strict UTF-8 reader of plain text: 0 between characters, 1–3 continuation bytes still to read, and
 * 4–7 the second byte of the lead bytes E0, ED, F0, F4, whose range is narrower.
 */
export const PLAIN_STATES = 8;

/** The plain reader's state after byte `b` in state `s`, or -1 where the text stops being plain. */
export function plainNext(s: number, b: number): number {
  switch (s) {
    case 0:
      if (b < 0x80) return b >= 0x20 && b !== 0x22 && b !== 0x5c ? 0 : -1;
      if (b < 0xc2) return -1;
      if (b < 0xe0) return 1;
      if (b === 0xe0) return 4;
      if (b === 0xed) return 5;
      if (b < 0xf0) return 2;
      if (b === 0xf0) return 6;
      if (b < 0xf4) return 3;
      return b === 0xf4 ? 7 : -1;
    case 4:
      return b >= 0xa0 && b <= 0xbf ? 1 : -1;
    case 5:
      return b >= 0x80 && b <= 0x9f ? 1 : -1;
    case 6:
      return b >= 0x90 && b <= 0xbf ? 2 : -1;
    case 7:
      return b >= 0x80 && b <= 0x8f ? 2 : -1;
    default:
      return (b & 0xc0) === 0x80 ? s - 1 : -1;
  }
}

/** plainNext as a table: `PLAIN_NEXT[s * 256 + b]`. */
export const PLAIN_NEXT: Int8Array = (() => {
  const t = new Int8Array(PLAIN_STATES * 256);
  for (let s = 0; s < PLAIN_STATES; s++) for (let b = 0; b < 256; b++) t[s * 256 + b] = plainNext(s, b);
  return t;
})();

/** A trie node whose path is not plain: walked, its tokens set. */
export const NOT_PLAIN = 0;
/** A node whose path is plain, with a node that is not below it: walked, its tokens (plain) not set. */
export const PLAIN_ABOVE = 1;
/** A node whose path and whole subtree are plain: skipped. */
export const PLAIN_BELOW = 2;

/**
 * Per trie: each node's mark (NOT_PLAIN, PLAIN_ABOVE, PLAIN_BELOW), the plain tokens as a bitset, and for a
 * PLAIN_BELOW node the next node in preorder past it and past the PLAIN_BELOW subtrees that follow it (a walk skips a
 * run of them at once: most of a node's children are plain below).
 */
export interface PlainTrie {
  mark: Uint8Array;
  bits: Uint32Array;
  skipTo: Int32Array;
  /** Nodes that are not PLAIN_BELOW: the most a walk of the others visits (Qwen3: 10,527 of 333,009). */
  walkNodes: number;
}

const plainOf = new WeakMap<TokenTrie, PlainTrie>();

/** The plain marks of `trie`'s nodes and its plain tokens (a bitset of `words` words), once per trie. */
export function plainTrie(trie: TokenTrie, words: number): PlainTrie {
  const known = plainOf.get(trie);
  if (known) return known;
  const { byte, depth, next, tokBegin, tokIds, nodeCount } = trie;
  const state = new Int8Array(nodeCount);
  const path = new Int32Array(trie.maxDepth + 1);
  // prefix counts of the nodes that are not plain, so that a subtree's count is a difference
  const notPlain = new Int32Array(nodeCount + 1);
  const bits = new Uint32Array(words);
  for (let i = 0; i < nodeCount; i++) {
    const d = depth[i];
    path[d] = i;
    const s = d === 1 ? 0 : state[path[d - 1]];
    const t = s < 0 ? -1 : PLAIN_NEXT[s * 256 + byte[i]];
    state[i] = t;
    notPlain[i + 1] = notPlain[i] + (t < 0 ? 1 : 0);
    if (t >= 0) for (let k = tokBegin[i]; k < tokBegin[i + 1]; k++) bits[tokIds[k] >>> 5] |= 1 << (tokIds[k] & 31);
  }
  const mark = new Uint8Array(nodeCount);
  for (let i = 0; i < nodeCount; i++) {
    if (state[i] < 0) mark[i] = NOT_PLAIN;
    else mark[i] = notPlain[next[i]] - notPlain[i + 1] > 0 ? PLAIN_ABOVE : PLAIN_BELOW;
  }
  const skipTo = new Int32Array(nodeCount);
  for (let i = nodeCount - 1; i >= 0; i--) {
    if (mark[i] !== PLAIN_BELOW) continue;
    const n = next[i];
    skipTo[i] = n < nodeCount && mark[n] === PLAIN_BELOW ? skipTo[n] : n;
  }
  let walkNodes = 0;
  for (let i = 0; i < nodeCount; i++) if (mark[i] !== PLAIN_BELOW) walkNodes++;
  const r = { mark, bits, skipTo, walkNodes };
  plainOf.set(trie, r);
  return r;
}
