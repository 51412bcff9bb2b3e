import type { GExpr } from "../../grammar/Grammar.js";
import { alt, cls, isNothing, rep, seq } from "../../grammar/build.js";
import type { DigitTrie } from "./digitTrie.js";

const DIGIT = cls([0x30, 0x39]);

/** The trie as an expression (its size is linear in the trie's). */
export function renderTrie(t: DigitTrie): GExpr {
  if (t.kind === "free") return rep(DIGIT, t.min, t.max);
  return alt(...t.branches.map((b) => seq(cls([0x30 + b.lo, 0x30 + b.hi]), renderTrie(b.next))));
}

/**
 * The trie restricted to texts whose value is a multiple of k: each (trie node, residue so far) pair becomes a rule,
 * so the grammar has at most nodes x k rules (the caller caps k and the digit count). `addRule` registers a rule and
 * returns a reference to it. `end(r)` is what may follow a text whose value leaves residue r (by default: nothing
 * when r is 0, no text otherwise); a decimal `multipleOf` continues with the fraction digits there.
 */
export function renderTrieModulo(
  t: DigitTrie,
  k: number,
  name: string,
  addRule: (name: string, e: GExpr) => GExpr,
  end: (r: number) => GExpr = (r) => (r === 0 ? seq() : alt()),
): GExpr {
  const memo = new Map<string, GExpr>();
  const ids = new Map<DigitTrie, number>();
  const idOf = (n: DigitTrie): number => {
    let id = ids.get(n);
    if (id === undefined) ids.set(n, (id = ids.size));
    return id;
  };
  const step = (r: number, d: number): number => (r * 10 + d) % k;
  // digits grouped by the residue they lead to, as few classes as possible
  const byTarget = (r: number, lo: number, hi: number): Map<number, number[]> => {
    const m = new Map<number, number[]>();
    for (let d = lo; d <= hi; d++) {
      const r2 = step(r, d);
      const list = m.get(r2) ?? [];
      list.push(0x30 + d, 0x30 + d);
      m.set(r2, list);
    }
    return m;
  };
  const go = (n: DigitTrie, r: number, freeLeft?: number): GExpr => {
    if (n.kind === "free" && n.max === null) throw new RangeError("renderTrieModulo needs a bounded trie");
    // a free run of several lengths: one alternative per length (each length is its own chain of residues)
    if (n.kind === "free" && freeLeft === undefined && n.max !== n.min) {
      const lengths: GExpr[] = [];
      for (let len = n.min; len <= n.max!; len++) lengths.push(go({ kind: "free", min: len, max: len }, r, len));
      return alt(...lengths);
    }
    const left = n.kind === "free" ? (freeLeft ?? n.min) : -1;
    if (n.kind === "free" && left === 0) return end(r);
    const key = n.kind === "free" ? `f${left}-${r}` : `n${idOf(n)}-${r}`;
    const hit = memo.get(key);
    if (hit) return hit;
    const parts: GExpr[] = [];
    if (n.kind === "free") {
      for (const [r2, ranges] of byTarget(r, 0, 9)) parts.push(seq(cls(ranges), go(n, r2, left - 1)));
    } else {
      for (const b of n.branches) {
        for (const [r2, ranges] of byTarget(r, b.lo, b.hi)) parts.push(seq(cls(ranges), go(b.next, r2)));
      }
    }
    // the trie is acyclic, so bodies are built before they are named; dead and one-class bodies stay inline
    const body = alt(...parts);
    const out = isNothing(body) || body.type === "charClass" ? body : addRule(`${name}-${key}`, body);
    memo.set(key, out);
    return out;
  };
  return go(t, 0);
}
