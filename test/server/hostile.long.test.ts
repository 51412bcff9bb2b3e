import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type RunningServer } from "../../src/server/index.js";
import { postRaw, tinyModel, TOOLS } from "../support/server/serverHarness.js";

/**
 * A hostile request corpus against `toolgram serve`: every request gets a 4xx in OpenAI's error shape (never a 5xx,
 * never a hang), and the server keeps serving.
 */
let server: RunningServer;
const user = [{ role: "user", content: "hi" }];

function nestedSchema(depth: number): object {
  let s: object = { type: "string" };
  for (let i = 0; i < depth; i++) s = { type: "object", properties: { a: s }, required: ["a"] };
  return s;
}

const withTool = (parameters: unknown) => [{ type: "function", function: { name: "f", parameters } }];

/** [name, body, expected status, expected param (undefined: any), expected code (undefined: any)] */
const CORPUS: Array<[string, string | (() => string), number, string | null | undefined, string | undefined]> = [
  ["invalid JSON", '{"messages": [', 400, null, "invalid_json"],
  ["empty body", "", 400, null, "invalid_json"],
  ["a JSON array", "[]", 400, null, "invalid_type"],
  ["a JSON string", '"hello"', 400, null, "invalid_type"],
  ["null", "null", 400, null, "invalid_type"],
  [
    "10 MB body",
    () => JSON.stringify({ messages: [{ role: "user", content: "x".repeat(10 * 1024 * 1024) }] }),
    413,
    null,
    "request_too_large",
  ],
  ["100,000-deep array", () => "[".repeat(100_000) + "]".repeat(100_000), 400, undefined, undefined],
  [
    "a 3,000-deep body",
    () => JSON.stringify({ messages: user, metadata: JSON.parse("[".repeat(3000) + "]".repeat(3000)) }),
    400,
    null,
    "nesting_too_deep",
  ],
  [
    "a 600-deep tool schema",
    () => JSON.stringify({ messages: user, tools: withTool(nestedSchema(600)) }),
    400,
    "tools[0]",
    "LIMIT_NESTING",
  ],
  [
    "5,000 tools",
    () =>
      JSON.stringify({
        messages: user,
        tools: Array.from({ length: 5000 }, (_, i) => ({
          type: "function",
          function: { name: `t${i}`, parameters: { type: "object" } },
        })),
      }),
    400,
    "tools",
    "too_many_tools",
  ],
  ["messages missing", JSON.stringify({ model: "m" }), 400, "messages", "invalid_type"],
  ["messages a string", JSON.stringify({ messages: "hi" }), 400, "messages", "invalid_type"],
  ["messages empty", JSON.stringify({ messages: [] }), 400, "messages", "invalid_value"],
  ["message a number", JSON.stringify({ messages: [1] }), 400, "messages[0]", "invalid_type"],
  ["bad role", JSON.stringify({ messages: [{ role: 5, content: "x" }] }), 400, "messages[0].role", "invalid_value"],
  [
    "content an object",
    JSON.stringify({ messages: [{ role: "user", content: { a: 1 } }] }),
    400,
    "messages[0].content",
    "invalid_type",
  ],
  [
    "image part",
    JSON.stringify({
      messages: [{ role: "user", content: [{ type: "image_url", image_url: { url: "file:///etc/passwd" } }] }],
    }),
    400,
    "messages[0].content[0].type",
    "unsupported_value",
  ],
  [
    "tool_calls a string",
    JSON.stringify({ messages: [{ role: "assistant", content: null, tool_calls: "x" }] }),
    400,
    "messages[0].tool_calls",
    "invalid_type",
  ],
  [
    "tool message without id",
    JSON.stringify({ messages: [{ role: "tool", content: "x" }] }),
    400,
    "messages[0].tool_call_id",
    "invalid_type",
  ],
  ["tools an object", JSON.stringify({ messages: user, tools: {} }), 400, "tools", "invalid_type"],
  [
    "tool without name",
    JSON.stringify({ messages: user, tools: [{ type: "function", function: {} }] }),
    400,
    "tools[0].function.name",
    "invalid_type",
  ],
  [
    "tool_choice a number",
    JSON.stringify({ messages: user, tools: TOOLS, tool_choice: 5 }),
    400,
    "tool_choice",
    "invalid_value",
  ],
  [
    "unknown tool in tool_choice",
    JSON.stringify({ messages: user, tools: TOOLS, tool_choice: { type: "function", function: { name: "rm_rf" } } }),
    400,
    "tool_choice",
    "unknown_tool",
  ],
  [
    "required without tools",
    JSON.stringify({ messages: user, tool_choice: "required" }),
    400,
    "tool_choice",
    "invalid_value",
  ],
  [
    "a backreference pattern",
    JSON.stringify({
      messages: user,
      tools: [TOOLS[0], ...withTool({ type: "object", properties: { x: { type: "string", pattern: "(a)\\1" } } })],
    }),
    400,
    "tools[1]",
    "UNSUPPORTED_PATTERN",
  ],
  [
    "a $ref to a file",
    JSON.stringify({ messages: user, tools: withTool({ $ref: "file:///etc/passwd" }) }),
    400,
    "tools[0]",
    undefined,
  ],
  [
    "an unsatisfiable schema",
    JSON.stringify({
      messages: user,
      tools: withTool({
        type: "object",
        properties: { n: { type: "integer", minimum: 5, maximum: 1 } },
        required: ["n"],
      }),
    }),
    400,
    "tools[0]",
    undefined,
  ],
  ["temperature a string", JSON.stringify({ messages: user, temperature: "hot" }), 400, "temperature", "invalid_type"],
  ["temperature 5", JSON.stringify({ messages: user, temperature: 5 }), 400, "temperature", "invalid_value"],
  ["max_tokens -1", JSON.stringify({ messages: user, max_tokens: -1 }), 400, "max_tokens", "invalid_value"],
  [
    "max_tokens 1.5",
    JSON.stringify({ messages: user, max_completion_tokens: 1.5 }),
    400,
    "max_completion_tokens",
    "invalid_type",
  ],
  [
    "max_tokens past the context",
    JSON.stringify({ messages: user, max_tokens: 1_000_000 }),
    400,
    "messages",
    "context_length_exceeded",
  ],
  [
    "a prompt longer than the context",
    JSON.stringify({ messages: [{ role: "user", content: "hello ".repeat(2000) }] }),
    400,
    "messages",
    "context_length_exceeded",
  ],
  ["n 2", JSON.stringify({ messages: user, n: 2 }), 400, "n", "unsupported_value"],
  ["stream a string", JSON.stringify({ messages: user, stream: "yes" }), 400, "stream", "invalid_type"],
  ["stop numbers", JSON.stringify({ messages: user, stop: [1] }), 400, "stop[0]", "invalid_type"],
  ["five stops", JSON.stringify({ messages: user, stop: ["a", "b", "c", "d", "e"] }), 400, "stop", "invalid_value"],
  ["response_format 7", JSON.stringify({ messages: user, response_format: 7 }), 400, "response_format", "invalid_type"],
  [
    "response_format with tools",
    JSON.stringify({ messages: user, tools: TOOLS, response_format: { type: "json_object" } }),
    400,
    "response_format",
    "unsupported_value",
  ],
  [
    "a bad json_schema",
    JSON.stringify({
      messages: user,
      response_format: { type: "json_schema", json_schema: { name: "x", schema: { type: "strnig" } } },
    }),
    400,
    "response_format.json_schema.schema",
    undefined,
  ],
  ["logprobs", JSON.stringify({ messages: user, logprobs: true }), 400, "logprobs", "unsupported_parameter"],
  [
    "an unknown parameter",
    JSON.stringify({ messages: user, grammar: "root ::= x" }),
    400,
    "grammar",
    "unsupported_parameter",
  ],
  ["legacy functions", JSON.stringify({ messages: user, functions: [] }), 400, "functions", "unsupported_parameter"],
];

