import fc from "fast-check";
import type { JsonObject, JsonValue } from "../../../src/json.js";
import { FORMAT_DESCRIPTIONS } from "../../../src/formats/descriptions.js";
import { callIdForm, callIdPattern } from "../../../src/formats/callIdForm.js";
import { rawValueForbidden } from "../../../src/formats/rawValueForbidden.js";
import { renderToolCalls, type CallToRender } from "../../../src/parser/renderToolCalls.js";
import type { FormatName } from "../../../src/formats/FormatName.js";

/** Fixed seed for every property here; a failure prints it (fast-check also prints its own replay path). */
export const SEED = Number(process.env.TOOLGRAM_SEED ?? 20261122);

/** Strings rich in what the scanners care about: markers, quotes, brackets, escapes, newlines. */
const tricky = fc.constantFrom(
  "<tool_call>",
  "</tool_call>",
  "<tool_",
  "</tool",
  "<tools>",
  "</tools>",
  "[TOOL_CALLS]",
  "<functioncall>",
  "<|python_tag|>",
  '"',
  "'",
  "\\",
  "\u201c",
  "\u201d",
  "{",
  "}",
  "[",
  "]",
  "(",
  ")",
  ",",
  ":",
  "\n",
  " ",
  "\t",
  "é",
  "😀",
);
export const trickyString = fc
  .array(fc.oneof(tricky, fc.string({ maxLength: 4 })), { maxLength: 12 })
  .map((a) => a.join(""));

const key = fc.oneof(fc.constantFrom("city", "q", "n", "flag", "items"), fc.stringMatching(/^[a-z_][a-z0-9_]{0,6}$/));
const leaf: fc.Arbitrary<JsonValue> = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer({ min: -1000, max: 1000 }),
  fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 }).map((x) => (Object.is(x, -0) ? 0 : x)),
  trickyString,
);
export const jsonValue: fc.Arbitrary<JsonValue> = fc.letrec<{ v: JsonValue }>((tie) => ({
  v: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    leaf,
    fc.array(tie("v"), { maxLength: 3 }),
    fc.dictionary(key, tie("v"), { maxKeys: 3 }) as fc.Arbitrary<JsonValue>,
  ),
})).v;
export const argsObject: fc.Arbitrary<JsonObject> = fc.dictionary(key, jsonValue, {
  maxKeys: 4,
}) as fc.Arbitrary<JsonObject>;

export const toolName = fc.oneof(
  fc.constantFrom("get_weather", "search", "f"),
  fc.stringMatching(/^[a-z][a-z0-9_]{0,10}$/),
);

export function callArb(format: FormatName): fc.Arbitrary<CallToRender> {
  const u = FORMAT_DESCRIPTIONS[format].unit;
  const idForm =
    u.kind === "json-object" && u.idKey !== null && u.nameKey !== null
      ? callIdForm(u.idForm)
      : u.kind === "name-then-json" && u.idMarker !== undefined
        ? callIdForm(u.idForm)
        : null;
  // ids the format can write (a name-then-json id must match its form: the renderer refuses others)
  const ids =
    idForm === null
      ? fc.constant(undefined)
      : fc.option(fc.stringMatching(callIdPattern({ ...idForm, maxLength: Math.min(idForm.maxLength, 9) })), {
          nil: undefined,
        });
  return fc
    .record({ name: toolName, arguments: argsObject, id: ids })
    .map((c) => {
      const out: CallToRender = { name: c.name, arguments: c.arguments };
      if (c.id !== undefined) out.id = c.id;
      return out;
    })
    .filter((c) => writableTagged(format, c));
}

/**
 * Tagged-parameter formats (qwen3-coder) write strings raw: without a schema, a string that reads as another JSON
 * value (`"42"`) comes back as that value, and no value may hold the format's markers (the renderer refuses them).
 */
function writableTagged(format: FormatName, c: CallToRender): boolean {
  const d = FORMAT_DESCRIPTIONS[format];
  if (d.unit.kind === "xml-elements") return writableElements(d.unit.tagPrefix, d.unit.itemTag, c.arguments);
  if (d.unit.kind !== "xml-parameters") return true;
  const forbidden = rawValueForbidden(d);
  if (forbidden.some((m) => JSON.stringify(c.arguments).includes(m))) return false;
  return Object.values(c.arguments).every((v) => {
    if (typeof v !== "string") return true;
    try {
      return typeof JSON.parse(v.trim()) === "string";
    } catch {
      return true;
    }
  });
}

