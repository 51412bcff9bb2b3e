/**
 * Dataset check codes. Row-level codes carry the row's line number, the message index and a JSON Pointer into the
 * row; dataset-level codes describe the whole file.
 */
export const DATASET_CODES = {
  INVALID_JSON: "the row is not valid JSON",
  UNKNOWN_ROW_FORMAT:
    "the row is none of the supported formats (OpenAI messages, Qwen3/Hermes text, ShareGPT/Glaive, LlamaFactory parts)",
  TOOLS_INVALID: "the row's tools cannot be read as tool declarations",
  TOOLS_DO_NOT_COMPILE: "the row's tools do not compile into a grammar (the compiler's error code is in the message)",
  UNDECLARED_TOOL: "a call to a tool the row does not declare",
  INVALID_ARGUMENTS: "the call's arguments fail the tool's schema",
  UNREADABLE_CALL: "a call that cannot be read even with the parser's repairs",
  FORMAT_DRIFT: "a call the grammar would not produce in strict mode (the parser had to repair it)",
  RESPONSE_WITHOUT_CALL: "a tool response with no pending call to answer",
  MISSING_RESPONSE: "calls left unanswered before the conversation moved on",
  EMPTY_ASSISTANT_TURN: "an assistant turn with neither text nor calls",
  CONTENT_WITH_TOOL_CALLS: "an OpenAI-format assistant message with both content and tool_calls",
  DUPLICATE_ROW: "the row repeats an earlier row",
  // dataset level
  FEW_NO_CALL_TURNS: "fewer than 5 % of assistant turns answer without a call: the model will learn to always call",
  NO_PARALLEL_EXAMPLES: "no assistant turn makes more than one call although the tools allow parallel calls",
  TOOL_NEVER_CALLED: "tools declared but never called anywhere in the dataset",
} as const;

/** The code of a dataset issue: one of {@link DATASET_CODES}. */
export type DatasetCode = keyof typeof DATASET_CODES;

/** One problem found in a dataset row: its code, severity and a message naming the row and the call. */
export interface DatasetIssue {
  /** What is wrong: a key of {@link DATASET_CODES}. */
  code: DatasetCode;
  /**
   * `"error"` for a row the data cannot be trained on as it is; `"warning"` for duplicates, content beside calls,
   * every dataset-level issue, and FORMAT_DRIFT unless the `drift` option makes it an error.
   */
  severity: "error" | "warning";
  /** A sentence naming the problem and, where there is one, the call, tool or count involved. */
  message: string;
  /** 1-based line of the row in the file (the row index + 1 for in-memory rows); absent for dataset-level issues. */
  row?: number;
  /** Index of the message/turn in the row's conversation. */
  messageIndex?: number;
  /** JSON Pointer into the row. */
  pointer?: string;
  /** JSON Pointer into the call's arguments (validation errors). */
  instancePath?: string;
}
