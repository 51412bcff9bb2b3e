/** A warning recorded while compiling: what `strict: false` relaxed, or what a non-standard shape was read as. */
export interface Diagnostic {
  /**
   * Stable code, among them "OVER_APPROXIMATED" (strict: false let the grammar accept a superset of what a keyword allows; the
   * parser's ajv check still catches the rest), "IGNORED_KEYWORD" (an unknown keyword or format name read as an
   * annotation, see `unknownKeywords`), "UNKNOWN_KEYWORD" (a likely typo ignored under strict: false),
   * "NONSTANDARD_TYPE", "NONSTANDARD_SCHEMA", "NULLABLE", "DRAFT4_KEYWORD", "DEFAULT_NULL" (a non-standard shape
   * reinterpreted), "TOOL_DROPPED" / "TOOL_RELAXED" (a refused tool left out or relaxed, see `onRefusedTool`).
   */
  code: string;
  /** A sentence saying what was relaxed or reinterpreted, and how. */
  message: string;
  /** JSON Pointer into the user's input. */
  schemaPath: string;
  /** The tool a TOOL_DROPPED / TOOL_RELAXED warning is about (see `onRefusedTool`). */
  tool?: string;
  /** The refusal's error code, for TOOL_DROPPED / TOOL_RELAXED. */
  refusalCode?: string;
}
