export { parseToolCalls } from "./parseToolCalls.js";
export { ToolCallStream } from "./ToolCallStream.js";
export { renderToolCalls, type CallToRender, type RenderTurnOptions } from "./renderToolCalls.js";
export { ISSUE_CODES, type IssueCode } from "./issueCodes.js";
export {
  FORMAT_NAMES,
  type FormatName,
  type DerivedFormatName,
  type ReasoningMode,
  type ReasoningOptions,
  type ResolvedReasoning,
} from "../formats/index.js";
export type {
  ParseMode,
  ParseOptions,
  ParseResult,
  ParseIssue,
  ParsedToolCall,
  StreamEvent,
  ToolCallShape,
  ToolCallConstraint,
  ToolCallMeta,
} from "./types.js";
