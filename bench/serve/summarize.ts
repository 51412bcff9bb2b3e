import type { EndpointId } from "./endpoints.js";
import type { Verdict } from "./judge.js";
import type { RequestKind } from "./requestKinds.js";
import type { StreamOutcome } from "./streamOne.js";

/** One request of the comparison and what came of it. */
export interface RequestRecord {
  readonly family: string;
  readonly toolSet: string;
  readonly kind: RequestKind;
  readonly seed: number;
  readonly maxTokens: number;
  readonly endpoint: EndpointId;
  readonly outcome: StreamOutcome;
  readonly verdict: Verdict;
}

/** Figures of a group of requests (one endpoint × kind, or endpoint × tool set). */
export interface GroupSummary {
  readonly n: number;
  readonly errors: number;
  /** Share of responses with at least one call. */
  readonly withCall: number;
  /** Share of the responses with calls whose every call parses and validates. */
  readonly callsValidOfWithCall: number | null;
  /** Share of responses that are what was asked: no error, every call valid, the call count and names the kind asks. */
  readonly conforming: number;
  readonly finishReasons: Record<string, number>;
  readonly ttftMsP50: number | null;
  readonly latencyMsP50: number | null;
  readonly decodeTokensPerSecondP50: number | null;
  readonly promptTokensP50: number | null;
  /** The most frequent problem, with its count. */
  readonly topProblem?: string;
}

const median = (xs: number[]): number | null => {
  if (xs.length === 0) return null;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor((s.length - 1) / 2)];
};

/** Whether a response is what was asked (see GroupSummary.conforming). */
export const conforms = (r: RequestRecord): boolean =>
  r.outcome.error === undefined && r.verdict.callsValid && r.verdict.obeysChoice;

function problemKey(problem: string): string {
  // Group problems by kind, not by the text of each argument.
  // An error answer keeps its message (HTTP 400 alone would say nothing), the rest its kind.
  if (problem.startsWith("HTTP ")) return problem.replace(/\d[\d,]* tokens/g, "N tokens").slice(0, 110);
  return problem.replace(/:.*$/s, "").slice(0, 80);
}

/** Summarizes a group of records. */
export function summarize(records: RequestRecord[]): GroupSummary {
  const ok = records.filter((r) => r.outcome.error === undefined);
  const withCall = records.filter((r) => r.verdict.withCall);
  const finishReasons: Record<string, number> = {};
  for (const r of ok) {
    const f = r.outcome.finishReason ?? "none";
    finishReasons[f] = (finishReasons[f] ?? 0) + 1;
  }
  const problems = new Map<string, number>();
  for (const r of records) {
    const p = r.verdict.problem;
    if (p !== undefined) problems.set(problemKey(p), (problems.get(problemKey(p)) ?? 0) + 1);
  }
  const top = [...problems].sort((a, b) => b[1] - a[1])[0];
  const rates = ok.flatMap((r) => {
    const { completionTokens: t, decodeMs: ms } = r.outcome;
    return t !== undefined && t > 1 && ms !== undefined && ms > 0 ? [((t - 1) * 1000) / ms] : [];
  });
  const share = (k: number, of: number): number => (of === 0 ? 0 : k / of);
  return {
    n: records.length,
    errors: records.length - ok.length,
    withCall: share(withCall.length, records.length),
    callsValidOfWithCall:
      withCall.length === 0 ? null : share(withCall.filter((r) => r.verdict.callsValid).length, withCall.length),
    conforming: share(records.filter(conforms).length, records.length),
    finishReasons,
    ttftMsP50: median(ok.flatMap((r) => (r.outcome.ttftMs === undefined ? [] : [r.outcome.ttftMs]))),
    latencyMsP50: median(ok.flatMap((r) => (r.outcome.totalMs === undefined ? [] : [r.outcome.totalMs]))),
    decodeTokensPerSecondP50: median(rates),
    promptTokensP50: median(ok.flatMap((r) => (r.outcome.promptTokens === undefined ? [] : [r.outcome.promptTokens]))),
    ...(top === undefined ? {} : { topProblem: `${top[0]} (${top[1]})` }),
  };
}

/** Groups records by a key, keeping the order in which keys first appear. */
export function groupBy<K extends string>(
  records: RequestRecord[],
  key: (r: RequestRecord) => K,
): Map<K, RequestRecord[]> {
  const groups = new Map<K, RequestRecord[]>();
  for (const r of records) {
    const k = key(r);
    const g = groups.get(k);
    if (g) g.push(r);
    else groups.set(k, [r]);
  }
  return groups;
}
