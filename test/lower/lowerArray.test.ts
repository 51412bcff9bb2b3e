import { describe, expect, it } from "vitest";
import { canonicalJson, type JsonValue } from "../../src/json.js";
import { containsLengths } from "../../src/lower/lowerArray.js";
import type { ArrayNode } from "../../src/schema/SchemaNode.js";
import { ajv, lowerNode } from "../support/lower/lowerHarness.js";
import { any, arr, int, str } from "../support/lower/nodes.js";

/** Verdicts on arrays built from the pool, every length up to 5: accepted === valid (canonical texts). */
function checkArrays(node: ArrayNode, schema: object, pool: JsonValue[], oracle?: (a: JsonValue[]) => boolean): void {
  const { acceptor } = lowerNode(node);
  const ajvValidate = ajv.compile(schema);
  // accepted texts must always be ajv-valid; the verdicts must match the oracle (ajv unless one is given)
  const validate = (a: JsonValue[]): boolean => {
    const v = oracle ? oracle(a) : (ajvValidate(a) as boolean);
    if (v) expect(ajvValidate(a)).toBe(true);
    return v;
  };
  const arrays: JsonValue[][] = [[]];
  for (let len = 1; len <= 5; len++) {
    for (let i = 0; i < 12; i++)
      arrays.push(Array.from({ length: len }, (_, j) => pool[(i * 7 + j * 3 + len) % pool.length]));
  }
  for (const a of arrays) {
    const text = canonicalJson(a);
    expect({ text, accepted: acceptor.accepts(text) }).toEqual({ text, accepted: validate(a) });
  }
}

const pool: JsonValue[] = [1, "a", 2, "b", 3, null, true];

describe("lowerArray", () => {
  it("items with min/maxItems", () => {
    checkArrays(
      arr({ items: int(), minItems: 1, maxItems: 3 }),
      { type: "array", items: { type: "integer" }, minItems: 1, maxItems: 3 },
      [1, 2, 3, 4],
    );
    checkArrays(arr({ items: int(), minItems: 2 }), { type: "array", items: { type: "integer" }, minItems: 2 }, [
      1,
      "x",
      3,
    ]);
  });
  it("prefixItems, closed and open", () => {
    checkArrays(
      arr({ prefixItems: [str(), int()], items: null, minItems: 1 }),
      { type: "array", prefixItems: [{ type: "string" }, { type: "integer" }], items: false, minItems: 1 },
      pool,
    );
    checkArrays(
      arr({ prefixItems: [str(), int()], items: { kind: "null", path: "" }, minItems: 0, maxItems: 4 }),
      { type: "array", prefixItems: [{ type: "string" }, { type: "integer" }], items: { type: "null" }, maxItems: 4 },
      ["a", 1, null, null, null],
    );
  });
  it("contains whose schema is the item schema or disjoint from it", () => {
    // items are integers or strings by position; contains integers
    checkArrays(
      arr({ prefixItems: [str(), int(), str()], items: int(), contains: { schema: int(), min: 2, max: 3 } }),
      {
        type: "array",
        prefixItems: [{ type: "string" }, { type: "integer" }, { type: "string" }],
        items: { type: "integer" },
        contains: { type: "integer" },
        minContains: 2,
        maxContains: 3,
      },
      ["a", 1, "b", 2, 3, 4],
      // ajv 8 accepts [] here (it skips contains when prefixItems and items are both present), so the spec is the oracle
      (a) => {
        const typed = a.every((v, i) => (i === 0 || i === 2 ? typeof v === "string" : Number.isInteger(v)));
        const n = a.filter((v) => Number.isInteger(v)).length;
        return typed && n >= 2 && n <= 3;
      },
    );
  });
  it("contains that items may or may not match is refused in strict mode", () => {
    expect(() => lowerNode(arr({ items: any(), contains: { schema: int(), min: 1 } }))).toThrow(/contains/);
    const { acceptor, ctx } = lowerNode(arr({ items: any(), contains: { schema: int(), min: 1 } }), { strict: false });
    expect(ctx.warnings.map((w) => w.code)).toEqual(["OVER_APPROXIMATED"]);
    expect(acceptor.accepts("[1]")).toBe(true);
  });
  it("containsLengths", () => {
    expect(containsLengths([false, true], true, 2, 3)).toEqual({ min: 3, max: 4 });
    expect(containsLengths([true, false], false, 1, undefined)).toEqual({ min: 1 });
    expect(containsLengths([true, true], false, 1, 1)).toEqual({ min: 1, max: 1 });
    expect(containsLengths([false], false, 1, undefined)).toBeNull();
  });
  it("refuses repeat bounds above the limit", () => {
    expect(() => lowerNode(arr({ items: int(), maxItems: 50 }), { limits: { maxRepeatBound: 10 } })).toThrow(
      /maxRepeatBound/,
    );
  });
  it("flexible whitespace", () => {
    const { acceptor } = lowerNode(arr({ items: int() }), { whitespace: { flexible: { maxRun: 1 } } });
    for (const t of ["[]", "[ ]", "[1,2]", "[ 1 , 2 ]", "[\n1]"]) expect(acceptor.accepts(t)).toBe(true);
    for (const t of ["[  ]", "[1,]", "[,1]", "[1  ,2]"]) expect(acceptor.accepts(t)).toBe(false);
  });
});
