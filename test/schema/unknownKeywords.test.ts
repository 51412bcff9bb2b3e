import { describe, expect, it } from "vitest";
import type { Diagnostic } from "../../src/diagnostic.js";
import { compileSchema } from "../../src/compile.js";
import { ANNOTATIONS, IMPLEMENTED, editDistance, likelyTypoOf } from "../../src/schema/keywords.js";
import { likelyFormatTypoOf } from "../../src/schema/stringFormats.js";
import { irAccepts, norm, thrown } from "../support/schema/schemaHarness.js";

// The default rule (unknownKeywords: "error-on-typos"): a likely typo of a keyword that constrains values is refused
// with a "did you mean"; any other unknown keyword is an annotation, reported as an IGNORED_KEYWORD warning.

describe("editDistance (optimal string alignment)", () => {
  it("counts insertions, deletions, substitutions and adjacent transpositions as one edit each", () => {
    expect(editDistance("required", "required")).toBe(0);
    expect(editDistance("requried", "required")).toBe(1); // transposition
    expect(editDistance("maxLenght", "maxLength")).toBe(1);
    expect(editDistance("additonalProperties", "additionalProperties")).toBe(1); // deletion
    expect(editDistance("requiredd", "required")).toBe(1); // insertion
    expect(editDistance("tipe", "type")).toBe(1); // substitution
    expect(editDistance("", "abc")).toBe(3);
    expect(editDistance("ca", "abc")).toBe(3); // OSA, not unrestricted Damerau (which gives 2)
  });
});

describe("likelyTypoOf", () => {
  it("finds the validation keyword of the typos the rule is for", () => {
    expect(likelyTypoOf("additonalProperties")).toBe("additionalProperties");
    expect(likelyTypoOf("additionalPropeties")).toBe("additionalProperties");
    expect(likelyTypoOf("requried")).toBe("required");
    expect(likelyTypoOf("maxLenght")).toBe("maxLength");
    expect(likelyTypoOf("minLenght")).toBe("minLength");
    expect(likelyTypoOf("tyep")).toBe("type");
    expect(likelyTypoOf("enums")).toBe("enum");
    expect(likelyTypoOf("Required")).toBe("required");
    expect(likelyTypoOf("patternproperties")).toBe("patternProperties");
    expect(likelyTypoOf("additionalProperty")).toBe("additionalProperties");
    expect(likelyTypoOf("exclusiveMinimun")).toBe("exclusiveMinimum");
  });

  it("leaves vendor keywords and typos of annotations alone", () => {
    for (const k of [
      "self",
      "markdownDescription",
      "discriminator",
      "gallery_properties",
      "valid_values",
      "decription",
      "titel",
      "readonly",
      "propertyOrder",
      "defaultSnippets",
      "enumDescriptions",
      "markdownEnumDescriptions",
      "deprecationMessage",
      "errorMessage",
      "doNotSuggest",
      "tsType",
      "javaType",
      "links",
      "media",
      "note",
      "in",
      "of",
      "options",
      "headerTemplate",
      "patternErrorMessage",
      "allowTrailingCommas",
      "examplse",
      "definitons",
      "@type",
      "@id",
    ]) {
      expect([k, likelyTypoOf(k)]).toEqual([k, undefined]);
    }
  });

  it("never calls a known keyword a typo of another", () => {
    // every implemented keyword is its own nearest (distance 0), so the rule only ever sees unknown keys; but an
    // annotation that were a typo of a validation keyword would be refused if it ever became unknown
    for (const a of ANNOTATIONS) expect([a, likelyTypoOf(a)]).toEqual([a, undefined]);
    for (const k of IMPLEMENTED) expect(likelyTypoOf(k)).toBe(k);
  });
});

