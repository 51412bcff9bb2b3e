/**
 * Canonical natural-number texts (`0|[1-9][0-9]*`) with a value in [lo, hi], as a trie of digit classes: the
 * standard digit-range decomposition (one branch per length, then per first differing digit). The trie form lets
 * the plain renderer print it directly and the `multipleOf` renderer walk it with a residue.
 */
export type DigitTrie =
  /** Between `min` and `max` more arbitrary digits (`max` null = min or more). */
  | { kind: "free"; min: number; max: number | null }
  /** One digit from [lo, hi], then `next`; any of the branches. */
  | { kind: "branch"; branches: { lo: number; hi: number; next: DigitTrie }[] };

const END: DigitTrie = { kind: "free", min: 0, max: 0 };

function free(n: number): DigitTrie {
  return n === 0 ? END : { kind: "free", min: n, max: n };
}

function branch(branches: { lo: number; hi: number; next: DigitTrie }[]): DigitTrie {
  return { kind: "branch", branches };
}

function allChar(s: string, c: string): boolean {
  for (let i = 0; i < s.length; i++) if (s[i] !== c) return false;
  return true;
}

/** Digit strings of lo's length (leading zeros included), between lo and hi (same length, lo <= hi). */
export function sameLength(lo: string, hi: string): DigitTrie {
  if (lo.length === 0) return END;
  const a = Number(lo[0]);
  const b = Number(hi[0]);
  if (a === b) return branch([{ lo: a, hi: a, next: sameLength(lo.slice(1), hi.slice(1)) }]);
  const restLo = lo.slice(1);
  const restHi = hi.slice(1);
  const lowZero = allChar(restLo, "0");
  const highNine = allChar(restHi, "9");
  const out: { lo: number; hi: number; next: DigitTrie }[] = [];
  if (!lowZero) out.push({ lo: a, hi: a, next: atLeast(restLo) });
  const s = lowZero ? a : a + 1;
  const e = highNine ? b : b - 1;
  if (s <= e) out.push({ lo: s, hi: e, next: free(restLo.length) });
  if (!highNine) out.push({ lo: b, hi: b, next: atMost(restHi) });
  return branch(out);
}

/** Digit strings of lo's length that are >= lo. */
function atLeast(lo: string): DigitTrie {
  if (allChar(lo, "0")) return free(lo.length);
  const a = Number(lo[0]);
  const out: { lo: number; hi: number; next: DigitTrie }[] = [{ lo: a, hi: a, next: atLeast(lo.slice(1)) }];
  if (a < 9) out.push({ lo: a + 1, hi: 9, next: free(lo.length - 1) });
  return branch(out);
}

/** Digit strings of hi's length that are <= hi. */
function atMost(hi: string): DigitTrie {
  if (allChar(hi, "9")) return free(hi.length);
  const b = Number(hi[0]);
  const out: { lo: number; hi: number; next: DigitTrie }[] = [];
  if (b > 0) out.push({ lo: 0, hi: b - 1, next: free(hi.length - 1) });
  out.push({ lo: b, hi: b, next: atMost(hi.slice(1)) });
  return branch(out);
}

/**
 * Canonical naturals in [lo, hi] (hi null = unbounded); null when the range is empty. Leading zeros are never
 * produced, so each value has exactly one text.
 */
export function naturalRangeTrie(lo: bigint, hi: bigint | null): DigitTrie | null {
  if (lo < 0n) lo = 0n;
  if (hi !== null && lo > hi) return null;
  const L = lo.toString();
  const H = hi === null ? null : hi.toString();
  const out: { lo: number; hi: number; next: DigitTrie }[] = [];
  const push = (t: DigitTrie): void => {
    if (t.kind === "branch") out.push(...t.branches);
  };
  if (H !== null && H.length === L.length) {
    push(sameLength(L, H));
    return branch(out);
  }
  push(sameLength(L, "9".repeat(L.length)));
  if (H === null) {
    out.push({ lo: 1, hi: 9, next: { kind: "free", min: L.length, max: null } });
    return branch(out);
  }
  // every length strictly between the bounds' is whole: one branch for all of them (a bound near Number.MAX_VALUE
  // has 309 digits, and a branch per length made the trie, and each grammar built from it, 300 times larger)
  if (H.length - 1 > L.length) out.push({ lo: 1, hi: 9, next: { kind: "free", min: L.length, max: H.length - 2 } });
  push(sameLength(`1${"0".repeat(H.length - 1)}`, H));
  return branch(mergeRuns(out));
}

/** Adjacent branches of the same digits followed by consecutive runs of free digits become one branch. */
function mergeRuns(bs: { lo: number; hi: number; next: DigitTrie }[]): { lo: number; hi: number; next: DigitTrie }[] {
  const out: { lo: number; hi: number; next: DigitTrie }[] = [];
  for (const b of bs) {
    const p = out[out.length - 1];
    if (
      p !== undefined &&
      p.lo === b.lo &&
      p.hi === b.hi &&
      p.next.kind === "free" &&
      b.next.kind === "free" &&
      p.next.max !== null &&
      p.next.max + 1 === b.next.min
    ) {
      out[out.length - 1] = { lo: p.lo, hi: p.hi, next: { kind: "free", min: p.next.min, max: b.next.max } };
    } else out.push(b);
  }
  return out;
}
