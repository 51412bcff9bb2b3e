import type { CompiledGrammar } from "../CompiledGrammar.js";
import type { Metrics } from "./Metrics.js";

/** One request's mask times summarized: the first mask, and p50 / p99 / max over every mask (milliseconds). */
export interface MaskSummary {
  readonly count: number;
  readonly first: number;
  readonly p50: number;
  readonly p99: number;
  readonly max: number;
}

/** Nearest-rank percentiles of a request's mask times; undefined when it computed none. */
export function summarizeMasks(times: readonly number[]): MaskSummary | undefined {
  if (times.length === 0) return undefined;
  const sorted = [...times].sort((a, b) => a - b);
  const at = (q: number): number => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] as number;
  return { count: times.length, first: times[0] as number, p50: at(0.5), p99: at(0.99), max: at(1) };
}

/**
 * Observes a request's mask summary in /metrics, and writes the log line of a tool set's first generation (its compile
 * time, recorded by the grammar cache, and its first mask: the cold start a client of a new tool set waits through).
 */
export function recordMasks(
  metrics: Metrics,
  summary: MaskSummary,
  firstUse: { readonly grammar: CompiledGrammar; readonly compileMs: number } | undefined,
  log: ((line: string) => void) | undefined,
): void {
  for (const stat of ["p50", "p99", "max"] as const) metrics.requestMaskSeconds.observe({ stat }, summary[stat] / 1000);
  metrics.firstMaskSeconds.observe(summary.first / 1000);
  if (firstUse === undefined || log === undefined) return;
  const g = firstUse.grammar;
  const what = g.format === "json" ? "a JSON schema" : `${g.tools.length} tools (${g.format})`;
  log(
    `new grammar: ${what}, compiled in ${ms(firstUse.compileMs)} (${g.compileSteps} steps); first mask ${ms(summary.first)}, ` +
      `masks p50 ${ms(summary.p50)} p99 ${ms(summary.p99)} max ${ms(summary.max)} over ${summary.count}`,
  );
}

const ms = (x: number): string => `${x < 10 ? x.toFixed(2) : x.toFixed(0)} ms`;
