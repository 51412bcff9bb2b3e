import { describe, expect, it } from "vitest";
import { compileTools } from "../../src/compile.js";
import { renderToolCalls } from "../../src/parser/renderToolCalls.js";
import { checkGbnfBatchWithLlamaCpp } from "../../src/testing/checkGbnfWithLlamaCpp.js";
import { mutateText, sampleGrammar } from "../../src/testing/sampleGrammar.js";
import { seededRandom } from "../../src/util/seededRandom.js";
import { FORMAT_DESCRIPTIONS } from "../../src/formats/descriptions.js";
import { DESCRIBED_FORMATS, exampleTools, mixedToolsFor, withFormatIds } from "../support/envelope/formatTools.js";
import { tierRotate } from "../support/tier.js";

const SEED = Number(process.env.TOOLGRAM_SEED ?? 20261122);
const ALPHABET = [
  "'",
  "\\",
  '"',
  "(",
  "=",
  "{",
  "}",
  "[",
  "]",
  ",",
  " ",
  "\n",
  "True",
  "null",
  "<tools>",
  "[TOOL_CALLS]",
  "<functioncall>",
  "</parameter>",
  "<parameter=",
  "</tool_call>",
];

describe("every format's GBNF through llama.cpp's grammar parser and engine", () => {
  it("parses, and llama.cpp agrees with accepts() on renderings, samples and mutants", async () => {
    const cases = DESCRIBED_FORMATS.flatMap((format) =>
      [mixedToolsFor(format), exampleTools("weather")].map((tools) => {
        const g = compileTools(tools, { format, parallel: 2 });
        const random = seededRandom(SEED);
        const kind = FORMAT_DESCRIPTIONS[format].unit.kind;
        // MiniMax M3's template drops null members, so its renderer refuses them (test/formats/minimaxM3.test.ts)
        const flag = kind === "xml-elements" ? { flag: false } : { flag: null };
        const samples: string[] = [
          // with an id where the format's calls carry one (its grammar requires it)
          renderToolCalls(
            withFormatIds(
              [
                {
                  name: "note",
                  arguments: { text: 'it\'s "quoted"\nü', ...flag, tag: kind === "xml-parameters" ? "it's" : true },
                },
              ],
              format,
            ),
            format,
          ),
          "Just text.",
        ];
        for (let k = 0; k < 6; k++) {
          const s = sampleGrammar(g.grammar, random, { maxLength: 300 });
          if (s === undefined) continue;
          samples.push(s, mutateText(s, ALPHABET, random, 1));
        }
        return { g, samples };
      }),
    );
    const results = await checkGbnfBatchWithLlamaCpp(cases.map((c) => ({ grammar: c.g.toGbnf(), samples: c.samples })));
    results.forEach((r, i) => {
      expect(r.error).toBeUndefined();
      expect(r.ok).toBe(true);
      expect(r.samples).toEqual(cases[i].samples.map((s) => cases[i].g.accepts(s)));
    });
    // the samples discriminate: the rendered call is accepted for the tool set that declares it
    expect(results.filter((_r, i) => i % 2 === 0).every((r) => r.samples?.[0] === true)).toBe(true);
  }, 180_000);

  it("with a reasoning block (optional, and opened by the prompt), every format's GBNF agrees with accepts()", async () => {
    const settings = [
      { reasoning: "optional", reasoningMarkers: { open: "<think>\n", close: "\n</think>\n\n" } },
      { reasoning: "required", reasoningMarkers: { open: "", close: "</think>" } },
    ] as const;
    // the quick tier checks one of the two settings per format, in turn (the long tier both)
    const cases = DESCRIBED_FORMATS.flatMap((format, formatIndex) =>
      tierRotate(settings, formatIndex, 2).map((r) => {
        const g = compileTools(exampleTools("weather"), { format, parallel: 2, ...r });
        const random = seededRandom(SEED);
        // a turn of text as the format writes it (Functionary v3.2 addresses it: `all\n…`)
        const justText = renderToolCalls([], format, { content: "Just text." });
        const samples: string[] = [
          `${r.reasoningMarkers.open}I should call it.${r.reasoningMarkers.close}${justText}`,
          justText,
        ];
        for (let k = 0; k < 6; k++) {
          const s = sampleGrammar(g.grammar, random, { maxLength: 300 });
          if (s === undefined) continue;
          samples.push(s, mutateText(s, [...ALPHABET, "<think>", "</think>", "<tool_call>"], random, 1));
        }
        return { g, samples };
      }),
    );
    const results = await checkGbnfBatchWithLlamaCpp(cases.map((c) => ({ grammar: c.g.toGbnf(), samples: c.samples })));
    results.forEach((r, i) => {
      expect(r.error).toBeUndefined();
      expect(r.ok).toBe(true);
      expect(r.samples).toEqual(cases[i].samples.map((s) => cases[i].g.accepts(s)));
      expect(r.samples?.[0]).toBe(true);
    });
  }, 180_000);
});
