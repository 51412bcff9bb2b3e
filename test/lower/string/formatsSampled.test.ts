import { describe, expect, it } from "vitest";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsImport from "ajv-formats";
import { compileSchema } from "../../../src/compile.js";
import { checkFormat } from "../../../src/schema/stringFormats.js";
import { sampleGrammar } from "../../../src/testing/sampleGrammar.js";
import { seededRandom } from "../../../src/util/seededRandom.js";
import { RFC_CHECKERS } from "../../support/lower/string/rfcFormats.js";

// The guarantee "never an invalid value": every string the compiled grammar of `{type: "string", format}` produces is
// valid under ajv-formats AND under the format's standard grammar (checked by parsers written from the RFCs' ABNF in
// rfcFormats.ts, independent from the regular expressions toolgram compiles).

const addFormats = ((addFormatsImport as unknown as { default?: unknown }).default ?? addFormatsImport) as (
  a: unknown,
) => void;
const ajv = new Ajv2020({ strict: false, validateFormats: true });
addFormats(ajv);

const SEED = Number(process.env.FC_SEED ?? 20251123);
const SAMPLES = 150;

describe("strings sampled from each format's grammar are valid under ajv-formats and the RFC", () => {
  for (const [format, rfc] of Object.entries(RFC_CHECKERS)) {
    it(format, () => {
      // hostname's own 253-character total makes a large product automaton; 80 keeps it small
      const schema = { type: "string", format, ...(format === "hostname" ? { maxLength: 80 } : {}) };
      // the step budget decides, not the clock (a loaded machine must not fail the test)
      const g = compileSchema(schema, { limits: { maxCompileMs: Number.POSITIVE_INFINITY } });
      const validate = ajv.compile(schema);
      const random = seededRandom(SEED + format.length);
      let sampled = 0;
      for (let i = 0; i < SAMPLES; i++) {
        const text = sampleGrammar(g.grammar, random, { maxLength: 400, extraRepeats: 4 });
        if (text === undefined) continue;
        sampled++;
        const value = JSON.parse(text) as string;
        const verdict = { ajv: validate(value) === true, rfc: rfc(value), checkFormat: checkFormat(format, value) };
        if (!verdict.ajv || !verdict.rfc || !verdict.checkFormat) {
          expect({ format, value, seed: SEED, ...verdict }).toEqual({
            format,
            value,
            seed: SEED,
            ajv: true,
            rfc: true,
            checkFormat: true,
          });
        }
      }
      expect(sampled).toBeGreaterThan(SAMPLES / 2);
    });
  }
});
