import { ToolgramError } from "../errors.js";
import { isJsonObject } from "../json.js";
import type { JsonObject } from "../json.js";
import type { ConvertibleCall } from "./ConvertibleCall.js";

/** An MCP `tools/call` JSON-RPC request. */
export interface McpToolCallRequest {
  /** The JSON-RPC version, always `"2.0"`. */
  jsonrpc: "2.0";
  /** The request id: the call's own id when it has one, else a number counted up from `firstId`. */
  id: number | string;
  /** The MCP method, always `"tools/call"`. */
  method: "tools/call";
  /** The called tool's name and its arguments object (`{}` when the call had none). */
  params: { name: string; arguments: JsonObject };
}

/**
 * Calls as MCP `tools/call` requests; JSON-RPC ids are `firstId`, `firstId + 1`… (the call's own id when it has one).
 */
export function toMcpRequests(calls: readonly ConvertibleCall[], firstId = 1): McpToolCallRequest[] {
  return calls.map((c, i) => ({
    jsonrpc: "2.0",
    id: c.id ?? firstId + i,
    method: "tools/call",
    params: { name: c.name, arguments: c.arguments },
  }));
}

/**
 * MCP `tools/call` requests back to calls (a string JSON-RPC id becomes the call id). Throws ToolgramError
 * INVALID_INPUT.
 */
export function fromMcpRequests(requests: readonly unknown[]): ConvertibleCall[] {
  return requests.map((r, i) => {
    const p = isJsonObject(r) && r.method === "tools/call" && isJsonObject(r.params) ? r.params : undefined;
    if (!p || typeof p.name !== "string") {
      throw new ToolgramError("INVALID_INPUT", `requests[${i}] must be a tools/call request with params.name`, `/${i}`);
    }
    const args = p.arguments ?? {};
    if (!isJsonObject(args))
      throw new ToolgramError(
        "INVALID_INPUT",
        `requests[${i}].params.arguments must be an object`,
        `/${i}/params/arguments`,
      );
    const call: ConvertibleCall = { name: p.name, arguments: args };
    if (isJsonObject(r) && typeof r.id === "string") call.id = r.id;
    return call;
  });
}
