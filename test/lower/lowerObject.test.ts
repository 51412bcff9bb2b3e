import { describe, expect, it } from "vitest";
import { canonicalJson, type JsonObject, type JsonValue } from "../../src/json.js";
import type { ObjectNode } from "../../src/schema/SchemaNode.js";
import { ajv, lowerNode } from "../support/lower/lowerHarness.js";
import { any, int, obj, str } from "../support/lower/nodes.js";

/** All subsets of `keys`, in declaration order. */
function subsets<T>(keys: T[]): T[][] {
  return Array.from({ length: 1 << keys.length }, (_, m) => keys.filter((_, i) => m & (1 << i)));
}

const VALUES: Record<string, JsonValue> = { a: "x", b: 2, c: "y", d: 4, e: "z" };

function checkSubsets(node: ObjectNode, schema: object, opts = {}): void {
  const { acceptor } = lowerNode(node, opts);
  const validate = ajv.compile(schema);
  const keys = node.properties.map((p) => p.key);
  for (const sub of subsets(keys)) {
    const value: JsonObject = Object.fromEntries(sub.map((k) => [k, VALUES[k]]));
    const text = canonicalJson(value);
    expect({ text, accepted: acceptor.accepts(text) }).toEqual({ text, accepted: validate(value) });
    // the same members in another order, with a stray comma, or a key twice are never accepted
    if (sub.length >= 2)
      expect(acceptor.accepts(canonicalJson(Object.fromEntries([...sub].reverse().map((k) => [k, VALUES[k]]))))).toBe(
        false,
      );
    if (sub.length >= 1) {
      expect(acceptor.accepts(text.replace("{", "{, "))).toBe(false);
      expect(acceptor.accepts(text.replace(/}$/, ", }"))).toBe(false);
      const k = sub[0];
      expect(acceptor.accepts(text.replace(/}$/, `, ${JSON.stringify(k)}: ${canonicalJson(VALUES[k])}}`))).toBe(false);
    }
  }
}

const props = (req: string[]) =>
  ["a", "b", "c", "d", "e"].map((key) => ({
    key,
    schema: "ace".includes(key) ? str(`/properties/${key}`) : int({ path: `/properties/${key}` }),
    required: req.includes(key),
  }));
const schemaOf = (req: string[], extra: object = {}) => ({
  type: "object",
  properties: {
    a: { type: "string" },
    b: { type: "integer" },
    c: { type: "string" },
    d: { type: "integer" },
    e: { type: "string" },
  },
  required: req,
  additionalProperties: false,
  ...extra,
});

describe("lowerObject: declared properties", () => {
  for (const req of [[], ["a"], ["c"], ["e"], ["b", "d"], ["a", "b", "c", "d", "e"]]) {
    it(`every subset with required ${JSON.stringify(req)}`, () =>
      checkSubsets(obj({ properties: props(req) }), schemaOf(req)));
  }
  it("min/maxProperties count members", () => {
    checkSubsets(
      obj({ properties: props(["c"]), minProperties: 2, maxProperties: 3 }),
      schemaOf(["c"], { minProperties: 2, maxProperties: 3 }),
    );
  });
  it("dependentRequired over declared keys", () => {
    const dr = { a: ["d"], d: ["b"], e: ["a"] };
    checkSubsets(obj({ properties: props([]), dependentRequired: dr }), schemaOf([], { dependentRequired: dr }));
  });
  it("flexible whitespace around every token, bounded", () => {
    const { acceptor } = lowerNode(obj({ properties: props(["b"]) }), { whitespace: { flexible: { maxRun: 2 } } });
    expect(acceptor.accepts('{ "a" :"x",\n"b":\t2 }')).toBe(true);
    expect(acceptor.accepts('{"b":2}')).toBe(true);
    expect(acceptor.accepts('{   "b":2}')).toBe(false);
    expect(acceptor.accepts('{"b":2,}')).toBe(false);
  });
});

describe("lowerObject: undeclared keys", () => {
  const node = obj({
    properties: props(["a"]).slice(0, 2),
    additionalProperties: int({ path: "/additionalProperties" }),
  });
  const schema = {
    type: "object",
    properties: { a: { type: "string" }, b: { type: "integer" } },
    required: ["a"],
    additionalProperties: { type: "integer" },
  };
  const texts = [
    '{"a": "x"}',
    '{"a": "x", "z": 1}',
    '{"a": "x", "z": 1, "y": 2}',
    '{"a": "x", "z": "no"}',
    '{"a": "x", "a": 1}',
    '{"a": "x", "b": 1, "b": 2}',
    '{"a": "x", "b": 1, "bb": 2}',
    '{"z": 1}',
    '{"a": "x", "": 3}',
    '{"a": "x", "z": 1, "z": 2}',
  ];
  it("accepted texts are valid, extras exclude declared keys", () => {
    const { acceptor } = lowerNode(node);
    const validate = ajv.compile(schema);
    const verdicts = texts.map((t) => [t, acceptor.accepts(t), validate(JSON.parse(t))]);
    for (const [t, got, valid] of verdicts) if (got) expect({ t, valid }).toEqual({ t, valid: true });
    expect(acceptor.accepts('{"a": "x", "z": 1, "y": 2}')).toBe(true);
    expect(acceptor.accepts('{"a": "x", "a": 1}')).toBe(false);
    expect(acceptor.accepts('{"a": "x", "b": 1, "b": 2}')).toBe(false);
  });
  it("any value under additionalProperties", () => {
    const { acceptor } = lowerNode(obj({ additionalProperties: any() }));
    for (const t of ["{}", '{"k": [1, {"x": null}], "q": "s"}', '{"k": true}']) expect(acceptor.accepts(t)).toBe(true);
    expect(acceptor.accepts('{"k": [1,2]}')).toBe(false); // compact style: ", " only
  });
  it("minProperties that two undeclared keys must fill is refused in strict mode", () => {
    expect(() => lowerNode(obj({ additionalProperties: any(), minProperties: 2 }))).toThrow(/minProperties/);
    const { acceptor, ctx } = lowerNode(obj({ additionalProperties: any(), minProperties: 1 }));
    expect(ctx.warnings).toEqual([]);
    expect(acceptor.accepts("{}")).toBe(false);
    expect(acceptor.accepts('{"k": 1}')).toBe(true);
  });
  it("propertyNames enum lists the undeclared keys", () => {
    const { acceptor } = lowerNode(
      obj({ additionalProperties: int(), propertyNames: { kind: "enum", path: "/propertyNames", values: ["p", "q"] } }),
    );
    expect(acceptor.accepts('{"p": 1, "q": 2}')).toBe(true);
    expect(acceptor.accepts('{"r": 1}')).toBe(false);
  });
});
