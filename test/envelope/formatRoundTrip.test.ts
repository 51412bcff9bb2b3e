/**
 * For every format compiled from a parser description: the renderer's text of valid calls is in the grammar's
 * language; every text the grammar produces parses strictly with zero issues into valid calls within the policy;
 * the regex and the token matcher agree with accepts().
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compileTools, type ToolCompileOptions } from "../../src/compile.js";
import type { CompiledGrammar } from "../../src/CompiledGrammar.js";
import type { JsonObject } from "../../src/json.js";
import { FORMAT_DESCRIPTIONS } from "../../src/formats/descriptions.js";
import { callIdForm, callIdPattern } from "../../src/formats/callIdForm.js";
import { parseToolCalls } from "../../src/parser/parseToolCalls.js";
import { renderToolCalls, type CallToRender } from "../../src/parser/renderToolCalls.js";
import type { FormatName } from "../../src/formats/FormatName.js";
import { mutateText, sampleGrammar } from "../../src/testing/sampleGrammar.js";
import { seededRandom } from "../../src/util/seededRandom.js";
import { Vocabulary } from "../../src/vocab/Vocabulary.js";
import { jsonValue, SEED, trickyString } from "../support/parser/arbitraries.js";
import { tierRotate, tierRuns, tierSample } from "../support/tier.js";
import { rawValueForbidden } from "../../src/formats/rawValueForbidden.js";
import { gemma4Writable } from "../../src/formats/gemma4Values.js";
import { DESCRIBED_FORMATS, exampleTools, mixedToolsFor, SMALL_TOOLS } from "../support/envelope/formatTools.js";

const toolSets = (format: FormatName): Record<string, unknown[]> => ({
  small: SMALL_TOOLS,
  mixed: mixedToolsFor(format),
  weather: exampleTools("weather"),
  "mcp-filesystem": exampleTools("mcp-filesystem"),
});

const POLICIES: ToolCompileOptions[] = [{}, { toolChoice: "required", parallel: 2 }];

function strict(text: string, tools: readonly unknown[], format: FormatName) {
  return parseToolCalls(text, { tools, format, mode: "strict" });
}

const callsOf = (r: ReturnType<typeof strict>): CallToRender[] =>
  r.calls.map((c) => ({
    name: c.name,
    arguments: c.arguments,
    ...(c.id !== undefined ? { id: c.id } : {}),
  }));

describe("grammar → strict parse → render → grammar", () => {
  for (const [formatIndex, format] of DESCRIBED_FORMATS.entries()) {
    const grid = Object.entries(toolSets(format)).flatMap(([setName, tools]) =>
      POLICIES.map((policy) => ({ setName, tools, policy })),
    );
    // the quick tier runs 1 of the 8 (tool set, policy) pairs per format, rotating, so each pair runs for some formats
    for (const { setName, tools, policy } of tierRotate(grid, formatIndex, 8)) {
      it(`${format}, ${setName}, ${JSON.stringify(policy)} (seed ${SEED})`, () => {
        const g = compileTools(tools, { format, ...policy });
        const maxCalls = Math.min(FORMAT_DESCRIPTIONS[format].maxCalls, policy.parallel === 2 ? 2 : Infinity);
        const random = seededRandom(SEED);
        const problems: string[] = [];
        let withCalls = 0;
        let overflow = 0;
        for (let k = 0; k < 40; k++) {
          const text = sampleGrammar(g.grammar, random, { maxLength: 800 });
          if (text === undefined) continue;
          expect(g.accepts(text)).toBe(true);
          const r = strict(text, tools, format);
          // numbers beyond double range (1e400) are JSON the grammar spells but no call can carry
          if (
            r.issues.some((i) => i.code === "INVALID_JSON" && /out of range/.test(i.message)) ||
            /[eE]\+?0*[1-9][0-9]{2}/.test(text)
          ) {
            overflow++;
            continue;
          }
          if (r.issues.length > 0 || r.dropped > 0 || !r.calls.every((c) => c.valid) || r.calls.length > maxCalls) {
            problems.push(
              `${JSON.stringify(r.issues.map((i) => `${i.code}: ${i.message}`))} :: ${JSON.stringify(text)}`,
            );
            continue;
          }
          if (policy.toolChoice === "required" && r.calls.length === 0)
            problems.push(`no call under required :: ${JSON.stringify(text)}`);
          if (r.calls.length === 0) continue;
          withCalls++;
          // the canonical rendering of what was read is in the language and reads back to the same calls
          const again = renderToolCalls(callsOf(r), format);
          // except that the renderer writes integers of 22+ digits with an exponent (1e+152), which integer grammars
          // do not spell
          const accepted = g.accepts(again);
          if (!accepted && !/[0-9]e\+/.test(again))
            problems.push(`re-rendered text rejected :: ${JSON.stringify(again)}`);
          const back = strict(again, tools, format);
          if (!accepted) {
            // strict parsing with tools defers to the grammar: such a call is dropped
            expect(back.dropped).toBeGreaterThan(0);
            expect(new Set(back.issues.map((i) => i.code))).toEqual(new Set(["NONCANONICAL"]));
            continue;
          }
          expect(back.issues).toEqual([]);
          expect(callsOf(back)).toEqual(callsOf(r));
        }
        expect(problems).toEqual([]);
        expect(withCalls).toBeGreaterThan(policy.toolChoice === "required" ? 20 : 2);
        expect(overflow).toBeLessThan(20);
      });
    }
  }
});

/**
 * Arguments of the mixed tools' `note`, valid by construction. For a tagged-parameter format (mixedToolsFor) the
 * tag is a string, the any-value not a string, and no raw string holds a text the format cannot write raw.
 */
