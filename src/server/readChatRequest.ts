import type { JsonObject } from "../json.js";
import { badRequest } from "./ApiError.js";
import type { ChatRequest, RequestMessage, ResponseFormat } from "./ChatRequest.js";

function isJsonObject(v: unknown): v is JsonObject {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Parameters read and honoured. */
const SUPPORTED = new Set([
  "model",
  "messages",
  "tools",
  "tool_choice",
  "parallel_tool_calls",
  "response_format",
  "max_tokens",
  "max_completion_tokens",
  "temperature",
  "top_p",
  "seed",
  "stop",
  "n",
  "stream",
  "stream_options",
  "reasoning_effort",
  "reasoning_mode",
]);
/** Parameters that change nothing here (bookkeeping for OpenAI's own platform): accepted and ignored. */
const IGNORED = new Set(["user", "metadata", "store", "service_tier", "prompt_cache_key", "safety_identifier"]);
/** Parameters accepted only at their neutral value; anything else is named in a 400. */
const NEUTRAL: Readonly<Record<string, (v: unknown) => boolean>> = {
  frequency_penalty: (v) => v === 0,
  presence_penalty: (v) => v === 0,
  logprobs: (v) => v === false,
  logit_bias: (v) => isJsonObject(v) && Object.keys(v).length === 0,
  modalities: (v) => Array.isArray(v) && v.length === 1 && v[0] === "text",
};

/** OpenAI's limit on declared tools per request; also keeps one request's compile short. */
export const MAX_TOOLS = 128;
/** OpenAI's limit on stop sequences. */
const MAX_STOP = 4;

function typeName(v: unknown): string {
  return v === null ? "null" : Array.isArray(v) ? "array" : typeof v;
}

function expectString(v: unknown, param: string): string {
  if (typeof v !== "string") throw badRequest(`${param} must be a string, got ${typeName(v)}.`, param, "invalid_type");
  return v;
}

function expectNumber(v: unknown, param: string, min: number, max: number, integer = false): number {
  if (typeof v !== "number" || !Number.isFinite(v) || (integer && !Number.isSafeInteger(v))) {
    throw badRequest(
      `${param} must be ${integer ? "an integer" : "a number"}, got ${typeName(v) === "number" ? String(v) : typeName(v)}.`,
      param,
      "invalid_type",
    );
  }
  if (v < min || v > max)
    throw badRequest(`${param} must be between ${min} and ${max}, got ${v}.`, param, "invalid_value");
  return v;
}

function expectBoolean(v: unknown, param: string): boolean {
  if (typeof v !== "boolean")
    throw badRequest(`${param} must be a boolean, got ${typeName(v)}.`, param, "invalid_type");
  return v;
}

/** A message's `content`: a string, null, or an array of text parts (joined); other parts are named. */
function readContent(v: unknown, param: string): string | null {
  if (v === null || v === undefined) return null;
  if (typeof v === "string") return v;
  if (!Array.isArray(v))
    throw badRequest(
      `${param} must be a string or an array of content parts, got ${typeName(v)}.`,
      param,
      "invalid_type",
    );
  return v
    .map((part, i) => {
      const p = `${param}[${i}]`;
      if (!isJsonObject(part)) throw badRequest(`${p} must be an object, got ${typeName(part)}.`, p, "invalid_type");
      if (part.type !== "text")
        throw badRequest(
          `${p}.type ${JSON.stringify(part.type)} is not supported: this server reads text parts only.`,
          `${p}.type`,
          "unsupported_value",
        );
      return expectString(part.text, `${p}.text`);
    })
    .join("");
}

function readToolCalls(v: unknown, param: string): NonNullable<RequestMessage["tool_calls"]> {
  if (!Array.isArray(v)) throw badRequest(`${param} must be an array, got ${typeName(v)}.`, param, "invalid_type");
  return v.map((call, i) => {
    const p = `${param}[${i}]`;
    if (!isJsonObject(call)) throw badRequest(`${p} must be an object, got ${typeName(call)}.`, p, "invalid_type");
    if (call.type !== undefined && call.type !== "function")
      throw badRequest(`${p}.type must be "function".`, `${p}.type`, "invalid_value");
    const fn = call.function;
    if (!isJsonObject(fn))
      throw badRequest(`${p}.function must be an object, got ${typeName(fn)}.`, `${p}.function`, "invalid_type");
    const args = fn.arguments;
    return {
      id: expectString(call.id, `${p}.id`),
      type: "function" as const,
      function: {
        name: expectString(fn.name, `${p}.function.name`),
        arguments: typeof args === "string" ? args : expectString(args, `${p}.function.arguments`),
      },
    };
  });
}

function readMessages(v: unknown): RequestMessage[] {
  if (!Array.isArray(v)) throw badRequest(`messages must be an array, got ${typeName(v)}.`, "messages", "invalid_type");
  if (v.length === 0) throw badRequest("messages must hold at least one message.", "messages", "invalid_value");
  return v.map((m, i): RequestMessage => {
    const p = `messages[${i}]`;
    if (!isJsonObject(m)) throw badRequest(`${p} must be an object, got ${typeName(m)}.`, p, "invalid_type");
    const role = m.role;
    const content = readContent(m.content, `${p}.content`);
    switch (role) {
      case "system":
      case "developer":
        return { role: "system", content: content ?? "" };
      case "user":
        return { role: "user", content: content ?? "" };
      case "assistant": {
        const calls =
          m.tool_calls === undefined || m.tool_calls === null ? [] : readToolCalls(m.tool_calls, `${p}.tool_calls`);
        const reasoning =
          m.reasoning_content === undefined || m.reasoning_content === null
            ? {}
            : { reasoning_content: expectString(m.reasoning_content, `${p}.reasoning_content`) };
        return calls.length > 0
          ? { role: "assistant", content, tool_calls: calls, ...reasoning }
          : { role: "assistant", content, ...reasoning };
      }
      case "tool":
        return {
          role: "tool",
          content: content ?? "",
          tool_call_id: expectString(m.tool_call_id, `${p}.tool_call_id`),
          ...(m.name === undefined || m.name === null ? {} : { name: expectString(m.name, `${p}.name`) }),
        };
      default:
        throw badRequest(
          `${p}.role must be one of system, developer, user, assistant, tool; got ${JSON.stringify(role)}.`,
          `${p}.role`,
          "invalid_value",
        );
    }
  });
}

function readTools(v: unknown): JsonObject[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) throw badRequest(`tools must be an array, got ${typeName(v)}.`, "tools", "invalid_type");
  if (v.length > MAX_TOOLS)
    throw badRequest(`tools holds ${v.length} tools; at most ${MAX_TOOLS} are allowed.`, "tools", "too_many_tools");
  return v.map((t, i) => {
    const p = `tools[${i}]`;
    if (!isJsonObject(t)) throw badRequest(`${p} must be an object, got ${typeName(t)}.`, p, "invalid_type");
    if (t.type !== "function")
      throw badRequest(
        `${p}.type must be "function" (the only tool type this server runs), got ${JSON.stringify(t.type)}.`,
        `${p}.type`,
        "invalid_value",
      );
    const fn = t.function;
    if (!isJsonObject(fn))
      throw badRequest(`${p}.function must be an object, got ${typeName(fn)}.`, `${p}.function`, "invalid_type");
    expectString(fn.name, `${p}.function.name`);
    if (fn.parameters !== undefined && !isJsonObject(fn.parameters))
      throw badRequest(
        `${p}.function.parameters must be a JSON Schema object.`,
        `${p}.function.parameters`,
        "invalid_type",
      );
    return t;
  });
}

