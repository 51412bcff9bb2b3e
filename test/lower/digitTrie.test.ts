import { describe, expect, it } from "vitest";
import { naturalRangeTrie, type DigitTrie } from "../../src/lower/number/digitTrie.js";
import { renderTrieModulo } from "../../src/lower/number/renderTrie.js";
import { accepts } from "../../src/grammar/accepts.js";
import type { GExpr } from "../../src/grammar/Grammar.js";
import { ref } from "../../src/grammar/build.js";

function nodes(t: DigitTrie): number {
  return t.kind === "free" ? 1 : 1 + t.branches.reduce((n, b) => n + nodes(b.next), 0);
}

/** Every text the trie spells, by brute force over the digit classes (small tries only). */
function texts(t: DigitTrie): string[] {
  if (t.kind === "free") {
    const out: string[] = [];
    for (let n = t.min; n <= (t.max ?? t.min); n++)
      for (let v = 0; v < 10 ** n; v++) out.push(n === 0 ? "" : String(v).padStart(n, "0"));
    return out;
  }
  return t.branches.flatMap((b) =>
    Array.from({ length: b.hi - b.lo + 1 }, (_, d) => texts(b.next).map((s) => String(b.lo + d) + s)).flat(),
  );
}

describe("naturalRangeTrie", () => {
  it("gives every length strictly between the bounds' one branch", () => {
    // [2, 10^300]: [2-9], then [1-9] with 1..299 more digits, then the one 301-digit value
    const t = naturalRangeTrie(2n, 10n ** 300n)!;
    expect(t.kind).toBe("branch");
    if (t.kind !== "branch") return;
    expect(t.branches.map((b) => [b.lo, b.hi, b.next.kind === "free" ? [b.next.min, b.next.max] : "branch"])).toEqual([
      [2, 9, [0, 0]],
      [1, 9, [1, 299]],
      [1, 1, "branch"],
    ]);
    // linear in the digits of the bounds (a branch per length was quadratic: 300 branches of their own)
    expect(nodes(t)).toBeLessThanOrEqual(305);
  });

  it("merges whole first and last lengths into the middle run", () => {
    const t = naturalRangeTrie(1n, 10n ** 308n - 1n)!;
    expect(t).toEqual({ kind: "branch", branches: [{ lo: 1, hi: 9, next: { kind: "free", min: 0, max: 307 } }] });
  });

  it("spells exactly the canonical texts of the range", () => {
    for (const [lo, hi] of [
      [0n, 0n],
      [0n, 1234n],
      [7n, 7n],
      [5n, 10n],
      [9n, 1000n],
      [10n, 99n],
      [123n, 4567n],
      [100n, 9999n],
    ] as const) {
      const want = Array.from({ length: Number(hi - lo) + 1 }, (_, i) => String(lo + BigInt(i)));
      expect(texts(naturalRangeTrie(lo, hi)!).sort()).toEqual(want.sort());
    }
  });

  it("keeps multipleOf exact over a run of several lengths", () => {
    const rules = new Map<string, GExpr>();
    const addRule = (name: string, e: GExpr): GExpr => {
      rules.set(name, e);
      return ref(name);
    };
    const root = renderTrieModulo(naturalRangeTrie(1n, 99_999n)!, 7, "m", addRule);
    rules.set("root", root);
    const g = { rules: new Map([["root", root], ...[...rules].filter(([n]) => n !== "root")]), root: "root" };
    for (const v of [1, 7, 14, 49, 98, 700, 701, 7007, 99_995, 99_996, 99_999, 100_002]) {
      expect({ v, ok: accepts(g, String(v)) }).toEqual({ v, ok: v % 7 === 0 && v <= 99_999 });
    }
  });
});
