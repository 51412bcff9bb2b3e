import { ToolgramError } from "../errors.js";
import { isJsonObject } from "../json.js";
import type { JsonObject } from "../json.js";
import { callId, type ConvertibleCall } from "./ConvertibleCall.js";

/** An Anthropic Messages API `tool_use` content block. */
export interface AnthropicToolUse {
  /** The content block's type, always `"tool_use"`. */
  type: "tool_use";
  /** The call id: the call's own, else minted `toolu_0000`, `toolu_0001`… by position. */
  id: string;
  /** The called tool's name. */
  name: string;
  /** The call's arguments, as an object (never a JSON text). */
  input: JsonObject;
}

/** Calls as Anthropic `tool_use` blocks; ids minted `toolu_0000`… unless given. */
export function toAnthropicToolUse(calls: readonly ConvertibleCall[]): AnthropicToolUse[] {
  return calls.map((c, i) => ({ type: "tool_use", id: callId(c, i, "toolu_"), name: c.name, input: c.arguments }));
}

/**
 * `tool_use` blocks (other content blocks are skipped) back to calls. Throws ToolgramError INVALID_INPUT on a malformed
 * block.
 */
export function fromAnthropicToolUse(blocks: readonly unknown[]): ConvertibleCall[] {
  const out: ConvertibleCall[] = [];
  blocks.forEach((b, i) => {
    if (!isJsonObject(b) || b.type !== "tool_use") return;
    if (typeof b.name !== "string" || !isJsonObject(b.input)) {
      throw new ToolgramError(
        "INVALID_INPUT",
        `content[${i}] (tool_use) needs a string name and an object input`,
        `/${i}`,
      );
    }
    const call: ConvertibleCall = { name: b.name, arguments: b.input };
    if (typeof b.id === "string") call.id = b.id;
    out.push(call);
  });
  return out;
}