describe("toolgram serve: hostile requests get 4xx and nothing else", () => {
  beforeAll(async () => {
    server = await startServer({ model: await tinyModel(), port: 0, contextSize: 1024 });
  });
  afterAll(async () => {
    await server?.close();
  });

  it.each(CORPUS)("%s", async (_name, body, status, param, code) => {
    const r = await postRaw(server.url, typeof body === "function" ? body() : body);
    expect(r.status, JSON.stringify(r.json).slice(0, 300)).toBe(status);
    expect(Object.keys(r.json.error).sort()).toEqual(["code", "message", "param", "type"]);
    expect(typeof r.json.error.message).toBe("string");
    if (param !== undefined) expect(r.json.error.param).toBe(param);
    if (code !== undefined) expect(r.json.error.code).toBe(code);
  });

  it("a bad schema's error names the ToolgramError code and the schema path", async () => {
    const r = await postRaw(
      server.url,
      JSON.stringify({
        messages: user,
        tools: [TOOLS[0], ...withTool({ type: "object", properties: { x: { type: "string", pattern: "(a)\\1" } } })],
      }),
    );
    expect(r.json.error.message).toContain("UNSUPPORTED_PATTERN");
    expect(r.json.error.message).toContain("(schema path tools/1/function/parameters/properties/x)");
  });

  it("unknown routes are OpenAI-shaped 404s; the server still serves", async () => {
    const r = await fetch(`${server.url}/v1/completions`, { method: "POST", body: "{}" });
    expect(r.status).toBe(404);
    expect(((await r.json()) as { error: { code: string } }).error.code).toBe("unknown_url");
    const ok = await postRaw(server.url, JSON.stringify({ messages: user, max_tokens: 4, seed: 1 }));
    expect(ok.status).toBe(200);
    expect(ok.json.choices[0].message.role).toBe("assistant");
    const metrics = await (await fetch(`${server.url}/metrics`)).text();
    expect(metrics).not.toMatch(/toolgram_requests_total\{[^}]*status="5\d\d"/);
  });
});
