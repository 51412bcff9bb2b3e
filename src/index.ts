/**
 * toolgram: compile declared tool schemas into constrained-decoding artifacts (GBNF, regex, JSON-schema union,
 * token-mask automaton) and parse model output back.
 *
 * @packageDocumentation
 */

// compiling
/** Compile a tool list into the grammar of one assistant turn (`{ format: "qwen3", toolChoice, parallel, freeText }`). */
export { compileTools, compileSchema, type ToolCompileOptions } from "./compile.js";
/** The result of a compile: grammar IR, emitters, reference acceptor, matchers. */
export { CompiledGrammar, type CompiledFormat } from "./CompiledGrammar.js";
/** Tool-call policy options: `toolChoice`, `parallel`, `freeText`. */
export type { ToolChoice, ParallelOption, CallPolicyOptions } from "./envelope/callPolicy.js";
/** Wire formats `compileTools` supports. */
export type { EnvelopeFormat } from "./envelope/envelopes.js";
/** The wire formats as data: one description per format, read by the grammar, the parser and the renderer. */
export {
  FORMAT_DESCRIPTIONS,
  describeFormat,
  type FormatDescription,
  type FormatOption,
  type CallUnitDescription,
  type CallUnitKind,
} from "./formats/index.js";
/** Schema compile options, limits and their defaults. */
export {
  DEFAULT_LIMITS,
  type SchemaCompileOptions,
  type Limits,
  type UnknownKeywordsOption,
  type WhitespaceOption,
} from "./options.js";

// tools
/** Read tool lists in OpenAI, MCP, Hermes text-block and corpus (BFCL, xLAM, Glaive) shapes into one canonical form. */
export { normalizeTools } from "./tools/normalizeTools.js";
/** A tool after `normalizeTools`. */
export type { NormalizedTool } from "./tools/NormalizedTool.js";

// chat templates
/** Read a model's tool-call format, reasoning and markers from its chat template by rendering probe conversations. */
export { formatFromChatTemplate, type TemplateFormat } from "./templates/formatFromChatTemplate.js";
/** Render a chat template (@huggingface/jinja, fixed date) and the probe renders behind formatFromChatTemplate. */
export { ChatTemplate, type RenderOptions, type TemplateMessage } from "./templates/renderTemplate.js";
export { KNOWN_FORMATS, type KnownFormat } from "./templates/knownFormats.js";

// errors and warnings
/** The error hierarchy: every bad declaration throws one of these, with a `code` and a JSON-Pointer `schemaPath`. */
export {
  ToolgramError,
  InvalidSchemaError,
  UnsupportedSchemaError,
  UnsatisfiableSchemaError,
  LimitExceededError,
  type ToolgramErrorCode,
} from "./errors.js";
/** A compile warning. */
export type { Diagnostic } from "./diagnostic.js";

// JSON helpers
/** The canonical JSON spelling (Python `json.dumps`: `", "` and `": "`) that grammars accept by default. */
export { canonicalJson, quoteJsonString, type JsonValue, type JsonObject } from "./json.js";

// grammar IR (for custom emitters and tests)
export type { Grammar, GExpr } from "./grammar/Grammar.js";

// token masks
/** A model's vocabulary as bytes and atoms (`fromTokenizerJson`, `fromGgufTokenizer`, `fromPieces`; file readers in `toolgram/node`). */
export { Vocabulary, type PieceInput, type VocabularyOptions } from "./vocab/Vocabulary.js";
/** The per-sequence token matcher returned by `compiled.createMatcher(vocab)`. */
export type { TokenMatcher } from "./automaton/TokenMatcher.js";
export type { MatcherOptions } from "./automaton/createMatcher.js";

// parsing model output
/** Parse model output into calls (tolerant by default, never throws), as a batch or a stream; render calls back. */
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
  type IssueCode,
  type FormatName,
  type ParseMode,
  type ParseOptions,
  type ParseResult,
  type ParseIssue,
  type ParsedToolCall,
  type StreamEvent,
  type ToolCallShape,
} from "./parser/index.js";
/** Conversions between parsed calls and OpenAI `tool_calls`, Anthropic `tool_use`, MCP `tools/call`. */
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
} from "./convert/index.js";

// datasets
/** Validate a function-calling fine-tuning set (rows in memory; `validateDatasetFile` in `toolgram/node` streams a file). */
export {
  validateDataset,
  type DatasetReport,
  type DatasetReceipt,
  type ValidateOptions,
} from "./dataset/validateDataset.js";
export { DATASET_CODES, type DatasetCode, type DatasetIssue } from "./dataset/DatasetIssue.js";
export { convertConversation, type ConvertTarget } from "./dataset/rewriteRow.js";
export { readConversation, detectRowFormat } from "./dataset/readConversation.js";
export type { Conversation, RowFormat } from "./dataset/Conversation.js";
