import { TOKEN_TEXT, type Vocabulary } from "../vocab/Vocabulary.js";
import type { TokenTrie } from "../vocab/TokenTrie.js";

/** The trie's nodes below depth 1, grouped by the byte on their edge (CSR: byte b's nodes are ids[start[b]..start[b+1])). */
export interface NodesByByte {
  start: Int32Array;
  ids: Int32Array;
}
const nodesByByteOf = new WeakMap<TokenTrie, NodesByByte>();
export function nodesByByte(trie: TokenTrie): NodesByByte {
  let r = nodesByByteOf.get(trie);
  if (r) return r;
  const { byte, depth, nodeCount } = trie;
  const start = new Int32Array(257);
  for (let i = 0; i < nodeCount; i++) if (depth[i] > 1) start[byte[i] + 1]++;
  for (let b = 0; b < 256; b++) start[b + 1] += start[b];
  const at = start.slice(0, 256);
  const ids = new Int32Array(start[256]);
  for (let i = 0; i < nodeCount; i++) if (depth[i] > 1) ids[at[byte[i]]++] = i;
  nodesByByteOf.set(trie, (r = { start, ids }));
  return r;
}

/** Per byte, the trie's node of the one-byte path (a child of the root), or -1. */
const rootChildrenOf = new WeakMap<TokenTrie, Int32Array>();
export function rootChildren(trie: TokenTrie): Int32Array {
  let r = rootChildrenOf.get(trie);
  if (r) return r;
  r = new Int32Array(256).fill(-1);
  for (let i = 0; i < trie.nodeCount; i = trie.next[i]) r[trie.byte[i]] = i;
  rootChildrenOf.set(trie, r);
  return r;
}

/** Per byte value, the ordinary token that is that byte alone, or -1. */
const singleByteOf = new WeakMap<Vocabulary, Int32Array>();
export function singleByteTokens(vocab: Vocabulary): Int32Array {
  let r = singleByteOf.get(vocab);
  if (r) return r;
  r = new Int32Array(256).fill(-1);
  // the tokens ending at the root's children (a node per byte), not a scan of the vocabulary
  const { kind } = vocab;
  const { tokBegin, tokIds } = vocab.trie;
  const child = rootChildren(vocab.trie);
  for (let b = 0; b < 256; b++) {
    const n = child[b];
    if (n < 0) continue;
    for (let k = tokBegin[n]; k < tokBegin[n + 1]; k++) if (kind[tokIds[k]] === TOKEN_TEXT) r[b] = tokIds[k];
  }
  singleByteOf.set(vocab, r);
  return r;
}
