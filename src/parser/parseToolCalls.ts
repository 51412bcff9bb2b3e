import { ToolCallStream } from "./ToolCallStream.js";
import type { ParseOptions, ParseResult, ToolCallConstraint, ToolCallShape } from "./types.js";

/**
 * Reads the tool calls out of a model's reply. Never throws on model output: problems and repairs are `issues`,
 * unreadable calls are counted in `dropped`, calls whose tool is undeclared or whose arguments fail its schema have
 * `valid: false`. `TCalls` (a union of `{ name: "x"; arguments: X }`) types the calls; it is not checked at run time
 * beyond ajv's validation, so narrow on `call.valid` first.
 *
 * @param options.format wire format @defaultValue "qwen3"
 * @param options.mode "strict" (canonical rendering only) or "tolerant" (repair drifts) @defaultValue "tolerant"
 */
export function parseToolCalls<TCalls extends ToolCallConstraint = ToolCallShape>(
  text: string,
  options: ParseOptions = {},
): ParseResult<TCalls> {
  const stream = new ToolCallStream<TCalls>(options);
  stream.push(typeof text === "string" ? text : String(text));
  return stream.end();
}
