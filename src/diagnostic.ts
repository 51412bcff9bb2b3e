/** A warning recorded while compiling: what `strict: false` relaxed, or what a non-standard shape was read as. */
export interface Diagnostic {
  /**
   * Stable code, among them "OVER_APPROXIMATED" (strict: false let the grammar accept a superset of what a keyword allows; the
   * parser's ajv check still catches the rest), "IGNORED_KEYWORD" (an unknown keyword or format name read as an
   * annotation, see `unknownKeywords`), "UNKNOWN_KEYWORD" (a likely typo ignored under strict: false),
   * "NONSTANDARD_TYPE", "NONSTANDARD_SCHEMA", "NULLABLE", "DRAFT4_KEYWORD", "DEFAULT_NULL" (a non-standard shape
   * reinterpreted).
   */
  code: string;
  message: string;
  /** JSON Pointer into the user's input. */
  schemaPath: string;
}
