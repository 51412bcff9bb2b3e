/**
 * The ordinary tokens of a vocabulary as a byte trie, flattened in preorder into typed arrays so that a mask walk is
 * one forward loop: node i's subtree is i+1 .. next[i]-1, and a dead automaton state skips it whole (llguidance's
 * token-trie walk). Children are in byte order.
 */
export interface TokenTrie {
  /** Number of nodes (the root is implicit and not stored). */
  readonly nodeCount: number;
  /** The byte on the edge into node i. */
  readonly byte: Uint8Array;
  /** Depth of node i (1 for the root's children). */
  readonly depth: Uint16Array;
  /** Index just past node i's subtree. */
  readonly next: Int32Array;
  /** Tokens whose bytes end at node i are tokIds[tokBegin[i] .. tokBegin[i+1]). */
  readonly tokBegin: Int32Array;
  readonly tokIds: Int32Array;
  readonly maxDepth: number;
}

export function buildTokenTrie(bytes: Uint8Array, offsets: Int32Array, ids: readonly number[]): TokenTrie {
  const sorted = radixSortByBytes(bytes, offsets, Int32Array.from(ids));
  let total = 0;
  let maxDepth = 0;
  for (const id of ids) {
    const len = offsets[id + 1] - offsets[id];
    total += len;
    if (len > maxDepth) maxDepth = len;
  }
  // In sorted order, token k shares its first lcp(k-1, k) bytes with the previous token: only the rest are new nodes.
  const byte = new Uint8Array(total);
  const depth = new Uint16Array(total);
  const next = new Int32Array(total);
  const tokCount = new Int32Array(total + 1);
  const tokIds = new Int32Array(sorted.length);
  const path = new Int32Array(maxDepth + 1).fill(-1); // node index at each depth of the current path
  let n = 0;
  let prevStart = 0;
  let prevLen = 0;
  let t = 0;
  for (let j = 0; j < sorted.length; j++) {
    const id = sorted[j];
    const start = offsets[id];
    const len = offsets[id + 1] - start;
    let l = 0;
    const lim = Math.min(len, prevLen);
    while (l < lim && bytes[start + l] === bytes[prevStart + l]) l++;
    for (let d = l + 1; d <= prevLen; d++) {
      next[path[d]] = n;
      path[d] = -1;
    }
    for (let d = l + 1; d <= len; d++) {
      byte[n] = bytes[start + d - 1];
      depth[n] = d;
      path[d] = n;
      n++;
    }
    tokCount[path[len]]++;
    tokIds[t++] = id;
    prevStart = start;
    prevLen = len;
  }
  for (let d = 1; d <= prevLen; d++) next[path[d]] = n;
  const tokBegin = new Int32Array(n + 1);
  for (let i = 0; i < n; i++) tokBegin[i + 1] = tokBegin[i] + tokCount[i];
  return {
    nodeCount: n,
    byte: byte.slice(0, n),
    depth: depth.slice(0, n),
    next: next.slice(0, n),
    tokBegin,
    tokIds,
    maxDepth,
  };
}

/**
 * MSD radix sort of token ids by their bytes (a prefix first), with insertion sort for small ranges: linear in the
 * vocabulary's total length, where a comparison sort of 150k byte strings costs several times more.
 */
function radixSortByBytes(bytes: Uint8Array, offsets: Int32Array, ids: Int32Array): Int32Array {
  const tmp = new Int32Array(ids.length);
  const count = new Int32Array(258);
  const stack: number[] = [0, ids.length, 0]; // [lo, hi, depth]
  const keyAt = (id: number, d: number): number => (offsets[id] + d < offsets[id + 1] ? bytes[offsets[id] + d] + 1 : 0);
  while (stack.length) {
    const d = stack.pop()!;
    const hi = stack.pop()!;
    const lo = stack.pop()!;
    if (hi - lo < 24) {
      for (let i = lo + 1; i < hi; i++) {
        const x = ids[i];
        let j = i - 1;
        while (j >= lo && compareFrom(bytes, offsets, ids[j], x, d) > 0) {
          ids[j + 1] = ids[j];
          j--;
        }
        ids[j + 1] = x;
      }
      continue;
    }
    count.fill(0);
    for (let i = lo; i < hi; i++) count[keyAt(ids[i], d) + 1]++;
    for (let k = 1; k < 258; k++) count[k] += count[k - 1];
    for (let i = lo; i < hi; i++) tmp[lo + count[keyAt(ids[i], d)]++] = ids[i];
    ids.set(tmp.subarray(lo, hi), lo);
    // after the scatter, count[k] is the end of bucket k; bucket 0 (ended strings) needs no more sorting
    let start = lo + count[0];
    for (let k = 1; k < 257; k++) {
      const end = lo + count[k];
      if (end - start > 1) stack.push(start, end, d + 1);
      start = end;
    }
  }
  return ids;
}

function compareFrom(bytes: Uint8Array, offsets: Int32Array, a: number, b: number, d: number): number {
  const as = offsets[a];
  const bs = offsets[b];
  const al = offsets[a + 1] - as;
  const bl = offsets[b + 1] - bs;
  const n = Math.min(al, bl);
  for (let i = d; i < n; i++) {
    const x = bytes[as + i] - bytes[bs + i];
    if (x !== 0) return x;
  }
  return al - bl;
}