const noteArgs = (format: FormatName): fc.Arbitrary<JsonObject> => {
  const d = FORMAT_DESCRIPTIONS[format];
  const tagged = d.unit.kind === "xml-parameters";
  // Gemma 4 writes keys bare and strings raw: an any-value it cannot write is no valid call of it
  const gemma4 = d.unit.kind === "gemma4-call";
  // MiniMax M3's template drops null members and writes values untyped: see elementsWritableAny
  const elements = d.unit.kind === "xml-elements";
  const forbidden = rawValueForbidden(d);
  return fc
    .record(
      {
        text: trickyString.filter((s) => !forbidden.some((m) => s.includes(m))),
        n: fc
          .oneof(
            fc.integer({ min: -1e9, max: 1e9 }),
            fc.double({
              noNaN: true,
              noDefaultInfinity: true,
              min: -1e12,
              max: 1e12,
            }),
          )
          .map((x) => (Object.is(x, -0) ? 0 : x)),
        k: fc.integer({ min: 0, max: 100 }),
        flag: elements ? fc.constantFrom(true, false) : fc.constantFrom(true, false, null),
        tag: tagged
          ? fc.constantFrom("it's", 'a"b', "über\n")
          : elements
            ? fc.constantFrom("it's", 'a"b', "über\n", true, 3)
            : fc.constantFrom("it's", 'a"b', "über\n", null, true, 3),
        meta: fc.record(
          {
            xs: fc.array(fc.string({ maxLength: 6, unit: "grapheme-ascii" }), {
              maxLength: 3,
            }),
            deep: fc.record(
              {
                q: fc.string({ maxLength: 5 }).filter((s) => [...s].length <= 5),
                on: fc.boolean(),
              },
              { requiredKeys: ["on"] },
            ),
          },
          { requiredKeys: [] },
        ),
        any: tagged
          ? jsonValue.filter((v) => typeof v !== "string" && !forbidden.some((m) => JSON.stringify(v).includes(m)))
          : gemma4
            ? jsonValue.filter((v) => gemma4Writable(v, d))
            : elements
              ? jsonValue.filter((v) => elementsWritableAny(v, forbidden))
              : jsonValue,
      },
      { requiredKeys: ["text"] },
    )
    .map((a) => a as JsonObject);
};

/**
 * A value of any type as MiniMax M3's grammar writes one (lowerXmlElements): no null (a null member is dropped, a null
 * item would be the empty element, which reads as ""), no object (its keys are undeclared), a string that spells no
 * number or boolean and holds no forbidden text, a non-empty list (the empty element is "").
 */
function elementsWritableAny(v: unknown, forbidden: readonly string[]): boolean {
  if (typeof v === "string")
    return (
      v !== "true" &&
      v !== "false" &&
      !/^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?$/.test(v) &&
      !forbidden.some((m) => v.includes(m))
    );
  if (Array.isArray(v)) return v.length > 0 && v.every((x) => elementsWritableAny(x, forbidden));
  return typeof v === "number" || typeof v === "boolean";
}

