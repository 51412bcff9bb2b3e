/**
 * The tolerant readings (markers inside values, other generations, calls after text, values typed by the schema)
 * never change what a grammar-made output means: in every format, for seeded samples of the compiled grammar that
 * strict parsing reads cleanly, the tolerant parse gives the same content, calls and no issue; and on mutations of
 * them (markers inserted, deleted, replaced) the tolerant stream at random chunkings gives the batch result. The
 * quick tier reads every third format, the long tier all.
 */
import { describe, expect, it } from "vitest";
import { compileTools } from "../../src/compile.js";
import { FORMAT_NAMES } from "../../src/formats/index.js";
import { parseToolCalls } from "../../src/parser/parseToolCalls.js";
import { ToolCallStream } from "../../src/parser/ToolCallStream.js";
import { mutateText, sampleGrammar } from "../../src/testing/sampleGrammar.js";
import { seededRandom } from "../../src/util/seededRandom.js";
import { tierRuns, tierSample } from "../support/tier.js";

const SEED = Number(process.env.FC_SEED ?? 20261128);

const TOOLS = [
  {
    name: "write_file",
    parameters: {
      type: "object",
      properties: {
        path: { type: "string", maxLength: 12 },
        content: { type: "string", maxLength: 40 },
        note: { type: "string", maxLength: 8 },
        mode: { type: "object", properties: { append: { type: "boolean" } } },
        count: { type: ["integer", "null"] },
      },
      required: ["path"],
    },
  },
  { name: "get_time", parameters: { type: "object", properties: { tz: { enum: ["UTC", "CET"] } } } },
];

/** The format's markers and the characters around them: what mutations insert, delete or replace. */
const ALPHABET = ["<", ">", "/", "\n", " ", ";", "{", "}", "[", "]", '"', "'", "1", "a", "=", ":", "[TOOL_CALLS]"];

function streamed(text: string, format: (typeof FORMAT_NAMES)[number], random: () => number) {
  const s = new ToolCallStream({ tools: TOOLS, format });
  for (let at = 0; at < text.length; ) {
    const n = 1 + Math.floor(random() * 9);
    s.push(text.slice(at, at + n));
    at += n;
  }
  return s.end();
}

describe(`tolerant = strict on grammar-made outputs, seed ${SEED}`, () => {
  // the quick tier: every third format (compiling dominates), 10 samples each; the long tier: every format, 40
  for (const format of tierSample(FORMAT_NAMES, 3)) {
    it(format, () => {
      const g = compileTools(TOOLS, { format });
      const random = seededRandom(SEED);
      let clean = 0;
      for (let k = 0; k < tierRuns(10, 40); k++) {
        const sample = sampleGrammar(g.grammar, random, { maxLength: 500 });
        if (sample === undefined) continue;
        const strict = parseToolCalls(sample, { tools: TOOLS, format, mode: "strict" });
        if (strict.issues.length === 0 && strict.dropped === 0) {
          clean++;
          const tolerant = parseToolCalls(sample, { tools: TOOLS, format, mode: "tolerant" });
          expect(tolerant, `${format} seed ${SEED}: ${JSON.stringify(sample)}`).toEqual(strict);
        }
        for (let m = 0; m < 2; m++) {
          const mutant = mutateText(sample, ALPHABET, random, 1 + Math.floor(random() * 3));
          const batch = parseToolCalls(mutant, { tools: TOOLS, format });
          expect(streamed(mutant, format, random), `${format} seed ${SEED}: ${JSON.stringify(mutant)}`).toEqual(batch);
        }
      }
      expect(clean).toBeGreaterThan(0);
    });
  }
});
