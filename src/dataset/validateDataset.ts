import {
  DatasetValidator,
  type DatasetStats,
  type RowOutcome,
  type ValidateDatasetOptions,
} from "./DatasetValidator.js";
import type { DatasetCode, DatasetIssue } from "./DatasetIssue.js";

/** What `toolgram validate-dataset --receipt` writes: enough to tie a runtime grammar to its training data. */
export interface DatasetReceipt {
  /** The chat template the data is meant for: the `template` option as given. @defaultValue "qwen3" */
  template: string;
  /** Rows read, including the ones that are not valid JSON. */
  rows: number;
  /** Distinct tool names declared over all rows. */
  toolsDeclared: number;
  /** Calls read over all assistant turns (readable ones; unreadable calls are issues, not counted). */
  toolCalls: number;
  /** Share of call turns with more than one call. */
  parallelCallShare: number;
  /** Share of assistant turns without a call. */
  noCallShare: number;
  /** Issues per code over the whole dataset, row and dataset level (the same object as the report's `counts`). */
  issueCounts: Partial<Record<DatasetCode, number>>;
  /** `compileTools(tools).schemaHash` of the declared tools ("multi:<hash>" when rows declare different sets). */
  toolsSchemaHash: string;
  /**
   * Distinct tool sets declared by the rows that could be read (1 when every row declares the same tools; rows
   * declaring none count as one more set, the empty one).
   */
  toolSets: number;
  /** sha256 of the file (absent for in-memory rows). */
  fileSha256?: string;
}

/** What {@link validateDataset} found: statistics, errors and warnings, counts per code, and a receipt of the run. */
export interface DatasetReport {
  /** Row, turn and call counts of the whole dataset. */
  stats: DatasetStats;
  /** Row-level issues of severity `"error"` (all of them, not only the ones kept in `issues`). */
  errors: number;
  /** Row-level warnings plus the dataset-level ones. */
  warnings: number;
  /** Issues per code, row and dataset level, over the whole dataset. */
  counts: Partial<Record<DatasetCode, number>>;
  /** Row-level issues, the first `maxIssues` of them (counts are complete). */
  issues: DatasetIssue[];
  /** Dataset-level warnings. */
  datasetIssues: DatasetIssue[];
  /** What `--receipt` writes: the template, counts, shares and the tools' schema hash. */
  receipt: DatasetReceipt;
}

/**
 * Options of {@link validateDataset} and {@link validateDatasetFile}: the validator's options, a cap on the issues
 * kept, and a callback per row.
 */
export interface ValidateOptions extends ValidateDatasetOptions {
  /** Row-level issues kept in the report (the counts cover all). @defaultValue 1000 */
  maxIssues?: number;
  /**
   * Called for every row with its outcome, the row's text (file rows only) and its parsed value. Internal: the CLI's
   * fix mode and converters read the row's parsed conversation through it, a shape that is not part of the API.
   * @internal
   */
  onRow?: (outcome: RowOutcome, text: string | undefined, value: unknown) => void;
}

/** The report of a finished validation (shared with the file reader, `validateDatasetFile`). */
export function report(
  v: DatasetValidator,
  issues: DatasetIssue[],
  totals: { errors: number; warnings: number },
  template: string,
  fileSha256?: string,
): DatasetReport {
  const datasetIssues = v.finish();
  const s = v.stats;
  return {
    stats: s,
    errors: totals.errors,
    warnings: totals.warnings + datasetIssues.length,
    counts: v.counts,
    issues,
    datasetIssues,
    receipt: {
      template,
      rows: s.rows,
      toolsDeclared: s.toolsDeclared,
      toolCalls: s.toolCalls,
      parallelCallShare: s.callTurns ? s.parallelTurns / s.callTurns : 0,
      noCallShare: s.assistantTurns ? s.noCallTurns / s.assistantTurns : 0,
      issueCounts: v.counts,
      toolsSchemaHash: v.toolsHash(),
      toolSets: v.toolSetCount(),
      ...(fileSha256 ? { fileSha256 } : {}),
    },
  };
}

/** Keeps the first `max` row issues and counts them all. */
export function collector(max: number) {
  const issues: DatasetIssue[] = [];
  const totals = { errors: 0, warnings: 0 };
  return {
    issues,
    totals,
    take(o: RowOutcome): void {
      for (const i of o.issues) {
        if (i.severity === "error") totals.errors++;
        else totals.warnings++;
        if (issues.length < max) issues.push(i);
      }
    },
  };
}

/**
 * Validates in-memory rows (parsed JSON values). Row numbers in issues are index + 1.
 * @example validateDataset(rows, { drift: "error" }).errors === 0
 */
export function validateDataset(rows: Iterable<unknown>, options: ValidateOptions = {}): DatasetReport {
  const v = new DatasetValidator(options);
  const c = collector(options.maxIssues ?? 1000);
  let n = 0;
  for (const row of rows) {
    const o = v.add(row, ++n);
    c.take(o);
    options.onRow?.(o, undefined, row);
  }
  return report(v, c.issues, c.totals, options.template ?? "qwen3");
}
