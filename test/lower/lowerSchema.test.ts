import { describe, expect, it } from "vitest";
import { canonicalJson, type JsonValue } from "../../src/json.js";
import { ruleNameFromPath, uniqueRuleName } from "../../src/lower/ruleName.js";
import type { SchemaNode } from "../../src/schema/SchemaNode.js";
import { lowerNode } from "../support/lower/lowerHarness.js";
import { arr, int, obj, str } from "../support/lower/nodes.js";

describe("lowerSchema", () => {
  it("never matches nothing; null and boolean are literals", () => {
    expect(lowerNode({ kind: "never", path: "", reason: "x" }).acceptor.accepts("null")).toBe(false);
    const b = lowerNode({ kind: "boolean", path: "" }).acceptor;
    expect([b.accepts("true"), b.accepts("false"), b.accepts("null")]).toEqual([true, true, false]);
  });
  it("enum accepts exactly the canonical texts of its values", () => {
    const values: JsonValue[] = [1, "a\nb", null, { x: [1, 2], y: {} }, [], -0.5];
    const { acceptor } = lowerNode({ kind: "enum", path: "", values });
    for (const v of values) expect(acceptor.accepts(canonicalJson(v))).toBe(true);
    for (const t of ['{"x":[1,2],"y":{}}', "1.0", '"a\\u000ab"', "2"]) expect(acceptor.accepts(t)).toBe(false);
    const flex = lowerNode({ kind: "enum", path: "", values }, { whitespace: { flexible: { maxRun: 2 } } }).acceptor;
    expect(flex.accepts('{ "x" : [1,2], "y":{ } }')).toBe(true);
  });
  it("any is every JSON value in the style", () => {
    const { acceptor } = lowerNode({ kind: "any", path: "" });
    for (const v of [null, 1.5e-7, "é\u0001", [[], {}], { a: { b: [true, false] } }] as JsonValue[]) {
      expect(acceptor.accepts(canonicalJson(v))).toBe(true);
    }
    for (const t of ["[1,2]", '{"a":1}', "nul", "[1, 2,]", "'a'", '"\\u0041"']) expect(acceptor.accepts(t)).toBe(false);
  });
  it("recursive definitions become rules", () => {
    const tree: SchemaNode = obj({
      path: "/$defs/node",
      properties: [
        { key: "v", schema: int({ path: "/$defs/node/properties/v" }), required: true },
        {
          key: "kids",
          schema: arr({
            path: "/$defs/node/properties/kids",
            items: { kind: "ref", path: "/$defs/node/properties/kids/items", target: "node" },
          }),
          required: false,
        },
      ],
    });
    const { acceptor, ctx } = lowerNode({ kind: "ref", path: "", target: "node" }, {}, new Map([["node", tree]]));
    expect([...ctx.rules.keys()]).toContain("t-node");
    expect(acceptor.accepts('{"v": 1, "kids": [{"v": 2}, {"v": 3, "kids": []}]}')).toBe(true);
    expect(acceptor.accepts('{"v": 1, "kids": [{"v": "x"}]}')).toBe(false);
  });
  it("unions are alternatives", () => {
    const { acceptor } = lowerNode({
      kind: "union",
      path: "",
      options: [str(), int({ minimum: { value: 3, exclusive: false } })],
    });
    expect([acceptor.accepts('"s"'), acceptor.accepts("3"), acceptor.accepts("2")]).toEqual([true, true, false]);
  });
  it("grammar size is capped", () => {
    expect(() =>
      lowerNode(
        { kind: "enum", path: "", values: Array.from({ length: 200 }, (_, i) => i) },
        { limits: { maxGrammarSize: 100 } },
      ),
    ).toThrow(/maxGrammarSize/);
    expect(() => lowerNode({ kind: "enum", path: "", values: [1, 2, 3] }, { limits: { maxEnumSize: 2 } })).toThrow(
      /maxEnumSize/,
    );
  });
});

describe("sharing and limits", () => {
  it("a node object used twice is lowered once", () => {
    const shared = obj({
      path: "/$defs/addr",
      properties: [
        { key: "street", schema: str(), required: true },
        {
          key: "zip",
          schema: int({ minimum: { value: 10000, exclusive: false }, maximum: { value: 99999, exclusive: false } }),
          required: false,
        },
      ],
    });
    const root = obj({
      properties: [
        { key: "bill", schema: shared, required: true },
        { key: "ship", schema: shared, required: true },
      ],
    });
    const { acceptor, ctx } = lowerNode(root);
    expect([...ctx.rules.keys()].filter((k) => k.startsWith("t-addr"))).toEqual(["t-addr-first-0"]);
    expect(acceptor.accepts('{"bill": {"street": "a"}, "ship": {"street": "b", "zip": 12345}}')).toBe(true);
    expect(acceptor.accepts('{"bill": {"street": "a"}, "ship": {"street": "b", "zip": 123}}')).toBe(false);
  });
  it("multipleOf: integer moduli above the cap are refused, beyond-cap bounds too", () => {
    expect(() => lowerNode(int({ multipleOf: [2048] }))).toThrow(/1024/);
    expect(() => lowerNode(int({ multipleOf: [5], minimum: { value: 1e16, exclusive: false } }))).toThrow(/10\^15/);
    const { acceptor, ctx } = lowerNode(int({ multipleOf: [5], minimum: { value: 1e16, exclusive: false } }), {
      strict: false,
    });
    expect(ctx.warnings).toHaveLength(1);
    expect(acceptor.accepts("10000000000000001")).toBe(true); // over-approximated, as the warning says
  });
});

describe("rule names", () => {
  it("come from schema paths, GBNF-safe and unique", () => {
    expect(ruleNameFromPath("get-weather", "/properties/city")).toBe("get-weather-city");
    expect(ruleNameFromPath("get_weather", "/properties/Zip Code/items")).toBe("get-weather-zip-code-item");
    expect(ruleNameFromPath("t", "/$defs/9lives")).toBe("t-9lives");
    expect(ruleNameFromPath("", "/properties/ü")).toMatch(/^[a-z][a-z0-9-]*$/);
    expect(uniqueRuleName(new Set(["a", "a-2"]), "a")).toBe("a-3");
  });
});