/**
 * MiniMax M3's nested elements (xml-elements) carry no types: without a schema the reader takes a text that spells a
 * number or boolean as one, an empty element as "", and elements all named like the item tag as an array; the
 * template drops null members and writes strings raw (never holding the tag prefix). Values that the text alone
 * reads back otherwise are left out here (with a schema they are typed by it: test/formats/minimaxM3.test.ts).
 */
function writableElements(prefix: string, itemTag: string, v: JsonValue): boolean {
  if (v === null) return false;
  if (typeof v === "string")
    return (
      v !== "" &&
      v !== "true" &&
      v !== "false" &&
      !/^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?$/.test(v) &&
      !v.includes(prefix)
    );
  if (Array.isArray(v)) return v.length > 0 && v.every((x) => writableElements(prefix, itemTag, x));
  if (typeof v === "object") {
    const keys = Object.keys(v);
    return (
      keys.length > 0 && !keys.every((k) => k === itemTag) && keys.every((k) => writableElements(prefix, itemTag, v[k]))
    );
  }
  return true;
}

export function callsArb(format: FormatName): fc.Arbitrary<CallToRender[]> {
  const u = FORMAT_DESCRIPTIONS[format].unit;
  const calls = fc.array(callArb(format), {
    minLength: 1,
    maxLength: FORMAT_DESCRIPTIONS[format].maxCalls === 1 ? 1 : 3,
  });
  // Kimi K2's ids are the calls' heads (`functions.NAME:IDX`), counted through the turn: what parsing reads back
  const indexed = u.kind === "named-json" ? u.callIndex : undefined;
  // Kimi K3's `index="N"`, counted from 1, is the call's id too
  const numbered = u.kind === "xml-parameters" ? u.callIndex : undefined;
  if (numbered !== undefined) return calls.map((cs) => cs.map((c, i) => ({ ...c, id: String(i + numbered.base) })));
  return indexed === undefined
    ? calls
    : calls.map((cs) =>
        cs.map((c, i) => ({ ...c, id: `${indexed.namePrefix}${c.name}${indexed.indexSeparator}${i}` })),
      );
}

/** A realistic reply: text, then the rendered calls (start-anchored formats: the calls alone). */
export function replyArb(format: FormatName): fc.Arbitrary<string> {
  const anchored = FORMAT_DESCRIPTIONS[format].open === null && FORMAT_DESCRIPTIONS[format].section === undefined;
  return fc
    .tuple(anchored ? fc.constant("") : trickyString, callsArb(format), fc.boolean())
    .map(([pre, calls, sep]) => (pre ? pre + (sep ? "\n" : "") : "") + renderToolCalls(calls, format));
}

/** Mutations of a text: delete, insert tricky text, duplicate, truncate. */
export function mutated(base: fc.Arbitrary<string>): fc.Arbitrary<string> {
  const op = fc.tuple(fc.nat(), fc.nat({ max: 8 }), fc.constantFrom("del", "ins", "trunc", "dup"), trickyString);
  return fc.tuple(base, fc.array(op, { maxLength: 4 })).map(([s, ops]) => {
    for (const [at, len, kind, ins] of ops) {
      const p = s.length === 0 ? 0 : at % (s.length + 1);
      if (kind === "del") s = s.slice(0, p) + s.slice(p + len);
      else if (kind === "ins") s = s.slice(0, p) + ins + s.slice(p);
      else if (kind === "trunc") s = s.slice(0, p);
      else s = s.slice(0, p) + s.slice(p, p + len * 4) + s.slice(p);
    }
    return s;
  });
}

/** Cut points to split a text into chunks. */
export function chunked(text: string, cuts: number[]): string[] {
  const pts = [...new Set(cuts.map((c) => (text.length === 0 ? 0 : c % (text.length + 1))))].sort((a, b) => a - b);
  const out: string[] = [];
  let last = 0;
  for (const p of pts) {
    out.push(text.slice(last, p));
    last = p;
  }
  out.push(text.slice(last));
  return out;
}
