/**
 * Strict parsing with tools defers to the compiled grammar of one call in every format, not only Qwen3: a call that
 * validates and is canonical in layout, but spelled in a way the grammar narrows, is dropped (NONCANONICAL) in strict
 * mode and kept in tolerant mode; streaming gives the same verdict as the batch parse.
 */
import { describe, expect, it } from "vitest";
import { compileTools } from "../../src/compile.js";
import { FORMAT_DESCRIPTIONS, FORMAT_NAMES } from "../../src/formats/index.js";
import { parseToolCalls } from "../../src/parser/parseToolCalls.js";
import { renderToolCalls, type CallToRender } from "../../src/parser/renderToolCalls.js";
import { ToolCallStream } from "../../src/parser/ToolCallStream.js";
import type { FormatName } from "../../src/formats/FormatName.js";
import { xmlValueTypeName } from "../../src/formats/xmlValueType.js";
import { mutateText, sampleGrammar } from "../../src/testing/sampleGrammar.js";
import { seededRandom } from "../../src/util/seededRandom.js";
import { SEED } from "../support/parser/arbitraries.js";
import { withFormatIds } from "../support/envelope/formatTools.js";

const TOOLS = [
  {
    name: "f",
    parameters: {
      type: "object",
      properties: { n: { type: "integer", minimum: 0, maximum: 10 }, s: { type: "string" } },
      required: ["n"],
    },
  },
  { name: "g", parameters: { type: "object", properties: {} } },
];

/** The canonical text of `f(n: 1)` with `1` written `1e0`: valid JSON (and Python) of the same value. */
function exponentSpelled(format: FormatName, calls: CallToRender[] = [{ name: "f", arguments: { n: 1 } }]): string {
  const text = renderToolCalls(withFormatIds(calls, format), format);
  const u = FORMAT_DESCRIPTIONS[format].unit;
  // Kimi K3 writes the value's type before it (DSML: its string flag)
  const tagged =
    u.kind === "xml-parameters"
      ? u.keyOpen +
        "n" +
        u.keyClose +
        (u.valueType !== undefined ? xmlValueTypeName("number", u.valueType.names) + u.valueType.close : "")
      : null;
  // MiniMax M3's `P<n>1P</n>`
  const element = u.kind === "xml-elements" ? `${u.tagPrefix}<n>` : null;
  const at =
    element !== null
      ? text.indexOf(`${element}1`) + element.length
      : u.kind === "python-call"
        ? text.indexOf("n=1") + 2
        : u.kind === "gemma4-call"
          ? text.indexOf("n:1") + 2
          : tagged !== null
            ? text.indexOf(`${tagged}1`) + tagged.length
            : text.indexOf('"n": 1') + 5;
  expect(at).toBeGreaterThan(2);
  return `${text.slice(0, at)}1e0${text.slice(at + 1)}`;
}

function streamed(text: string, format: FormatName) {
  const s = new ToolCallStream({ tools: TOOLS, format, mode: "strict" });
  for (const c of text) s.push(c);
  return s.end();
}

const codes = (r: { issues: { code: string }[] }) => r.issues.map((i) => i.code);

