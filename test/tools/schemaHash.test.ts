import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { canonicalJson, type JsonValue } from "../../src/json.js";
import { schemaHash } from "../../src/tools/schemaHash.js";

// schemaHash runs without node:crypto (browsers, workers); node's own sha256 is the referee
describe("schemaHash", () => {
  it.each<JsonValue>([
    { type: "string" },
    {
      type: "object",
      properties: { city: { type: "string", description: "São Paulo, 東京, 🎉" } },
      required: ["city"],
    },
    { enum: ["a".repeat(1000), null, 1.5, true] },
  ])("equals node:crypto's sha256 of the canonical JSON (%#)", (schema) => {
    const expected = createHash("sha256").update(canonicalJson(schema), "utf8").digest("hex");
    expect(schemaHash(schema)).toBe(expected);
  });
});