describe('unknownKeywords: "error-on-typos" (the default)', () => {
  it("refuses a typo of a validation keyword with its path and a did-you-mean", () => {
    for (const [schema, keyword, suggestion] of [
      [{ type: "object", additonalProperties: false }, "additonalProperties", "additionalProperties"],
      [{ type: "object", additionalPropeties: false }, "additionalPropeties", "additionalProperties"],
      [{ type: "object", properties: { a: { type: "string" } }, requried: ["a"] }, "requried", "required"],
      [{ type: "string", maxLenght: 3 }, "maxLenght", "maxLength"],
    ] as const) {
      const e = thrown(() => norm(schema));
      expect(e.code).toBe("UNKNOWN_KEYWORD");
      expect(e.schemaPath).toBe("");
      expect(e.message).toContain(`/${keyword}`);
      expect(e.message).toContain(`did you mean "${suggestion}" for "${keyword}"?`);
    }
    // nested: the path of the schema object that holds it
    const nested = thrown(() =>
      compileSchema({ type: "object", properties: { name: { type: "string", minLenght: 1 } } }),
    );
    expect(nested.code).toBe("UNKNOWN_KEYWORD");
    expect(nested.schemaPath).toBe("/properties/name");
  });

  it("reads vendor keywords and annotation typos as annotations, with one warning per schema object", () => {
    const w: Diagnostic[] = [];
    const ir = norm(
      {
        type: "object",
        self: { vendor: "com.acme", name: "event", format: "jsonschema", version: "1-0-0" },
        markdownDescription: "**x**",
        discriminator: { propertyName: "kind" },
        properties: {
          a: { type: "string", decription: "typo of an annotation", gallery_properties: ["x"], valid_values: ["y"] },
        },
      },
      {},
      w,
    );
    expect(w.map((d) => [d.code, d.schemaPath])).toEqual([
      ["IGNORED_KEYWORD", ""],
      ["IGNORED_KEYWORD", "/properties/a"],
    ]);
    expect(w[0].message).toContain("discriminator, markdownDescription, self");
    expect(w[1].message).toContain("decription, gallery_properties, valid_values");
    // annotations have no effect on validity: the schema means exactly what it says without them
    expect(irAccepts(ir, { a: "anything" })).toBe(true);
    expect(irAccepts(ir, { a: 1 })).toBe(false);
  });

  it("with a typo beside vendor keywords, refuses naming only the typo", () => {
    const e = thrown(() => norm({ type: "string", markdownDescription: "m", maxLenght: 2 }));
    expect(e.code).toBe("UNKNOWN_KEYWORD");
    expect(e.message).toContain("unknown keyword maxLenght ");
    expect(e.message).not.toContain("markdownDescription");
  });

  it("compileSchema compiles a schema with vendor keywords, and the grammar is exact", () => {
    const g = compileSchema({
      type: "object",
      properties: { n: { type: "integer", markdownDescription: "n" } },
      required: ["n"],
      additionalProperties: false,
      self: {},
    });
    expect(g.accepts('{"n": 1}')).toBe(true);
    expect(g.accepts('{"n": "1"}')).toBe(false);
    expect(g.warnings.map((d) => d.code)).toEqual(["IGNORED_KEYWORD", "IGNORED_KEYWORD"]);
  });

  it("unknown format names: typos refused, others annotations", () => {
    expect(likelyFormatTypoOf("date_time")).toBe("date-time");
    expect(likelyFormatTypoOf("datetime")).toBe("date-time");
    expect(likelyFormatTypoOf("emial")).toBe("email");
    expect(likelyFormatTypoOf("URI")).toBe("uri");
    expect(likelyFormatTypoOf("uri-refrence")).toBe("uri-reference");
    for (const f of ["color", "textarea", "markdown", "idn-email", "idn-hostname", "iri", "phone", "html"]) {
      expect([f, likelyFormatTypoOf(f)]).toEqual([f, undefined]);
    }
    const e = thrown(() => norm({ type: "string", format: "date_time" }));
    expect(e.code).toBe("UNSUPPORTED_FORMAT");
    expect(e.message).toContain('did you mean "date-time"?');
    const w: Diagnostic[] = [];
    const ir = norm({ type: "string", format: "color" }, {}, w);
    expect(w.map((d) => [d.code, d.schemaPath])).toEqual([["IGNORED_KEYWORD", "/format"]]);
    expect(irAccepts(ir, "not a color")).toBe(true);
  });
});

describe('unknownKeywords: "error" and "ignore"', () => {
  it('"error" keeps refusing every unknown keyword and format name', () => {
    expect(thrown(() => norm({ type: "string", markdownDescription: "m" }, { unknownKeywords: "error" })).code).toBe(
      "UNKNOWN_KEYWORD",
    );
    expect(thrown(() => norm({ type: "string", format: "color" }, { unknownKeywords: "error" })).code).toBe(
      "UNSUPPORTED_FORMAT",
    );
  });

  it('"ignore" reads even typos as annotations (the spec and ajv\'s reading)', () => {
    const w: Diagnostic[] = [];
    const ir = norm({ type: "string", maxLenght: 1, format: "date_time" }, { unknownKeywords: "ignore" }, w);
    expect(irAccepts(ir, "long string")).toBe(true);
    expect(w.map((d) => d.code)).toEqual(["IGNORED_KEYWORD", "IGNORED_KEYWORD"]);
  });

  it("an unknown option value is refused", () => {
    expect(thrown(() => norm({}, { unknownKeywords: "warn" as never })).code).toBe("INVALID_OPTION");
  });
});
