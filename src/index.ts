/**
 * toolgram: compile declared tool schemas into constrained-decoding artifacts (GBNF, regex, JSON-schema union,
 * token-mask automaton) and parse model output back.
 *
 * The root entry holds what every user needs: compiling tools and schemas, the wire formats, token masks over a
 * vocabulary, parsing and rendering calls, conversions to other APIs' call shapes, and dataset validation. Running
 * models lives in `toolgram/llama-cpp`, the OpenAI-compatible server in `toolgram/server`, logits helpers for
 * JavaScript runtimes in `toolgram/logits`, and grammar checks for a project's own CI in `toolgram/testing`.
 *
 * @packageDocumentation
 */

// compiling
export { compileTools, compileSchema, type ToolCompileOptions, type OnRefusedTool } from "./compile.js";
export { CompiledGrammar, type CompiledFormat } from "./CompiledGrammar.js";
export type { StructuralTag, StructuralTagFormat, StructuralTagTag } from "./emit/toStructuralTag.js";
export type { ToolChoice, ParallelOption, CallPolicyOptions } from "./envelope/callPolicy.js";
export {
  DEFAULT_LIMITS,
  type SchemaCompileOptions,
  type Limits,
  type UnknownKeywordsOption,
  type PropertyOrder,
  type WhitespaceOption,
} from "./options.js";
export type { Grammar, GExpr } from "./grammar/Grammar.js";

// wire formats
export {
  FORMAT_DESCRIPTIONS,
  describeFormat,
  type FormatDescription,
  type FormatOption,
  type CallUnitDescription,
  type CallUnitKind,
  type SectionDescription,
  type ListLayout,
  type MessagesDescription,
  type ReasoningDescription,
} from "./formats/index.js";

// tools
export { normalizeTools } from "./tools/normalizeTools.js";
export type { NormalizedTool } from "./tools/NormalizedTool.js";

// chat templates
export { formatFromChatTemplate, type TemplateFormat } from "./templates/formatFromChatTemplate.js";
export type { CallLayout } from "./templates/readCallLayout.js";
export type { ReasoningLayout } from "./templates/readReasoning.js";
export {
  ChatTemplate,
  type RenderInput,
  type RenderOptions,
  type TemplateMessage,
  type TemplateToolCall,
  type TemplateContentPart,
} from "./templates/renderTemplate.js";

// errors and warnings
export {
  ToolgramError,
  InvalidSchemaError,
  UnsupportedSchemaError,
  UnsatisfiableSchemaError,
  LimitExceededError,
  type ToolgramErrorCode,
} from "./errors.js";
export type { Diagnostic } from "./diagnostic.js";

// JSON helpers
export { canonicalJson, quoteJsonString, type JsonValue, type JsonObject, type JsonPrimitive } from "./json.js";

// token masks
export { Vocabulary, type PieceInput, type VocabularyOptions } from "./vocab/Vocabulary.js";
export type { GgufTokenizer } from "./gguf/ggufTokenizer.js";
export type { TokenMatcher } from "./automaton/TokenMatcher.js";
export type { MatcherOptions } from "./automaton/createMatcher.js";

// parsing and rendering model output
export {
  parseToolCalls,
  ToolCallStream,
  renderToolCalls,
  ISSUE_CODES,
  FORMAT_NAMES,
  type CallToRender,
  type RenderTurnOptions,
  type ReasoningMode,
  type ReasoningOptions,
  type ResolvedReasoning,
  type IssueCode,
  type FormatName,
  type DerivedFormatName,
  type ParseMode,
  type ParseOptions,
  type ParseResult,
  type ParseIssue,
  type ParsedToolCall,
  type StreamEvent,
  type ToolCallShape,
  type ToolCallConstraint,
  type ToolCallMeta,
} from "./parser/index.js";

// conversions to other APIs' call shapes
export {
  toOpenAIToolCalls,
  fromOpenAIToolCalls,
  toAnthropicToolUse,
  fromAnthropicToolUse,
  toMcpRequests,
  fromMcpRequests,
  renderToolResponses,
  parseQwen3ToolResponses,
  type OpenAIToolCall,
  type AnthropicToolUse,
  type McpToolCallRequest,
  type ConvertibleCall,
  type ResponseTurn,
} from "./convert/index.js";

// datasets
export {
  validateDataset,
  type DatasetReport,
  type DatasetReceipt,
  type ValidateOptions,
} from "./dataset/validateDataset.js";
export { DATASET_CODES, type DatasetCode, type DatasetIssue } from "./dataset/DatasetIssue.js";
export type { DatasetStats, ValidateDatasetOptions } from "./dataset/DatasetValidator.js";
export type { RowFormat } from "./dataset/Conversation.js";
