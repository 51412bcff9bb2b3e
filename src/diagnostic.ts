/** A warning recorded while compiling: what `strict: false` relaxed, or what a non-standard shape was read as. */
export interface Diagnostic {
  /** Stable code, e.g. "NONSTANDARD_TYPE", "RELAXED_KEYWORD", "OVER_APPROXIMATED". */
  code: string;
  message: string;
  /** JSON Pointer into the user's input. */
  schemaPath: string;
}
