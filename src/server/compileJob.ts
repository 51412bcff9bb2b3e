import { CompiledGrammar } from "../CompiledGrammar.js";
import { compileSchema, compileTools, type ToolCompileOptions } from "../compile.js";
import type { Diagnostic } from "../diagnostic.js";
import {
  InvalidSchemaError,
  LimitExceededError,
  ToolgramError,
  type ToolgramErrorCode,
  UnsatisfiableSchemaError,
  UnsupportedSchemaError,
} from "../errors.js";
import type { SchemaCompileOptions } from "../options.js";

/** One compile a server asks for: a tool-call turn or one JSON value, with plain-data (cloneable) options. */
export type CompileJob =
  | { readonly kind: "tools"; readonly tools: unknown; readonly options: ToolCompileOptions }
  | { readonly kind: "schema"; readonly schema: unknown; readonly options: SchemaCompileOptions };

/**
 * A compiled grammar as structured-clone data: everything `CompiledGrammar`'s constructor takes except the lazy JSON
 * Schema (a closure), plus the GBNF text, printed where the compile ran so that neither the cache's size count nor an
 * upstream request prints it again on the event loop.
 */
interface GrammarData {
  readonly grammar: CompiledGrammar["grammar"];
  readonly format: CompiledGrammar["format"];
  readonly warnings: Diagnostic[];
  readonly tools: CompiledGrammar["tools"][number][];
  readonly schemaHash: string;
  readonly specialTokens: CompiledGrammar["specialTokens"];
  readonly compileSteps: number;
  readonly reasoning: CompiledGrammar["reasoning"];
  /** Undefined when GBNF cannot hold the grammar (a counted string): the token matcher serves it all the same. */
  readonly gbnf: string | undefined;
}

/** A refusal as structured-clone data (a cloned Error keeps only its message). */
interface ErrorData {
  readonly kind: string;
  readonly code: ToolgramErrorCode;
  readonly message: string;
  readonly schemaPath: string;
}

/** What a compile worker answers: the grammar or the refusal, and the compile's own duration. */
export type CompileOutcome =
  | { readonly ok: true; readonly data: GrammarData; readonly ms: number }
  | { readonly ok: false; readonly error: ErrorData; readonly ms: number };

/** Runs a job where it is called (the worker, or the event loop when no worker is used). */
export function compileJob(job: CompileJob): CompiledGrammar {
  return job.kind === "tools" ? compileTools(job.tools, job.options) : compileSchema(job.schema, job.options);
}

/** Runs a job and turns its result into cloneable data; errors other than refusals are thrown. */
export function runCompileJob(job: CompileJob): CompileOutcome {
  const started = performance.now();
  try {
    const g = compileJob(job);
    const data: GrammarData = {
      grammar: g.grammar,
      format: g.format,
      warnings: [...g.warnings],
      tools: [...g.tools],
      schemaHash: g.schemaHash,
      specialTokens: g.specialTokens,
      compileSteps: g.compileSteps,
      reasoning: g.reasoning,
      gbnf: gbnfOf(g),
    };
    return { ok: true, data, ms: performance.now() - started };
  } catch (e) {
    if (!(e instanceof ToolgramError)) throw e;
    const error = { kind: e.constructor.name, code: e.code, message: e.message, schemaPath: e.schemaPath };
    return { ok: false, error, ms: performance.now() - started };
  }
}

/**
 * The grammar's GBNF, or undefined when GBNF refuses it (a length bound only the token matcher holds, see `Counted`):
 * such a grammar is still served by the token masks, and the upstream engine, which needs GBNF, refuses the request.
 */
export function gbnfOf(g: CompiledGrammar): string | undefined {
  try {
    return g.toGbnf();
  } catch (e) {
    if (e instanceof ToolgramError && e.code === "LIMIT_GRAMMAR_SIZE") return undefined;
    throw e;
  }
}

const ERROR_CLASSES: Record<string, typeof ToolgramError> = {
  InvalidSchemaError,
  UnsupportedSchemaError,
  UnsatisfiableSchemaError,
  LimitExceededError,
};

/** The refusal again, of its class, with its code, path and exact message. */
export function errorFromData(d: ErrorData): ToolgramError {
  const Class = ERROR_CLASSES[d.kind] ?? ToolgramError;
  const e = new Class(d.code, d.message, "");
  // the constructor appended "(at path)" to the message the worker already sent with it
  Object.defineProperty(e, "schemaPath", { value: d.schemaPath });
  return e;
}

/**
 * The grammar again on this thread. Its budget and state cap are the job's resolved limits; the JSON Schema, which the
 * server never reads, is rebuilt by compiling again on first use rather than shipped.
 */
export function grammarFromData(job: CompileJob, d: GrammarData, limits: CompiledGrammarLimits): CompiledGrammar {
  return new CompiledGrammar({
    grammar: d.grammar,
    format: d.format,
    warnings: d.warnings,
    tools: d.tools,
    schemaHash: d.schemaHash,
    jsonSchema: () => compileJob(job).toJsonSchema(),
    structuralTag: () => compileJob(job).toStructuralTag(),
    specialTokens: d.specialTokens,
    compileSteps: d.compileSteps,
    budget: limits,
    reasoning: d.reasoning,
    maxAutomatonStates: limits.maxAutomatonStates,
    ...(d.gbnf === undefined ? {} : { gbnf: d.gbnf }),
  });
}

/** The limits a compiled grammar keeps for its emitters and matchers. */
export interface CompiledGrammarLimits {
  readonly maxCompileSteps: number;
  readonly maxCompileMs: number;
  readonly maxAutomatonStates: number;
}
