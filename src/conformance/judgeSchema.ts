import { canonicalJson, type JsonValue } from "../json.js";
import { ToolgramError } from "../errors.js";
import type { SchemaCompileOptions } from "../options.js";

/**
 * How a compiled grammar fared on one test instance of a conformance corpus.
 * - `pass`: the verdict matches the expected one;
 * - `refused`: the compiler refused the schema with a ToolgramError (strict mode: "cannot enforce exactly");
 * - `unsatisfiable`: refused as unsatisfiable while every test instance is indeed invalid (a correct refusal);
 * - `false-negative`: a valid instance rejected (coverage loss);
 * - `false-positive`: an invalid instance accepted — the one category that must stay at zero;
 * - `crash`: a non-ToolgramError exception (a bug);
 * - `timeout`: refused by the wall-clock budget (`LIMIT_COMPILE_TIME`), a verdict that depends on the machine: conformance
 *   runs turn the clock off (CONFORMANCE_OPTIONS) and count work steps instead, whose refusal (`LIMIT_COMPILE_STEPS`)
 *   is a `refused` like any other limit.
 */
export type Verdict = "pass" | "refused" | "unsatisfiable" | "false-negative" | "false-positive" | "crash" | "timeout";

/** One labelled instance for {@link judgeSchema}: a JSON value and whether the schema should accept it. */
export interface InstanceTest {
  /** What the instance tests (for reports; not read by the judge). */
  description?: string;
  /** The instance, checked as its canonical JSON text (`canonicalJson`). */
  data: JsonValue;
  /** Whether the schema should accept `data`. */
  valid: boolean;
}

/** What {@link judgeSchema} found: one verdict per instance, and why a compile was refused. */
export interface SchemaJudgement {
  /** One verdict per test instance, in order (all the same when the compile was refused or crashed). */
  verdicts: Verdict[];
  /** Wall-clock milliseconds the compile took, refused or not (for reports: no verdict depends on it). */
  compileMs: number;
  /** Work steps the compile spent (when the compiler reports them). */
  compileSteps?: number;
  /** Error code when the compile was refused or crashed. */
  errorCode?: string;
  /** The refusal's message, or the crash's stack, when the compile did not succeed. */
  errorMessage?: string;
}

/** What the harness needs from a compiler: `compileSchema` from the public API satisfies it. */
export type SchemaCompiler = (
  schema: unknown,
  options?: SchemaCompileOptions,
) => { accepts(text: string): boolean; compileSteps?: number };

/**
 * Compiles `schema` and checks its exact acceptor on labelled instances: one verdict per instance (a
 * `false-positive` is an invalid instance the grammar accepts). Pass `limits: { maxCompileMs: Infinity }` for verdicts
 * that do not depend on the machine's speed.
 *
 * @example
 * ```ts
 * const { verdicts } = judgeSchema(compileSchema, { type: "integer" }, [{ data: 1, valid: true }, { data: "1", valid: false }]);
 * ```
 */
export function judgeSchema(
  compile: SchemaCompiler,
  schema: unknown,
  tests: InstanceTest[],
  options: SchemaCompileOptions = {},
): SchemaJudgement {
  const t0 = performance.now();
  let compiled: ReturnType<SchemaCompiler>;
  try {
    compiled = compile(schema, options);
  } catch (e) {
    const compileMs = performance.now() - t0;
    if (e instanceof ToolgramError) {
      const all =
        e.code === "UNSATISFIABLE" && tests.every((t) => !t.valid)
          ? "unsatisfiable"
          : e.code === "LIMIT_COMPILE_TIME"
            ? "timeout"
            : "refused";
      return { verdicts: tests.map(() => all), compileMs, errorCode: e.code, errorMessage: e.message };
    }
    return {
      verdicts: tests.map(() => "crash"),
      compileMs,
      errorCode: "CRASH",
      errorMessage: String((e as Error)?.stack ?? e),
    };
  }
  const compileMs = performance.now() - t0;
  const verdicts = tests.map((t): Verdict => {
    let text: string;
    try {
      text = canonicalJson(t.data);
    } catch {
      // not representable as JSON text (cannot happen for JSON-loaded data); the test is meaningless
      return "pass";
    }
    let ok: boolean;
    try {
      ok = compiled.accepts(text);
    } catch {
      return "crash";
    }
    if (ok === t.valid) return "pass";
    return ok ? "false-positive" : "false-negative";
  });
  return { verdicts, compileMs, compileSteps: compiled.compileSteps };
}
