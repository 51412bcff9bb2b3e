import { describe, expect, it } from "vitest";
import { compileSchema } from "../../src/compile.js";
import { CONFORMANCE_OPTIONS, judgeRow } from "../../src/conformance/judgeCorpus.js";
import { Referee } from "../../src/conformance/referee.js";

// JSONSchemaBench Github_easy---o76630 (and Github_medium---o82651): draft-04 schemas name their identifier `id`, which
// ajv's draft-07 vocabulary refused to compile, so the corpus labels stood unrefereed — and this one contradicts the
// spec: "iri" is no draft-04 format (nor an ajv-formats one), so the format is an annotation and "not-an-iri" is valid.
const schema = {
  $schema: "http://json-schema.org/draft-04/schema#",
  id: "#account",
  type: "object",
  required: ["account"],
  properties: {
    account: { id: "#account!core", type: "object", properties: { homePage: { type: "string", format: "iri" } } },
    other: { id: "http://example.com/other.json", type: "integer" },
    viaId: { $ref: "http://example.com/other.json" },
  },
};

describe("the ajv referee on draft-04 schemas", () => {
  it("reads `id` as the schema identifier", () => {
    const referee = new Referee();
    expect(() => referee.validator(schema)).not.toThrow();
    expect(referee.validText(schema, '{"account": {"homePage": "not-an-iri"}}')).toBe(true);
    expect(referee.validText(schema, '{"account": {}, "viaId": 1}')).toBe(true);
    expect(referee.validText(schema, '{"account": {}, "viaId": 1.5}')).toBe(false);
    expect(referee.validText(schema, '{"account": {}, "viaId": "1"}')).toBe(false);
  });

  it("overrules a corpus label that contradicts it, and toolgram agrees with it", () => {
    // (toolgram refuses a $ref to a draft-04 `id` URL, so the row leaves those two properties out)
    const { other: _o, viaId: _v, ...properties } = schema.properties;
    const row = { ...schema, properties };
    const tests = [
      { data: { account: { homePage: "https://example.com" } }, valid: true },
      { data: { account: { homePage: "not-an-iri" } }, valid: false },
      { data: { account: { homePage: 1 } }, valid: false },
    ];
    const r = judgeRow(compileSchema, { id: "draft4-id", subset: "test", schema: row, tests });
    expect(r.relabeled).toBe(1);
    expect(r.outcome).toBe("passing");
    const g = compileSchema(row, CONFORMANCE_OPTIONS);
    expect(g.accepts('{"account": {"homePage": 1}}')).toBe(false);
    expect(g.accepts('{"account": {"homePage": "not-an-iri"}}')).toBe(true);
  });
});
