import { readFileSync } from "node:fs";
import { FORMAT_DESCRIPTIONS, FORMAT_NAMES } from "../../../src/formats/descriptions.js";
import type { FormatName } from "../../../src/formats/FormatName.js";
import type { FormatDescription } from "../../../src/formats/FormatDescription.js";
import type { CallToRender } from "../../../src/parser/renderToolCalls.js";

/** The formats compiled by describedEnvelope: every format (qwen3, the default, also has its own tests). */
export const DESCRIBED_FORMATS: readonly FormatName[] = FORMAT_NAMES;

/** Nested objects, enums with apostrophes, quotes, non-ASCII and keyword values, numbers, any-values. */
export const MIXED_TOOLS = [
  {
    name: "note",
    parameters: {
      type: "object",
      properties: {
        text: { type: "string" },
        n: { type: "number" },
        k: { type: "integer", minimum: 0, maximum: 100 },
        flag: { type: ["boolean", "null"] },
        tag: { enum: ["it's", 'a"b', "über\n", null, true, 3] },
        meta: {
          type: "object",
          properties: {
            xs: {
              type: "array",
              items: { type: "string", maxLength: 6 },
              maxItems: 3,
            },
            deep: {
              type: "object",
              properties: {
                q: { type: "string", maxLength: 5 },
                on: { type: "boolean" },
              },
              required: ["on"],
            },
          },
        },
        any: {},
      },
      required: ["text"],
    },
  },
  { name: "ping", parameters: { type: "object", properties: {} } },
];

/**
 * MIXED_TOOLS as a tagged-parameter format (qwen3-coder) can write them: a parameter is either only strings (raw) or
 * never a string (JSON), so the mixed enum keeps its strings and the any-value its non-strings.
 */
export const MIXED_TOOLS_TAGGED = MIXED_TOOLS.map((t) =>
  t.name !== "note"
    ? t
    : {
        ...t,
        parameters: {
          ...t.parameters,
          properties: {
            ...t.parameters.properties,
            tag: { enum: ["it's", 'a"b', "über\n"] },
            any: { type: ["object", "array", "number", "boolean", "null"] },
          },
        },
      },
);

/** The mixed tools a format can carry (see MIXED_TOOLS_TAGGED). */
export function mixedToolsFor(format: FormatName): unknown[] {
  return FORMAT_DESCRIPTIONS[format].unit.kind === "xml-parameters" ? MIXED_TOOLS_TAGGED : MIXED_TOOLS;
}

export const SMALL_TOOLS = [
  {
    name: "get_weather",
    parameters: {
      type: "object",
      properties: {
        city: { type: "string", maxLength: 12 },
        unit: { enum: ["c", "f"] },
      },
      required: ["city"],
    },
  },
  { name: "ping", parameters: { type: "object", properties: {} } },
];

export function exampleTools(name: string): unknown[] {
  return JSON.parse(
    readFileSync(new URL(`../../../examples/${name}.tools.json`, import.meta.url), "utf8"),
  ) as unknown[];
}

/**
 * The calls as the format's grammar allows them: a unit with an `idForm` (its templates write an id in every call, so
 * its grammar requires one) gets an id of that form per call (indices for digits); other formats' calls are unchanged.
 */
export function withFormatIds(calls: readonly CallToRender[], format: string): CallToRender[] {
  // a format derived from a template (no built-in description) keeps its calls
  const u = (FORMAT_DESCRIPTIONS as Readonly<Record<string, FormatDescription | undefined>>)[format]?.unit;
  const form = u !== undefined && "idForm" in u ? u.idForm : undefined;
  if (form === undefined) return [...calls];
  const id = (i: number) =>
    form.alphabet === "digits" ? String(i) : `call${i}ABCDEFGHIJKLMNOPQRSTUVWXYZ`.slice(0, Math.max(form.minLength, 5));
  return calls.map((c, i) => ({ ...c, id: id(i) }));
}
