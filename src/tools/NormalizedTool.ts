import type { JsonObject } from "../json.js";

/** A declared tool after ingestion: whatever shape it came in, its arguments are a standard JSON Schema object. */
export interface NormalizedTool {
  /** The tool's name, exactly as declared (any non-empty string: dots, spaces and non-ASCII occur in real sets). */
  name: string;
  /** The tool's description as declared (absent when it has none); grammars ignore it. */
  description?: string;
  /**
   * Standard JSON Schema (draft 2020-12 vocabulary) of the arguments object: non-standard type names, optional
   * markers, OpenAPI `nullable` and draft-4 boolean bounds are already rewritten. Always has `type: "object"`.
   */
  parameters: JsonObject;
  /** JSON Pointer of the tool in the input ("/tools/2", "/0"; for a text block, into the JSON it contained). */
  path: string;
  /** JSON Pointer of the arguments schema in the input (e.g. "/0/function/parameters"); errors point there. */
  parametersPath: string;
}
