export { parseToolCalls } from "./parseToolCalls.js";
export { ToolCallStream } from "./ToolCallStream.js";
export { renderToolCalls, type CallToRender, type RenderTurnOptions } from "./renderToolCalls.js";
export { ISSUE_CODES, type IssueCode } from "./issueCodes.js";
export {
  FORMAT_DESCRIPTIONS,
  FORMAT_NAMES,
  describeFormat,
  type FormatDescription,
  type FormatName,
  type FormatOption,
  type ReasoningMode,
  type ReasoningOptions,
} from "../formats/index.js";
export type {
  ParseMode,
  ParseOptions,
  ParseResult,
  ParseIssue,
  ParsedToolCall,
  ParserTool,
  StreamEvent,
  ToolCallMeta,
  ToolCallConstraint,
  ToolCallShape,
} from "./types.js";
