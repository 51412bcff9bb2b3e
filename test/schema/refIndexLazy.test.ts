import { describe, expect, it } from "vitest";
import { githubMcpTools } from "../../bench/toolSets.js";
import { compileSchema, compileTools } from "../../src/compile.js";
import { refIndexes } from "../../src/schema/normalizeSchema.js";
import { toolFragments } from "../../src/ToolFragmentCache.js";

/**
 * The $id/$anchor index of a schema is built by its first `$ref`: most tool schemas have none, and indexing walked
 * every one of them. Counted in indexes built.
 */
describe("the $ref index is built on first use", () => {
  it("the 117 GitHub tools (no $ref) build none", () => {
    toolFragments.clear();
    const before = refIndexes.built;
    compileTools(githubMcpTools(), { format: "qwen3", toolChoice: "required", parallel: false });
    expect(refIndexes.built).toBe(before);
  });

  it("a schema with $refs builds one, and references by pointer, $anchor and $id still resolve", () => {
    const before = refIndexes.built;
    const c = compileSchema({
      type: "object",
      properties: { a: { $ref: "#/$defs/num" }, b: { $ref: "#word" }, c: { $ref: "https://example.com/flag" } },
      required: ["a", "b", "c"],
      additionalProperties: false,
      $defs: {
        num: { type: "integer" },
        w: { $anchor: "word", enum: ["x", "y"] },
        f: { $id: "https://example.com/flag", type: "boolean" },
      },
    });
    expect(refIndexes.built).toBe(before + 1);
    expect(c.accepts('{"a": 1, "b": "x", "c": true}')).toBe(true);
    expect(c.accepts('{"a": 1, "b": "z", "c": true}')).toBe(false);
    expect(c.accepts('{"a": 1.5, "b": "y", "c": false}')).toBe(false);
  });
});
