import AjvModule from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { compileTools } from "../../src/compile.js";
import { FORMAT_DESCRIPTIONS, FORMAT_NAMES } from "../../src/formats/descriptions.js";
import type { FormatDescription } from "../../src/formats/FormatDescription.js";
import type { JsonObject } from "../../src/json.js";
import { renderToolCalls } from "../../src/parser/renderToolCalls.js";
import { withFormatIds } from "../support/envelope/formatTools.js";

const Ajv = AjvModule.default;

const TOOL = {
  name: "get_weather",
  parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
};
const ARGS = { city: "Paris" };

/** The key of a call's id in the format's call objects (`id` in a call's content as JSON), when its calls carry one. */
function idKeyOf(d: FormatDescription): string | undefined {
  const u = d.unit;
  if (u.kind === "json-object")
    return u.nameKey === null || u.argumentsEncoding !== "object" ? undefined : (u.idKey ?? undefined);
  if (u.kind === "name-then-json") return u.idMarker === undefined ? undefined : "id";
  return undefined;
}

/** The call as the format's schema describes it: its own keys for a JSON object, else `{name, id, arguments}`. */
function callObject(d: FormatDescription, id: string | undefined): JsonObject {
  const u = d.unit.kind === "json-object" ? d.unit : undefined;
  const object: JsonObject = { [u?.nameKey ?? "name"]: TOOL.name };
  if (id !== undefined) object[idKeyOf(d) as string] = id;
  object[u?.argumentsKey ?? "arguments"] = ARGS;
  return object;
}

const WITH_IDS = FORMAT_NAMES.filter((f) => idKeyOf(FORMAT_DESCRIPTIONS[f]) !== undefined);

/**
 * The JSON Schema export and the grammar agree on call ids: where the format's unit names an `idForm` (its templates
 * write an id in every call), a call without an id is rejected by both; where it does not, both take a call with or
 * without one.
 */
describe("toJsonSchema requires a call's id where the grammar does", () => {
  it("some formats fix their ids' form and some do not", () => {
    const fixed = WITH_IDS.filter((f) => "idForm" in FORMAT_DESCRIPTIONS[f].unit);
    expect(fixed.length).toBeGreaterThan(0);
    expect(fixed.length).toBeLessThan(WITH_IDS.length);
  });

  it.each(WITH_IDS)("%s", (format) => {
    const d = FORMAT_DESCRIPTIONS[format];
    const compiled = compileTools([TOOL], { format, toolChoice: "required" });
    const validate = new Ajv({ strict: false }).compile(compiled.toJsonSchema() as JsonObject);
    const withId = withFormatIds([{ name: TOOL.name, arguments: ARGS }], format)[0];
    const id = typeof withId.id === "string" ? withId.id : "call0ABCDE";
    const without = { name: TOOL.name, arguments: ARGS };
    // the grammar and the schema take the call with an id of the format's form
    expect(compiled.accepts(renderToolCalls([{ ...without, id }], format))).toBe(true);
    expect(validate(callObject(d, id))).toBe(true);
    // and both require the id exactly where the unit names its form
    const required = "idForm" in d.unit && d.unit.idForm !== undefined;
    expect(compiled.accepts(renderToolCalls([without], format))).toBe(!required);
    expect(validate(callObject(d, undefined))).toBe(!required);
  });
});
