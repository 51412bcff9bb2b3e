/**
 * The one error hierarchy of toolgram. Every error thrown for bad *declarations* (schemas, tools, options,
 * vocabularies) is a ToolgramError with a stable `code`, the JSON Pointer of the offending place in the input
 * (`schemaPath`, "" for the root) and a message that says how to fix it. Model output never throws: the parser
 * reports problems as data.
 */
export type ToolgramErrorCode =
  // invalid input: the declaration is not a valid schema / tool / option
  | "INVALID_SCHEMA"
  | "INVALID_TOOL"
  | "DUPLICATE_TOOL"
  | "INVALID_OPTION"
  | "INVALID_REF"
  | "INVALID_PATTERN"
  | "INVALID_VOCABULARY"
  | "INVALID_INPUT"
  | "INVALID_TEMPLATE"
  | "TEMPLATE_RENDER"
  | "UNRECOGNIZED_TEMPLATE"
  // valid, but toolgram cannot enforce it exactly (strict mode refuses rather than accept less)
  | "UNSUPPORTED_KEYWORD"
  | "UNKNOWN_KEYWORD"
  | "UNSUPPORTED_PATTERN"
  | "UNSUPPORTED_FORMAT"
  | "NOT_REGULAR"
  // no instance can satisfy the schema
  | "UNSATISFIABLE"
  // named caps
  | "LIMIT_REPETITION"
  | "LIMIT_REF_DEPTH"
  | "LIMIT_NESTING"
  | "LIMIT_ENUM_SIZE"
  | "LIMIT_GRAMMAR_SIZE"
  | "LIMIT_COMPILE_TIME"
  | "LIMIT_COMPILE_STEPS"
  | "LIMIT_AUTOMATON_SIZE"
  | "LIMIT_TOOLS";

/**
 * The base of every error toolgram throws for bad input: a stable `code`, a JSON-Pointer `schemaPath` into the
 * input, and a message that says how to fix it.
 */
export class ToolgramError extends Error {
  /** What went wrong, stable across versions: branch on it, not on the message. */
  readonly code: ToolgramErrorCode;
  /** JSON Pointer into the user's input (schema or tool list); "" is the root. */
  readonly schemaPath: string;

  constructor(code: ToolgramErrorCode, message: string, schemaPath = "", options?: { cause?: unknown }) {
    super(schemaPath ? `${message} (at ${schemaPath || "/"})` : message, options);
    this.name = new.target.name;
    this.code = code;
    this.schemaPath = schemaPath;
  }
}

/** The declaration is malformed (not a schema, a bad `$ref`, a pattern that is not an ECMAScript regex...). */
export class InvalidSchemaError extends ToolgramError {}

/** The declaration is valid but uses something toolgram cannot enforce exactly; `strict: false` may relax it. */
export class UnsupportedSchemaError extends ToolgramError {}

/** No JSON value satisfies the schema (e.g. `minItems` > `maxItems`, an empty `enum`). */
export class UnsatisfiableSchemaError extends ToolgramError {}

/** A named cap (see `Limits`) was exceeded. */
export class LimitExceededError extends ToolgramError {}