function toolName(t: JsonObject): string {
  return (t.function as JsonObject).name as string;
}

function namedChoice(v: JsonObject, param: string, names: readonly string[]): string {
  const fn = v.function;
  const name = isJsonObject(fn) ? fn.name : undefined;
  if (typeof name !== "string")
    throw badRequest(`${param}.function.name must be a string.`, `${param}.function.name`, "invalid_type");
  if (!names.includes(name))
    throw badRequest(
      `${param} names the tool ${JSON.stringify(name)}, which tools does not declare.`,
      param,
      "unknown_tool",
    );
  return name;
}

function readToolChoice(v: unknown, tools: readonly JsonObject[]): Pick<ChatRequest, "toolChoice" | "callable"> {
  const names = tools.map(toolName);
  if (v === undefined || v === null) return { toolChoice: tools.length > 0 ? "auto" : "none", callable: names };
  if (v === "auto" || v === "none" || v === "required") {
    if (v !== "none" && v !== "auto" && tools.length === 0)
      throw badRequest(`tool_choice "${v}" needs tools.`, "tool_choice", "invalid_value");
    return { toolChoice: tools.length === 0 ? "none" : v, callable: names };
  }
  if (!isJsonObject(v))
    throw badRequest(
      `tool_choice must be "auto", "none", "required" or an object, got ${JSON.stringify(v)}.`,
      "tool_choice",
      "invalid_value",
    );
  if (v.type === "function") return { toolChoice: { name: namedChoice(v, "tool_choice", names) }, callable: names };
  if (v.type === "allowed_tools") {
    const spec = v.allowed_tools;
    if (!isJsonObject(spec))
      throw badRequest(
        "tool_choice.allowed_tools must be an object {mode, tools}.",
        "tool_choice.allowed_tools",
        "invalid_type",
      );
    const mode = spec.mode ?? "auto";
    if (mode !== "auto" && mode !== "required")
      throw badRequest(
        `tool_choice.allowed_tools.mode must be "auto" or "required", got ${JSON.stringify(mode)}.`,
        "tool_choice.allowed_tools.mode",
        "invalid_value",
      );
    const list = spec.tools;
    if (!Array.isArray(list) || list.length === 0)
      throw badRequest(
        "tool_choice.allowed_tools.tools must be a non-empty array.",
        "tool_choice.allowed_tools.tools",
        "invalid_value",
      );
    const callable = list.map((t, i) => {
      const p = `tool_choice.allowed_tools.tools[${i}]`;
      if (!isJsonObject(t)) throw badRequest(`${p} must be an object.`, p, "invalid_type");
      return namedChoice(t, p, names);
    });
    return { toolChoice: mode, callable: [...new Set(callable)] };
  }
  throw badRequest(
    `tool_choice.type must be "function" or "allowed_tools", got ${JSON.stringify(v.type)}.`,
    "tool_choice.type",
    "invalid_value",
  );
}