/**
 * Ids a format's grammar allows (its unit's idForm: then required, as its templates write one in every call; else
 * optional), or none when the format has no ids.
 */
function idArbFor(format: FormatName): fc.Arbitrary<string | undefined> | null {
  const u = FORMAT_DESCRIPTIONS[format].unit;
  const form =
    (u.kind === "json-object" && u.idKey !== null && u.nameKey !== null) ||
    (u.kind === "name-then-json" && u.idMarker !== undefined)
      ? callIdForm(u.idForm)
      : null;
  if (form === null) return null;
  const id = fc.stringMatching(callIdPattern({ ...form, maxLength: Math.min(form.maxLength, 12) }));
  return "idForm" in u && u.idForm !== undefined ? id : fc.option(id, { nil: undefined });
}

function callsArb(format: FormatName): fc.Arbitrary<CallToRender[]> {
  const withId = idArbFor(format) !== null;
  const idArb = idArbFor(format) ?? fc.constant(undefined);
  const call = fc.oneof(
    fc.record({ args: noteArgs(format), id: idArb }).map(
      ({ args, id }): CallToRender => ({
        name: "note",
        arguments: args,
        ...(withId && id !== undefined ? { id } : {}),
      }),
    ),
    fc.record({ id: idArb }).map(
      ({ id }): CallToRender => ({
        name: "ping",
        arguments: {},
        ...(withId && id !== undefined ? { id } : {}),
      }),
    ),
  );
  const calls = fc.array(call, {
    minLength: 1,
    maxLength: Math.min(3, FORMAT_DESCRIPTIONS[format].maxCalls),
  });
  // Kimi K2's ids are the calls' heads (`functions.NAME:IDX`), counted through the turn: what parsing reads back
  const u = FORMAT_DESCRIPTIONS[format].unit;
  const indexed = u.kind === "named-json" ? u.callIndex : undefined;
  // Kimi K3's `index="N"`, counted from 1, is the call's id too
  const numbered = u.kind === "xml-parameters" ? u.callIndex : undefined;
  if (numbered !== undefined) return calls.map((cs) => cs.map((c, i) => ({ ...c, id: String(i + numbered.base) })));
  return indexed === undefined
    ? calls
    : calls.map((cs) =>
        cs.map((c, i) => ({
          ...c,
          id: `${indexed.namePrefix}${c.name}${indexed.indexSeparator}${i}`,
        })),
      );
}

describe("render → accepts → strict parse → the same calls", () => {
  for (const format of DESCRIBED_FORMATS) {
    it(`${format} (seed ${SEED})`, () => {
      const g = compileTools(mixedToolsFor(format), { format });
      fc.assert(
        fc.property(callsArb(format), (calls) => {
          const text = renderToolCalls(calls, format);
          expect(g.accepts(text)).toBe(true);
          const r = strict(text, mixedToolsFor(format), format);
          expect(r.issues).toEqual([]);
          expect(r.calls.every((c) => c.valid)).toBe(true);
          expect(callsOf(r)).toEqual(calls);
        }),
        // the quick tier renders 20 call lists per format (the long tier 150)
        { seed: SEED, numRuns: tierRuns(20, 150) },
      );
    });
  }
});

/** Characters and markers that matter to the formats. */
const ALPHABET = [
  "<",
  ">",
  "/",
  "\n",
  " ",
  "'",
  "(",
  ")",
  "=",
  "{",
  "}",
  "[",
  "]",
  '"',
  ",",
  ":",
  "1",
  "a",
  "\\",
  "True",
  "null",
  "<tools>",
  "</tools>",
  "[TOOL_CALLS]",
  "<functioncall>",
  "<|python_tag|>",
  " to=functions.",
];

function samplesAndMutants(g: CompiledGrammar, seed: number, n: number): string[] {
  const random = seededRandom(seed);
  const out: string[] = [];
  for (let k = 0; k < n; k++) {
    const s = sampleGrammar(g.grammar, random, { maxLength: 400 });
    if (s === undefined) continue;
    out.push(s);
    for (let m = 0; m < 4; m++) out.push(mutateText(s, ALPHABET, random, 1 + Math.floor(random() * 2)));
  }
  return out;
}

