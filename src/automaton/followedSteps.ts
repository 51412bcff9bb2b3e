import { TOKEN_TEXT, type Vocabulary } from "../vocab/Vocabulary.js";
import type { Automaton } from "./Automaton.js";
import { nestingRepeats } from "./nestingRepeats.js";
import { singleByteTokens } from "./trieByByte.js";

/** One-byte steps (a wide mask), or text tokens longest first (a narrow one). */
export type FollowedSteps = { bytes: number[]; nesting: number } | { tokens: number[] };

/** What `followedSteps` reads of a warm-up's host (`WarmHost`, named apart so that neither file imports the other). */
interface StepsHost {
  readonly automaton: Automaton;
  readonly vocab: Vocabulary;
  sparseIds(c: number): Int32Array | undefined;
}

/**
 * What a warm-up follows after configuration `c`, as the first mask's prefetch does: a narrow mask (at most `fanout`
 * tokens) by each of its text tokens, longest first (a model writes the longest); a wide one (or one left unknown,
 * `wide`) by its one-byte steps, one per R-state they lead to inside one frame, which may not nest deeper than
 * `nesting`. The warm-ups (`MaskWarmer`, `AheadWarmer`) differ only in the cost they give each.
 */
export function followedSteps(host: StepsHost, c: number, wide: boolean, fanout: number): FollowedSteps {
  const A = host.automaton;
  const { offsets, kind } = host.vocab;
  const ids = wide ? undefined : host.sparseIds(c);
  if (ids === undefined || ids.length > fanout) {
    const one = singleByteTokens(host.vocab);
    const f = A.frameTopOf(c);
    if (f >= 0) A.rsRowOf(f);
    const row = A.rsTable;
    const targets = new Set<number>();
    const bytes: number[] = [];
    for (let b = 0; b < 128; b++) {
      if (one[b] < 0) continue;
      if (f >= 0) {
        const u = row[f * 256 + b];
        if (u < 0 || targets.has(u)) continue;
        targets.add(u);
      }
      bytes.push(b);
    }
    return { bytes, nesting: nestingRepeats(A, c) };
  }
  const tokens: number[] = [];
  for (let k = 0; k < ids.length; k++) if (kind[ids[k]] === TOKEN_TEXT) tokens.push(ids[k]);
  tokens.sort((a, b) => offsets[b + 1] - offsets[b] - (offsets[a + 1] - offsets[a]) || a - b);
  return { tokens };
}
