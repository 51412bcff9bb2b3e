import { describe, expect, it } from "vitest";
import type { NumberNode } from "../../src/schema/SchemaNode.js";
import { ajv, numberAcceptor, numberSchema } from "../support/lower/numberHarness.js";

function node(p: Partial<NumberNode>): NumberNode {
  return { kind: "number", path: "", integer: false, ...p };
}

/** Every listed text: grammar verdict must equal ajv's, except `fewer` texts the grammar may reject. */
function check(n: NumberNode, texts: string[], expected?: Record<string, boolean>): void {
  const acc = numberAcceptor(n);
  const validate = ajv.compile(numberSchema(n));
  for (const t of texts) {
    const valid = validate(JSON.parse(t));
    const got = acc.accepts(t);
    if (got) expect({ t, valid }).toEqual({ t, valid: true });
    if (expected && t in expected) expect({ t, got }).toEqual({ t, got: expected[t] });
  }
}

describe("lowerNumber examples", () => {
  it("exclusiveMinimum 0.1 rejects texts that round to 0.1", () => {
    check(
      node({ minimum: { value: 0.1, exclusive: true } }),
      ["0.1", "0.10000000000000000001", "0.10000000000000001", "0.1000000000000001", "0.2", "1", "-1", "0"],
      {
        "0.1": false,
        "0.10000000000000000001": false,
        "0.10000000000000001": false,
        "0.2": true,
        "1": true,
        "-1": false,
      },
    );
  });
  it("integer ranges with negatives and -0", () => {
    check(
      node({ integer: true, minimum: { value: -15, exclusive: false }, maximum: { value: 120, exclusive: true } }),
      ["-16", "-15", "-0", "0", "119", "120", "1.5", "-1"],
      { "-16": false, "-15": true, "-0": true, "0": true, "119": true, "120": false },
    );
  });
  it("multipleOf 7 in a range", () => {
    const texts = Array.from({ length: 80 }, (_, i) => String(i - 40));
    const expected = Object.fromEntries(
      texts.map((t) => [t, Number(t) % 7 === 0 && Number(t) >= -30 && Number(t) <= 35]),
    );
    check(
      node({
        integer: true,
        minimum: { value: -30, exclusive: false },
        maximum: { value: 35, exclusive: false },
        multipleOf: [7],
      }),
      texts,
      expected,
    );
  });
  it("plain integers and numbers", () => {
    // ajv accepts 1e999 (JSON.parse gives Infinity), but a re-serialized call would carry null: refused on purpose
    check(node({ integer: true }), ["0", "-0", "12", "1e999", "1".padEnd(309, "0")], {
      "0": true,
      "-0": true,
      "12": true,
      "1e999": false,
      ["1".padEnd(309, "0")]: false,
    });
    check(node({}), ["0", "-0.5e-3", "1E+2", "1e999", "9e307", "1e308"], {
      "0": true,
      "-0.5e-3": true,
      "1E+2": true,
      "1e999": false,
      "9e307": true,
      "1e308": false,
    });
  });
});
