import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import {
  DatasetValidator,
  type DatasetStats,
  type RowOutcome,
  type ValidateDatasetOptions,
} from "./DatasetValidator.js";
import type { DatasetCode, DatasetIssue } from "./DatasetIssue.js";
import { readRows } from "./readRows.js";

/** What `toolgram validate-dataset --receipt` writes: enough to tie a runtime grammar to its training data. */
export interface DatasetReceipt {
  template: string;
  rows: number;
  toolsDeclared: number;
  toolCalls: number;
  /** Share of call turns with more than one call. */
  parallelCallShare: number;
  /** Share of assistant turns without a call. */
  noCallShare: number;
  issueCounts: Partial<Record<DatasetCode, number>>;
  /** `compileTools(tools).schemaHash` of the declared tools ("multi:<hash>" when rows declare different sets). */
  toolsSchemaHash: string;
  toolSets: number;
  /** sha256 of the file (absent for in-memory rows). */
  fileSha256?: string;
}

/** What {@link validateDataset} found: statistics, errors and warnings, counts per code, and a receipt of the run. */
export interface DatasetReport {
  stats: DatasetStats;
  errors: number;
  warnings: number;
  counts: Partial<Record<DatasetCode, number>>;
  /** Row-level issues, the first `maxIssues` of them (counts are complete). */
  issues: DatasetIssue[];
  /** Dataset-level warnings. */
  datasetIssues: DatasetIssue[];
  receipt: DatasetReceipt;
}

/**
 * Options of {@link validateDataset} and {@link validateDatasetFile}: the validator's options, a cap on the issues
 * kept, and a callback per row.
 */
export interface ValidateOptions extends ValidateDatasetOptions {
  /** Row-level issues kept in the report (the counts cover all). @defaultValue 1000 */
  maxIssues?: number;
  /** Called for every row with its outcome (fix mode and converters use it). */
  onRow?: (outcome: RowOutcome, text: string | undefined, value: unknown) => void;
}

function report(
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

function collector(max: number) {
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

/** Validates a JSONL file (or a JSON array file), streaming it; memory stays flat in file size. */
export async function validateDatasetFile(
  path: string,
  options: ValidateOptions & { onProgress?: (bytes: number) => void } = {},
): Promise<DatasetReport> {
  const v = new DatasetValidator(options);
  const c = collector(options.maxIssues ?? 1000);
  for await (const { line, text } of readRows(path, options.onProgress)) {
    const o = v.addText(text, line);
    c.take(o);
    if (options.onRow) {
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch {
        value = undefined;
      }
      options.onRow(o, text, value);
    }
  }
  return report(v, c.issues, c.totals, options.template ?? "qwen3", await sha256File(path));
}

export async function sha256File(path: string): Promise<string> {
  const h = createHash("sha256");
  for await (const chunk of createReadStream(path)) h.update(chunk as Buffer);
  return h.digest("hex");
}
