import type { TokenTrie } from "../vocab/TokenTrie.js";
import { PLAIN_BELOW, PLAIN_NEXT, plainTrie } from "./plainText.js";

/** A character count past any bound asked for (a node whose path is not plain: never counted as plain). */
const NO_CHARS = 255;

/**
 * Per trie: each node's count of characters along its path where that path is plain text (see plainText; a
 * character's partial UTF-8 tail counts as a character, as a bounded string's copies count it: its lead byte enters
 * the copy), and the largest such count in its subtree. Both saturate at 255 (a path that is not plain: 255).
 */
export interface PlainChars {
  chars: Uint8Array;
  deepChars: Uint8Array;
}

const charsOf = new WeakMap<TokenTrie, PlainChars>();

/** The character counts of `trie`'s plain paths (see PlainChars), once per trie. */
export function plainChars(trie: TokenTrie): PlainChars {
  const known = charsOf.get(trie);
  if (known) return known;
  const { byte, depth, next, nodeCount } = trie;
  const state = new Int8Array(nodeCount);
  const path = new Int32Array(trie.maxDepth + 1);
  const chars = new Uint8Array(nodeCount);
  for (let i = 0; i < nodeCount; i++) {
    const d = depth[i];
    path[d] = i;
    const s = d === 1 ? 0 : state[path[d - 1]];
    const parentChars = d === 1 ? 0 : chars[path[d - 1]];
    const t = s < 0 ? -1 : PLAIN_NEXT[s * 256 + byte[i]];
    state[i] = t;
    // a byte read between characters starts one
    chars[i] =
      t < 0 || parentChars >= NO_CHARS ? NO_CHARS : s === 0 ? Math.min(parentChars + 1, NO_CHARS - 1) : parentChars;
  }
  const deepChars = new Uint8Array(nodeCount);
  // children come after their parent: from the last node back, each node's children are done before it
  for (let i = nodeCount - 1; i >= 0; i--) {
    let m = chars[i];
    for (let j = i + 1; j < next[i]; j = next[j]) if (deepChars[j] > m) m = deepChars[j];
    deepChars[i] = m;
  }
  const r = { chars, deepChars };
  charsOf.set(trie, r);
  return r;
}

/** See plainTokensUpTo. */
export interface PlainUpTo {
  /** The plain tokens of at most the count's characters. */
  bits: Uint32Array;
  /** The nodes a walk that skips the subtrees of only such tokens visits at most. */
  walkNodes: number;
}

const upToOf = new WeakMap<TokenTrie, Map<number, PlainUpTo>>();

/**
 * The plain tokens of at most `chars` characters of `trie` (a bitset of `words` words), and the most nodes a walk
 * that skips the subtrees holding only such tokens visits; once per trie and count.
 */
export function plainTokensUpTo(trie: TokenTrie, words: number, chars: number): PlainUpTo {
  let byCount = upToOf.get(trie);
  if (!byCount) upToOf.set(trie, (byCount = new Map()));
  const known = byCount.get(chars);
  if (known) return known;
  const { mark } = plainTrie(trie, words);
  const pc = plainChars(trie);
  const { next, tokBegin, tokIds, nodeCount } = trie;
  const bits = new Uint32Array(words);
  for (let i = 0; i < nodeCount; i++) {
    if (pc.chars[i] > chars) continue;
    for (let k = tokBegin[i]; k < tokBegin[i + 1]; k++) bits[tokIds[k] >>> 5] |= 1 << (tokIds[k] & 31);
  }
  let walkNodes = 0;
  for (let i = 0; i < nodeCount; ) {
    if (mark[i] === PLAIN_BELOW && pc.deepChars[i] <= chars) i = next[i];
    else {
      walkNodes++;
      i++;
    }
  }
  const r = { bits, walkNodes };
  byCount.set(chars, r);
  return r;
}
