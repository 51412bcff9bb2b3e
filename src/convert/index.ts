export { toOpenAIToolCalls, fromOpenAIToolCalls, type OpenAIToolCall } from "./openai.js";
export { toAnthropicToolUse, fromAnthropicToolUse, type AnthropicToolUse } from "./anthropic.js";
export { toMcpRequests, fromMcpRequests, type McpToolCallRequest } from "./mcp.js";
export type { ConvertibleCall } from "./ConvertibleCall.js";
export { renderToolResponses, parseQwen3ToolResponses, type ResponseTurn } from "./toolResponses.js";
