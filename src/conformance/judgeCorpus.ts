import { readFileSync } from "node:fs";
import { brotliDecompressSync } from "node:zlib";
import { canonicalJson } from "../json.js";
import { judgeSchema, type InstanceTest, type SchemaCompiler } from "./judgeSchema.js";
import { Referee } from "./referee.js";
import type { SchemaCompileOptions } from "../options.js";

/** Schema-level outcome in the MaskBench method. */
export type SchemaOutcome = "passing" | "refused" | "valid-rejected" | "invalid-accepted" | "timeout" | "crash";

export interface CorpusRow {
  id: string;
  subset: string;
  schema: unknown;
  tests: InstanceTest[];
}

export interface CorpusResult {
  id: string;
  subset: string;
  outcome: SchemaOutcome;
  compileMs: number;
  /** Work steps of the compile (passing and rejected-instance schemas). */
  compileSteps?: number;
  errorCode?: string;
  errorMessage?: string;
  /** Tests whose label ajv contradicts (ajv, the referee, decides them). */
  relabeled?: number;
  /** Passing only with `propertyOrder: "any"` (declaration order rejected a valid instance written in another order). */
  anyOrder?: true;
}

const referee = new Referee();

/**
 * The corpus labels were produced by generating instances and judging them; a few contradict ajv (e.g. a "negative"
 * that only adds a property the schema allows). ajv is the referee: where it can judge the schema, its verdict wins.
 */
function refereed(schema: unknown, tests: InstanceTest[]): { tests: InstanceTest[]; relabeled: number } {
  let relabeled = 0;
  try {
    referee.validator(schema);
  } catch {
    return { tests, relabeled };
  }
  const out = tests.map((t) => {
    let valid: boolean;
    try {
      valid = referee.validText(schema, canonicalJson(t.data));
    } catch {
      return t;
    }
    if (valid === t.valid) return t;
    relabeled++;
    return { ...t, valid };
  });
  return { tests: out, relabeled };
}

/** The rows of a JSONSchemaBench `.jsonl` file, or of one compressed with Brotli (`.jsonl.br`). */
export function readCorpus(file: string): CorpusRow[] {
  return readCorpusLines(file).map((l) => JSON.parse(l) as CorpusRow);
}

/**
 * The rows of a corpus file as JSON texts, unparsed: parsing the whole corpus (48 MB) costs seconds, so a subsample
 * picks its lines first.
 */
export function readCorpusLines(file: string): string[] {
  const bytes = readFileSync(file);
  return (file.endsWith(".br") ? brotliDecompressSync(bytes) : bytes)
    .toString("utf8")
    .split("\n")
    .filter((l) => l.trim());
}

/**
 * The step budget of a conformance compile: a third of the default `limits.maxCompileSteps`. Over the whole
 * JSONSchemaBench corpus every passing schema but one compiles in under 5 million steps; that one (Handwritten
 * `allany16`, a product of nine negated pattern sets) needed 24 million and ten minutes on a loaded two-core machine.
 * The smaller budget keeps the whole corpus within the long tier; a schema past it is refused (LIMIT_COMPILE_STEPS).
 */
const CONFORMANCE_STEP_BUDGET = 10_000_000;

/**
 * Options of every conformance run: the defaults (strict: refuse what cannot be enforced exactly), except that unknown
 * keywords and format names are annotations, as the spec and ajv (the referee) read them; real-world schemas carry
 * many (`javaType`, `links`, `readonly`...). The clock is off: the compile budget is the deterministic
 * `limits.maxCompileSteps` (CONFORMANCE_STEP_BUDGET), so a verdict is the same on an idle and on a loaded machine.
 */
export const CONFORMANCE_OPTIONS = Object.freeze({
  unknownKeywords: "ignore" as const,
  limits: Object.freeze({ maxCompileMs: Number.POSITIVE_INFINITY, maxCompileSteps: CONFORMANCE_STEP_BUDGET }),
});

/**
 * Judges one JSONSchemaBench row: "passing" = compiled and every test right (no tests: compiled). A schema that
 * rejects a valid instance in declaration order is judged again with `propertyOrder: "any"` (JSON mode's exact
 * reading of an object; the instances write keys in their own order) and counts as passing, marked `anyOrder`, when
 * that run is right on every test.
 */
export function judgeRow(compile: SchemaCompiler, row: CorpusRow): CorpusResult {
  const { tests, relabeled } = refereed(row.schema, row.tests ?? []);
  const declared = judgeOnce(compile, row, tests, CONFORMANCE_OPTIONS);
  if (declared.outcome !== "valid-rejected") return { ...declared, relabeled };
  const any = judgeOnce(compile, row, tests, { ...CONFORMANCE_OPTIONS, propertyOrder: "any" });
  if (any.outcome === "passing") return { ...any, relabeled, anyOrder: true };
  // an invalid instance accepted in any order is reported as such: it must stay at zero whichever order is used
  return { ...(any.outcome === "invalid-accepted" || any.outcome === "crash" ? any : declared), relabeled };
}

function judgeOnce(
  compile: SchemaCompiler,
  row: CorpusRow,
  tests: InstanceTest[],
  options: SchemaCompileOptions,
): CorpusResult {
  const j = judgeSchema(compile, row.schema, tests, options);
  let outcome: SchemaOutcome;
  if (j.errorCode === "CRASH" || j.verdicts.includes("crash")) outcome = "crash";
  else if (j.errorCode === "LIMIT_COMPILE_TIME") outcome = "timeout";
  else if (j.errorCode) outcome = "refused";
  else if (j.verdicts.includes("false-positive")) outcome = "invalid-accepted";
  else if (j.verdicts.includes("false-negative")) outcome = "valid-rejected";
  else outcome = "passing";
  return {
    id: row.id,
    subset: row.subset,
    outcome,
    compileMs: j.compileMs,
    compileSteps: j.compileSteps,
    errorCode: j.errorCode,
    errorMessage: j.errorMessage,
  };
}

export function summarize(results: CorpusResult[]): Record<SchemaOutcome, number> & { total: number } {
  const s = {
    total: results.length,
    passing: 0,
    refused: 0,
    "valid-rejected": 0,
    "invalid-accepted": 0,
    timeout: 0,
    crash: 0,
  };
  for (const r of results) s[r.outcome]++;
  return s;
}
