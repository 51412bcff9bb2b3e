import type { ErrorObject } from "ajv";
import type { JsonObject } from "../json.js";
import type { FormatOption } from "../formats/describeFormat.js";
import type { ReasoningOptions } from "../formats/resolveReasoning.js";
import type { IssueCode } from "./issueCodes.js";

/**
 * `"strict"`: only the format's canonical rendering is a call; anything else is an issue and the call is dropped.
 * With tools, in every format, a call is also one the compiled grammar of one call accepts (see strictBlockCheck).
 * `"tolerant"`: also repairs the drifts real models make, recording each repair as an issue.
 */
export type ParseMode = "strict" | "tolerant";

/** A tool as the parser needs it: a name and the JSON Schema of its arguments. */
export interface ParserTool {
  name: string;
  description?: string;
  parameters: JsonObject;
}

/** The shape of one call, before location data; generated types narrow it to a discriminated union. */
export interface ToolCallShape {
  /** The called tool's name, as the model wrote it (declared or not: see `valid`). */
  name: string;
  /** The call's arguments object (`{}` when the call has none). */
  arguments: JsonObject;
}

/**
 * What a call type given to `parseToolCalls<T>` must be. `arguments: object` (not JsonObject) so that interfaces,
 * which TypeScript never gives an implicit index signature (as `toolgram types` generates them), are accepted.
 * Exported from `toolgram`: generic code over parsed calls names it as its type parameter's bound.
 */
export interface ToolCallConstraint {
  /** The tool's name (a string literal type in generated call types). */
  name: string;
  /** The arguments' type. */
  arguments: object;
}

/**
 * Where a call came from and whether its arguments satisfy its tool's schema: what {@link ParsedToolCall} adds to
 * a call type. Exported from `toolgram`.
 */
export interface ToolCallMeta {
  /** The exact text of the call: the whole block for one-call-per-block formats, the array element otherwise. */
  raw: string;
  /** [start, end) offsets (UTF-16 code units) of `raw` in the parsed text. */
  span: [number, number];
  /** The tool is declared and ajv accepts the arguments (true when no tools were given). */
  valid: boolean;
  /** ajv's errors for the arguments (empty when valid or when the tool is undeclared). */
  errors: ErrorObject[];
  /** The call id, when the format carries one. */
  id?: string;
}

/** A parsed call; with a union `T`, `name` discriminates the `arguments` type. */
export type ParsedToolCall<T extends ToolCallConstraint = ToolCallShape> = T extends ToolCallConstraint
  ? T & ToolCallMeta
  : never;

/** A problem or a repair in model output: data, never an exception. */
export interface ParseIssue {
  /**
   * What was met: a key of {@link ISSUE_CODES} (a repair in tolerant mode, a reason a call was dropped, or a validation
   * failure).
   */
  code: IssueCode;
  /** A sentence saying what was met and where (the call's tool, the key, the marker). */
  message: string;
  /** [start, end) offsets in the parsed text. */
  span?: [number, number];
  /** Index into `calls` of the call concerned (absent when the call was dropped). */
  callIndex?: number;
  /** JSON Pointer into the arguments, for validation issues. */
  instancePath?: string;
}

/** What {@link parseToolCalls} read: the free text, the calls, and the issues met (the parser never throws). */
export interface ParseResult<T extends ToolCallConstraint = ToolCallShape> {
  /** The text outside call blocks (and outside the reasoning block), in order. */
  content: string;
  /** The reasoning block's text, when the options ask for one and the turn has it (apart from `content`). */
  reasoning?: string;
  /** The calls read, in order, with their raw text and span; an invalid call is kept, with `valid: false`. */
  calls: ParsedToolCall<T>[];
  /** Every repair made, every call dropped and every validation failure, in the order met. */
  issues: ParseIssue[];
  /** Calls that could not be read (each has an issue). */
  dropped: number;
}

/** Options of {@link parseToolCalls} and {@link ToolCallStream}: the tools, the format and the mode. */
export interface ParseOptions extends ReasoningOptions {
  /**
   * Declared tools, in any shape tool ingestion reads (normalized `{ name, parameters }`, OpenAI, MCP, Anthropic);
   * calls are validated against them with ajv, each schema compiled once per tools array. Omit to skip validation.
   */
  tools?: readonly unknown[];
  /** A format's name or alias (src/formats). @defaultValue "qwen3" */
  format?: FormatOption;
  /**
   * `"strict"` reads only the canonical rendering; `"tolerant"` also repairs real models' drifts (see {@link
   * ParseMode}). @defaultValue "tolerant"
   */
  mode?: ParseMode;
  /**
   * Keys of the arguments that the tool's parameters do not declare, where the schema declares `properties` and
   * says nothing about others: `"forbid"` (as `compileTools` does by default, so its grammars never emit them) makes
   * such a key a validation issue UNDECLARED_ARGUMENT and the call `valid: false`; `"spec"` follows plain JSON
   * Schema ("spec"). Pass the value given to `compileTools`, so the parser and the grammar agree.
   * @defaultValue "forbid"
   */
  additionalProperties?: "forbid" | "spec";
}

/**
 * What a stream reports. `index` numbers calls in the order they start (dropped ones included, so it can differ from
 * the position in `ParseResult.calls`). `arguments_delta`s concatenate to the arguments' text as written;
 * `call_end` carries the final, validated call. For array formats the `call_end`s of a list come when the list ends.
 */
export type StreamEvent<T extends ToolCallConstraint = ToolCallShape> =
  | { type: "text"; delta: string }
  /** Text of the reasoning block (with `reasoning` options), before anything else. */
  | { type: "reasoning"; delta: string }
  | { type: "call_start"; index: number; name?: string }
  | { type: "call_name"; index: number; name: string }
  | { type: "arguments_delta"; index: number; delta: string }
  /** `call` is null when the call was dropped (the result's issues say why). */
  | { type: "call_end"; index: number; call: ParsedToolCall<T> | null; raw: string };
