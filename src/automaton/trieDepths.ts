import type { TokenTrie } from "../vocab/TokenTrie.js";

/** Per trie node, the depth of the deepest node of its subtree (the byte length of its longest token), per trie. */
const deepestOf = new WeakMap<TokenTrie, Uint16Array>();
export function deepestBelow(trie: TokenTrie): Uint16Array {
  let r = deepestOf.get(trie);
  if (r) return r;
  const { depth, next, nodeCount } = trie;
  r = new Uint16Array(nodeCount);
  // children come after their parent: from the last node back, each node's children are done before it
  for (let i = nodeCount - 1; i >= 0; i--) {
    let m = depth[i];
    for (let j = i + 1; j < next[i]; j = next[j]) if (r[j] > m) m = r[j];
    r[i] = m;
  }
  deepestOf.set(trie, r);
  return r;
}

/**
 * The trie's tokens of at most `bytes` bytes, as a bitset of `words` words, per trie and length (a length past the
 * longest token's is that one's: every token).
 */
const shortOf = new WeakMap<TokenTrie, Map<number, Uint32Array>>();
export function tokensUpTo(trie: TokenTrie, bytes: number, words: number): Uint32Array {
  const len = Math.min(bytes, trie.maxDepth);
  let byLen = shortOf.get(trie);
  if (!byLen) shortOf.set(trie, (byLen = new Map()));
  let r = byLen.get(len);
  if (r) return r;
  const { depth, tokBegin, tokIds, nodeCount } = trie;
  r = new Uint32Array(words);
  for (let i = 0; i < nodeCount; i++) {
    if (depth[i] > len) continue;
    for (let k = tokBegin[i]; k < tokBegin[i + 1]; k++) r[tokIds[k] >>> 5] |= 1 << (tokIds[k] & 31);
  }
  byLen.set(len, r);
  return r;
}