function readResponseFormat(v: unknown): ResponseFormat {
  if (v === undefined || v === null) return { type: "text" };
  if (!isJsonObject(v))
    throw badRequest(`response_format must be an object, got ${typeName(v)}.`, "response_format", "invalid_type");
  if (v.type === "text" || v.type === "json_object") return { type: v.type };
  if (v.type !== "json_schema")
    throw badRequest(
      `response_format.type must be "text", "json_object" or "json_schema", got ${JSON.stringify(v.type)}.`,
      "response_format.type",
      "invalid_value",
    );
  const spec = v.json_schema;
  if (!isJsonObject(spec))
    throw badRequest(
      "response_format.json_schema must be an object {name, schema, strict}.",
      "response_format.json_schema",
      "invalid_type",
    );
  const schema = spec.schema ?? {};
  if (!isJsonObject(schema))
    throw badRequest(
      "response_format.json_schema.schema must be a JSON Schema object.",
      "response_format.json_schema.schema",
      "invalid_type",
    );
  const strict =
    spec.strict === undefined || spec.strict === null
      ? false
      : expectBoolean(spec.strict, "response_format.json_schema.strict");
  return {
    type: "json_schema",
    name: spec.name === undefined ? "response" : expectString(spec.name, "response_format.json_schema.name"),
    schema,
    strict,
  };
}

function readStop(v: unknown): string[] {
  if (v === undefined || v === null) return [];
  const list = typeof v === "string" ? [v] : v;
  if (!Array.isArray(list))
    throw badRequest(`stop must be a string or an array of strings, got ${typeName(v)}.`, "stop", "invalid_type");
  if (list.length > MAX_STOP)
    throw badRequest(`stop holds ${list.length} sequences; at most ${MAX_STOP} are allowed.`, "stop", "invalid_value");
  return list.map((s, i) => {
    const t = expectString(s, `stop[${i}]`);
    if (t === "") throw badRequest(`stop[${i}] is empty.`, `stop[${i}]`, "invalid_value");
    return t;
  });
}

