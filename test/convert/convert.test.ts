import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  fromAnthropicToolUse,
  fromMcpRequests,
  fromOpenAIToolCalls,
  parseQwen3ToolResponses,
  renderToolResponses,
  toAnthropicToolUse,
  toMcpRequests,
  toOpenAIToolCalls,
} from "../../src/convert/index.js";
import { ToolgramError } from "../../src/errors.js";
import { parseToolCalls } from "../../src/parser/parseToolCalls.js";
import { SEED, callsArb } from "../support/parser/arbitraries.js";

const text =
  '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call>\n<tool_call>\n{"name": "search", "arguments": {"query": "x"}}\n</tool_call>';

describe("conversions", () => {
  const calls = parseToolCalls(text).calls;

  it("OpenAI tool_calls with deterministic ids", () => {
    const oa = toOpenAIToolCalls(calls);
    expect(oa).toEqual([
      { id: "call_0000", type: "function", function: { name: "get_weather", arguments: '{"city":"Paris"}' } },
      { id: "call_0001", type: "function", function: { name: "search", arguments: '{"query":"x"}' } },
    ]);
    expect(toOpenAIToolCalls([{ name: "a", arguments: {}, id: "mine" }])[0].id).toBe("mine");
    expect(() => fromOpenAIToolCalls([{ function: { name: "a", arguments: "{oops" } }])).toThrow(ToolgramError);
  });

  it("Anthropic tool_use and MCP tools/call", () => {
    expect(toAnthropicToolUse(calls)[1]).toEqual({
      type: "tool_use",
      id: "toolu_0001",
      name: "search",
      input: { query: "x" },
    });
    expect(toMcpRequests(calls)[0]).toEqual({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "get_weather", arguments: { city: "Paris" } },
    });
    expect(
      fromAnthropicToolUse([{ type: "text", text: "hi" }, ...toAnthropicToolUse(calls)]).map((c) => c.name),
    ).toEqual(["get_weather", "search"]);
  });

  it("round trips through every shape", () => {
    fc.assert(
      fc.property(callsArb("mistral"), (cs) => {
        const withIds = cs.map((c, i) => ({ ...c, id: c.id ?? `id${i}` }));
        expect(fromOpenAIToolCalls(toOpenAIToolCalls(withIds))).toEqual(withIds);
        expect(fromAnthropicToolUse(toAnthropicToolUse(withIds))).toEqual(withIds);
        expect(fromMcpRequests(toMcpRequests(withIds))).toEqual(withIds);
      }),
      { seed: SEED, numRuns: 100 },
    );
  });

  it("tool responses as the format's turn, matched by position", () => {
    const turns = renderToolResponses(calls, [{ temp: 21 }, "no results"]);
    expect(turns).toEqual([
      {
        role: "user",
        content: '<tool_response>\n{"temp": 21}\n</tool_response>\n<tool_response>\nno results\n</tool_response>',
      },
    ]);
    expect(parseQwen3ToolResponses(turns[0].content)).toEqual(['{"temp": 21}', "no results"]);
    expect(renderToolResponses(calls, [1, 2], "mistral")[0]).toEqual({
      role: "tool",
      toolCallId: "call_0000",
      content: '[TOOL_RESULTS]{"call_id": "call_0000", "content": 1}[/TOOL_RESULTS]',
    });
    expect(renderToolResponses(calls, [1, 2], "llama3-json").map((t) => t.role)).toEqual(["ipython", "ipython"]);
    expect(() => renderToolResponses(calls, [1])).toThrow(/one result per call/);
  });
});