describe("toRegex and the token matcher agree with accepts()", () => {
  // every byte, the formats' special tokens and a few multi-character pieces, so any text can be spelled
  const specials = ["[TOOL_CALLS]", "<|python_tag|>", "<|channel|>", "<|message|>", "<|call|>"];
  /** The specials each format's grammar writes as token nodes (SMALL_TOOLS, no reasoning). */
  const TOKEN_NODES: Partial<Record<FormatName, string[]>> = {
    mistral: ["[TOOL_CALLS]"],
    "mistral-v11": ["[TOOL_CALLS]"],
    "mistral-v11-call-id": ["[TOOL_CALLS]"],
    "mistral-nemo": ["[TOOL_CALLS]"],
    openai: ["<|channel|>", "<|message|>", "<|call|>"],
    "muse-glimmer": ["<|message|>"],
    "llama3-builtin": ["<|python_tag|>"],
  };
  const pieces = [
    ...Array.from({ length: 256 }, (_, b) => Uint8Array.of(b)),
    ...specials.map((text) => ({ text, special: true })),
    '{"name": "',
    '", "',
    "get_weather",
    "<tools>",
    "(city=",
  ];
  const vocab = Vocabulary.fromPieces(pieces, { eosTokenIds: [] });
  const enc = new TextEncoder();
  const pieceId = new Map(
    pieces.map((p, i) => [typeof p === "string" ? p : "text" in p ? `special:${p.text}` : `byte:${p[0]}`, i]),
  );

  /**
   * The grammar's special tokens where the text has them, single bytes elsewhere. Other special tokens are never text
   * to the matcher (a model cannot emit `<|python_tag|>` as a special token inside free text), so they are spelled by
   * bytes like any other text, and so are the grammar's own specials before `from`.
   */
  function tokenize(text: string, used: readonly string[], from = 0): number[] {
    const ids: number[] = [];
    let i = 0;
    while (i < text.length) {
      const sp = i >= from ? used.find((s) => text.startsWith(s, i)) : undefined;
      if (sp) {
        ids.push(pieceId.get(`special:${sp}`) as number);
        i += sp.length;
        continue;
      }
      const ch = String.fromCodePoint(text.codePointAt(i) as number);
      for (const b of enc.encode(ch)) ids.push(pieceId.get(`byte:${b}`) as number);
      i += ch.length;
    }
    return ids;
  }

  // the quick tier takes every other format (the long tier all): each compiles its regex and walks its matcher
  for (const format of tierSample(DESCRIBED_FORMATS, 2)) {
    it(`${format}: regex and matcher on samples and mutants (seed ${SEED})`, () => {
      // without a reasoning block: its markers hold special tokens a mutant can move into free text, where the
      // matcher (rightly) refuses the token that accepts() reads as text (test/formats/reasoning.test.ts covers it)
      const g = compileTools(SMALL_TOOLS, {
        format,
        parallel: 2,
        reasoning: "none",
      });
      const ir = JSON.stringify([...g.grammar.rules.values()]);
      const used = specials.filter((sp) => ir.includes(JSON.stringify({ type: "token", text: sp })));
      expect(used).toEqual(TOKEN_NODES[format] ?? []);
      const re = new RegExp(`^(?:${g.toRegex()})$`, "u");
      let accepted = 0;
      const samples = tierRuns(10, 25);
      const texts = samplesAndMutants(g, SEED, samples);
      for (const text of texts) {
        const want = g.accepts(text);
        if (want) accepted++;
        expect(re.test(text), JSON.stringify(text)).toBe(want);
        const m = g.createMatcher(vocab);
        // markers inside a call (harmony's <|channel|>, <|message|>) are tokens from the first call marker on; before
        // it they are free text, which a model writes as text
        const open = FORMAT_DESCRIPTIONS[format].open;
        const at = open === null ? 0 : text.indexOf(open);
        const from = at < 0 ? text.length : at;
        const walked = tokenize(text, used, from).every((id) => m.acceptToken(id)) && m.isCompleted();
        expect(walked, JSON.stringify(text)).toBe(want);
      }
      // every sample and some mutants are members, and some mutants are not
      expect(accepted).toBeGreaterThan(samples);
      expect(accepted).toBeLessThan(texts.length);
    });
  }
});