describe("strict mode with tools: the compiled grammar decides, in every format", () => {
  for (const format of FORMAT_NAMES) {
    it(`${format}: a bounded integer written 1e0 is dropped strictly, kept tolerantly`, () => {
      const g = compileTools(TOOLS, { format });
      const good = renderToolCalls(withFormatIds([{ name: "f", arguments: { n: 1 } }], format), format);
      const bad = exponentSpelled(format);
      expect(g.accepts(good)).toBe(true);
      expect(g.accepts(bad)).toBe(false);

      const clean = parseToolCalls(good, { tools: TOOLS, format, mode: "strict" });
      expect(clean.issues).toEqual([]);
      expect(clean.calls.map((c) => c.arguments)).toEqual([{ n: 1 }]);

      const strict = parseToolCalls(bad, { tools: TOOLS, format, mode: "strict" });
      expect(strict.calls).toEqual([]);
      expect(strict.dropped).toBe(1);
      expect(codes(strict)).toEqual(["NONCANONICAL"]);
      expect(strict.issues[0].span).toBeDefined();
      expect(streamed(bad, format)).toEqual(strict);

      const tolerant = parseToolCalls(bad, { tools: TOOLS, format, mode: "tolerant" });
      expect(tolerant.issues).toEqual([]);
      expect(tolerant.calls.map((c) => [c.arguments, c.valid])).toEqual([[{ n: 1 }, true]]);

      // without tools there is no grammar: the parser's own check (which allows the spelling) stands alone
      expect(parseToolCalls(bad, { format, mode: "strict" }).issues).toEqual([]);
    });

    it(`${format}: a call that fails validation keeps its precise issue`, () => {
      const text = renderToolCalls([{ name: "f", arguments: { n: 11 } }], format);
      const r = parseToolCalls(text, { tools: TOOLS, format, mode: "strict" });
      expect(r.calls.map((c) => c.valid)).toEqual([false]);
      expect(codes(r)).toEqual(["INVALID_ARGUMENTS"]);
      const u = parseToolCalls(renderToolCalls([{ name: "nope", arguments: {} }], format), {
        tools: TOOLS,
        format,
        mode: "strict",
      });
      expect(codes(u)).toEqual(["UNKNOWN_TOOL"]);
    });
  }

  for (const format of ["qwen3", "tools-array", "mistral", "glaive", "pythonic"] as const) {
    it(`${format}: only the call the grammar refuses is dropped`, () => {
      const calls: CallToRender[] = [
        { name: "g", arguments: {} },
        { name: "f", arguments: { n: 1 } },
      ];
      const text = exponentSpelled(format, calls);
      const r = parseToolCalls(text, { tools: TOOLS, format, mode: "strict" });
      expect(r.calls.map((c) => c.name)).toEqual(["g"]);
      expect(r.dropped).toBe(1);
      expect(codes(r)).toEqual(["NONCANONICAL"]);
      expect(streamed(text, format)).toEqual(r);
    });
  }

  for (const format of ["tools-array", "mistral"] as const) {
    it(`${format}: an id the grammar does not allow`, () => {
      const g = compileTools(TOOLS, { format });
      const ok = renderToolCalls([{ name: "g", arguments: {}, id: "call_1" }], format);
      const bad = renderToolCalls([{ name: "g", arguments: {}, id: "call.1" }], format);
      expect(g.accepts(ok)).toBe(true);
      expect(g.accepts(bad)).toBe(false);
      expect(parseToolCalls(ok, { tools: TOOLS, format, mode: "strict" }).issues).toEqual([]);
      const r = parseToolCalls(bad, { tools: TOOLS, format, mode: "strict" });
      expect([r.calls.length, r.dropped, codes(r)]).toEqual([0, 1, ["NONCANONICAL"]]);
      expect(parseToolCalls(bad, { tools: TOOLS, format }).calls.map((c) => c.id)).toEqual(["call.1"]);
    });
  }

  it("a string escape the grammar does not spell", () => {
    for (const format of ["tools-array", "llama3-json", "mistral", "glaive"] as const) {
      const text = renderToolCalls([{ name: "f", arguments: { n: 1, s: "A" } }], format).replace('"A"', '"\\u0041"');
      expect(compileTools(TOOLS, { format }).accepts(text)).toBe(false);
      const r = parseToolCalls(text, { tools: TOOLS, format, mode: "strict" });
      expect([r.calls.length, r.dropped, codes(r)], format).toEqual([0, 1, ["NONCANONICAL"]]);
      expect(
        parseToolCalls(text, { tools: TOOLS, format }).calls.map((c) => c.arguments),
        format,
      ).toEqual([{ n: 1, s: "A" }]);
    }
  });

  it("llama3-json: the <|python_tag|> prefix (never generated) is not canonical", () => {
    const text = `<|python_tag|>${renderToolCalls([{ name: "g", arguments: {} }], "llama3-json")}`;
    expect(compileTools(TOOLS, { format: "llama3-json" }).accepts(text)).toBe(false);
    for (const tools of [TOOLS, undefined]) {
      const r = parseToolCalls(text, { tools, format: "llama3-json", mode: "strict" });
      expect([r.calls.length, r.dropped, codes(r)]).toEqual([0, 1, ["NONCANONICAL"]]);
    }
    expect(parseToolCalls(text, { tools: TOOLS, format: "llama3-json" }).calls.map((c) => c.name)).toEqual(["g"]);
  });

  it("tools that do not compile for a format leave the parser's own check", () => {
    // a non-identifier argument name: pythonic refuses the tool, the parser still reads the JSON formats strictly
    const odd = [
      { name: "h", parameters: { type: "object", properties: { "a-b": { type: "integer", minimum: 0, maximum: 3 } } } },
    ];
    expect(() => compileTools(odd, { format: "pythonic" })).toThrow();
    const r = parseToolCalls("[h(x=1e0)]", { tools: odd, format: "pythonic", mode: "strict" });
    expect(r.dropped).toBe(0);
    expect(r.calls.map((c) => c.name)).toEqual(["h"]);
  });

  /** Characters and markers that matter to the formats' calls. */
  const ALPHABET = [
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
    "0",
    "-",
    "e",
    ".",
    "a",
    "\\",
    "True",
    "null",
  ];

  for (const format of FORMAT_NAMES) {
    it(`${format}: strict with no issues ⇔ the grammar accepts, on mutated replies with one call (seed ${SEED})`, () => {
      // samples of one call, mutated, judged by the default grammar (text before the calls, any number of them)
      const one = compileTools(TOOLS, { format, toolChoice: "required", parallel: false });
      const g = compileTools(TOOLS, { format });
      const random = seededRandom(SEED);
      const problems: string[] = [];
      let validated = 0;
      let refused = 0;
      // 40 samples, more (up to 80) where mutants of the format rarely stay one valid call
      for (let k = 0; k < 80 && (k < 40 || validated <= 20); k++) {
        const sample = sampleGrammar(one.grammar, random, { maxLength: 200 });
        if (sample === undefined) continue;
        for (let m = 0; m < 10; m++) {
          const text = mutateText(sample, ALPHABET, random, 1 + Math.floor(random() * 2));
          const tolerant = parseToolCalls(text, { tools: TOOLS, format });
          // compared where the verdict is about a call: the text reads as exactly one valid call, and starts with
          // whitespace only where the format's calls do (MiniMax M2's section opens with a newline)
          if (
            tolerant.dropped > 0 ||
            tolerant.calls.length !== 1 ||
            !tolerant.calls[0].valid ||
            (/^\s/.test(text) && !/^\s/.test(sample))
          )
            continue;
          validated++;
          const accepted = g.accepts(text);
          if (!accepted) refused++;
          const r = parseToolCalls(text, { tools: TOOLS, format, mode: "strict" });
          const clean = r.issues.length === 0 && r.dropped === 0;
          if (clean !== accepted)
            problems.push(`accepts=${accepted} strict=${JSON.stringify(codes(r))} :: ${JSON.stringify(text)}`);
        }
      }
      expect(validated).toBeGreaterThan(20);
      expect(refused).toBeGreaterThan(0);
      expect(problems.slice(0, 5)).toEqual([]);
    });
  }
});