/** Reads a parsed JSON body into a ChatRequest; every problem is a 400 naming its parameter. */
export function readChatRequest(body: unknown, defaultModel: string): ChatRequest {
  if (!isJsonObject(body))
    throw badRequest(`The request body must be a JSON object, got ${typeName(body)}.`, null, "invalid_type");
  const given = Object.fromEntries(Object.entries(body).filter(([, v]) => v !== null && v !== undefined));
  for (const [key, value] of Object.entries(given)) {
    if (SUPPORTED.has(key) || IGNORED.has(key)) continue;
    const neutral = NEUTRAL[key];
    if (neutral !== undefined) {
      if (neutral(value)) continue;
      throw badRequest(
        `${key} is not supported by this server (only its neutral value is accepted).`,
        key,
        "unsupported_parameter",
      );
    }
    throw badRequest(`Unrecognized request argument supplied: ${key}`, key, "unsupported_parameter");
  }
  const n = given.n === undefined ? 1 : expectNumber(given.n, "n", 1, 128, true);
  if (n !== 1) throw badRequest("n must be 1: this server returns one choice per request.", "n", "unsupported_value");
  const tools = readTools(given.tools);
  const choice = readToolChoice(given.tool_choice, tools);
  const responseFormat = readResponseFormat(given.response_format);
  if (responseFormat.type !== "text" && choice.toolChoice !== "none") {
    throw badRequest(
      'response_format together with callable tools is not supported: pass tool_choice "none" or leave out tools.',
      "response_format",
      "unsupported_value",
    );
  }
  const maxCompletion = given.max_completion_tokens ?? given.max_tokens;
  const param = given.max_completion_tokens !== undefined ? "max_completion_tokens" : "max_tokens";
  let includeUsage = false;
  if (given.stream_options !== undefined) {
    const so = given.stream_options;
    if (!isJsonObject(so))
      throw badRequest(`stream_options must be an object, got ${typeName(so)}.`, "stream_options", "invalid_type");
    if (so.include_usage !== undefined && so.include_usage !== null)
      includeUsage = expectBoolean(so.include_usage, "stream_options.include_usage");
  }
  return {
    model: given.model === undefined ? defaultModel : expectString(given.model, "model"),
    messages: readMessages(body.messages),
    tools,
    ...choice,
    parallelToolCalls:
      given.parallel_tool_calls === undefined ? true : expectBoolean(given.parallel_tool_calls, "parallel_tool_calls"),
    responseFormat,
    maxTokens: maxCompletion === undefined ? undefined : expectNumber(maxCompletion, param, 1, 1_000_000, true),
    temperature: given.temperature === undefined ? undefined : expectNumber(given.temperature, "temperature", 0, 2),
    topP: given.top_p === undefined ? undefined : expectNumber(given.top_p, "top_p", 0, 1),
    seed:
      given.seed === undefined
        ? undefined
        : expectNumber(given.seed, "seed", Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER, true),
    stop: readStop(given.stop),
    stream: given.stream === undefined ? false : expectBoolean(given.stream, "stream"),
    includeUsage,
    reasoningEffort: given.reasoning_effort === undefined ? undefined : readEffort(given.reasoning_effort),
    reasoningMode: given.reasoning_mode === undefined ? undefined : readReasoningMode(given.reasoning_mode),
  };
}

const EFFORTS = ["minimal", "low", "medium", "high"];

function readEffort(v: unknown): string {
  const effort = expectString(v, "reasoning_effort");
  if (!EFFORTS.includes(effort))
    throw badRequest(
      `reasoning_effort must be one of ${EFFORTS.join(", ")}; got ${JSON.stringify(effort)}.`,
      "reasoning_effort",
      "invalid_value",
    );
  return effort;
}

function readReasoningMode(v: unknown): "none" | "optional" | "required" {
  if (v === "none" || v === "optional" || v === "required") return v;
  throw badRequest(
    `reasoning_mode must be "none", "optional" or "required"; got ${JSON.stringify(v)}.`,
    "reasoning_mode",
    "invalid_value",
  );
}
