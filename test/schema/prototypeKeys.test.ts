import { describe, expect, it } from "vitest";
import { compileSchema } from "../../src/compile.js";
import { ruleNameFromPath } from "../../src/lower/ruleName.js";
import { Referee } from "../../src/conformance/referee.js";

// property names that are also members of Object.prototype (a JSONSchemaBench schema describes a JavaScript API
// with a `constructor` property) must name rules and properties like any other key
const NAMES = ["constructor", "toString", "hasOwnProperty", "valueOf", "__proto__"];

describe("keys named like Object.prototype's members", () => {
  it("give GBNF-safe rule names", () => {
    for (const n of NAMES)
      expect(ruleNameFromPath("api", `/properties/${n}/properties/parameters/items`)).toMatch(/^[a-z][a-z0-9-]*$/);
    expect(ruleNameFromPath("api", "/properties/constructor/items")).toBe("api-constructor-item");
  });

  it("compile, and the grammar agrees with ajv", () => {
    const item = { type: "object", properties: { name: { type: "string" } }, required: ["name"] };
    const schema = {
      type: "object",
      properties: Object.fromEntries(
        ["constructor"].map((n) => [n, { type: "object", properties: { parameters: { type: "array", items: item } } }]),
      ),
    };
    const g = compileSchema(schema, { unknownKeywords: "ignore" });
    const referee = new Referee();
    const texts = [
      '{"constructor": {"parameters": [{"name": "a"}, {"name": "b"}]}}',
      '{"constructor": {"parameters": []}}',
      '{"constructor": {"parameters": [{"nam": "a"}]}}',
      '{"constructor": {"parameters": [1]}}',
    ];
    for (const t of texts) expect([t, g.accepts(t)]).toEqual([t, referee.validText(schema, t)]);
  });
});
