import type { FormatDescription, JsonObjectUnit } from "../../formats/FormatDescription.js";
import { parseLenientJson } from "../lenientJson.js";
import type { ToolCallConstraint } from "../types.js";
import { interpretCall } from "../units/jsonObjectUnit.js";
import type { CallCollector } from "./CallCollector.js";

/** The call object of formats whose own unit is not a JSON object (pythonic): the common `{"name", "arguments"}`. */
const PLAIN_JSON_CALL: JsonObjectUnit = {
  kind: "json-object",
  nameKey: "name",
  argumentsKey: "arguments",
  argumentsAliases: ["parameters"],
  idKey: null,
  argumentsEncoding: "object",
};

/**
 * A Markdown code block of JSON outside any block (`text`, at offset `at`; its JSON content from `contentStart` to
 * `contentEnd`, relative): a drift where the model wrote its call as a code sample instead of in the format's
 * markers. When the JSON is a call object naming a declared tool, it is reported as FENCED_CALL; tolerant mode reads
 * it as a call (`"call"`: the text is not content), strict mode drops it (`"reported"`: the text stays content).
 * Anything else is ordinary text (`"text"`).
 */
export function assembleFencedCall<T extends ToolCallConstraint>(
  text: string,
  at: number,
  contentStart: number,
  contentEnd: number,
  d: FormatDescription,
  out: CallCollector<T>,
): "call" | "reported" | "text" {
  if (!out.hasTools) return "text";
  const r = parseLenientJson(text, contentStart, contentEnd);
  if (!r.ok || text.slice(r.end, contentEnd).trim() !== "") return "text";
  const unit = d.unit.kind === "json-object" ? d.unit : PLAIN_JSON_CALL;
  const c = interpretCall(r.value, unit, [...r.repairs]);
  if (!c.ok || !out.isDeclared(c.call.name)) return "text";
  const span: [number, number] = [at, at + text.length];
  if (out.mode === "strict") {
    out.drop(
      "FENCED_CALL",
      `a call of ${JSON.stringify(c.call.name)} in a Markdown code block, without the ${d.name} markers (strict mode reads only the format's own rendering)`,
      span,
      -1,
      text,
    );
    return "reported";
  }
  out.addCall(c.call, text, span, ["FENCED_CALL", ...c.repairs.map((x) => x.code)], out.callStart());
  return "call";
}
