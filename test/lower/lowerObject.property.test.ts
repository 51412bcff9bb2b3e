import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ToolgramError } from "../../src/errors.js";
import { canonicalJson, type JsonValue } from "../../src/json.js";
import type { ObjectNode, PropertyNode } from "../../src/schema/SchemaNode.js";
import { ajv, lowerNode } from "../support/lower/lowerHarness.js";
import { int, obj, str } from "../support/lower/nodes.js";

const SEED = Number(process.env.FC_SEED ?? 20261122);
const RUNS = Number(process.env.FC_RUNS ?? 60);
const DECLARED = ["a", "b", "c", "d"];
const isStr = (k: string): boolean => k === "a" || k === "c";

interface Case {
  required: boolean[];
  extras: boolean;
  minP: number;
  maxP: number | undefined;
  deps: Record<string, string[]>;
}

const caseArb: fc.Arbitrary<Case> = fc.record({
  required: fc.array(fc.boolean(), { minLength: 4, maxLength: 4 }),
  extras: fc.boolean(),
  minP: fc.integer({ min: 0, max: 3 }),
  maxP: fc.option(fc.integer({ min: 0, max: 5 }), { nil: undefined }),
  deps: fc.dictionary(
    fc.constantFrom("a", "b", "c", "d", "x"),
    fc.subarray(["a", "b", "c", "d", "y"], { maxLength: 2 }),
    { maxKeys: 2 },
  ),
});

/** An instance as text: members in the given order (keys may repeat), values of the right or wrong type. */
const memberArb: fc.Arbitrary<{ key: string; good: boolean }> = fc.record({
  key: fc.constantFrom("a", "b", "c", "d", "x", "y"),
  good: fc.boolean(),
});
const textOf = (members: { key: string; good: boolean }[]): string =>
  "{" +
  members
    .map(({ key, good }) => `${JSON.stringify(key)}: ${canonicalJson((isStr(key) === good ? "s" : 1) as JsonValue)}`)
    .join(", ") +
  "}";

describe(`objects agree with ajv (seed ${SEED})`, () => {
  it("random required/min/max/dependentRequired/additional, random member lists", () => {
    fc.assert(
      fc.property(
        caseArb,
        fc.array(fc.array(memberArb, { maxLength: 6 }), { minLength: 20, maxLength: 20 }),
        (c, instances) => {
          const properties: PropertyNode[] = DECLARED.map((key, i) => ({
            key,
            schema: isStr(key) ? str() : int(),
            required: c.required[i],
          }));
          const node: ObjectNode = obj({
            properties,
            additionalProperties: c.extras ? int() : false,
            minProperties: c.minP,
            dependentRequired: c.deps,
          });
          if (c.maxP !== undefined) node.maxProperties = c.maxP;
          const schema: Record<string, unknown> = {
            type: "object",
            properties: {
              a: { type: "string" },
              b: { type: "integer" },
              c: { type: "string" },
              d: { type: "integer" },
            },
            required: DECLARED.filter((_, i) => c.required[i]),
            additionalProperties: c.extras ? { type: "integer" } : false,
            minProperties: c.minP,
            dependentRequired: c.deps,
          };
          if (c.maxP !== undefined) schema.maxProperties = c.maxP;
          let acceptor;
          try {
            acceptor = lowerNode(node).acceptor;
          } catch (e) {
            // the only refusals allowed here: counts that repeated undeclared keys could fake, required keys needing undeclared ones
            expect(e instanceof ToolgramError && e.code === "UNSUPPORTED_KEYWORD").toBe(true);
            return;
          }
          const validate = ajv.compile(schema);
          // also every declared-order member list built from a valid object
          const all = [...instances];
          for (let m = 0; m < 16; m++)
            all.push(DECLARED.filter((_, i) => m & (1 << i)).map((key) => ({ key, good: true })));
          for (const members of all) {
            const text = textOf(members);
            const valid = validate(JSON.parse(text)) as boolean;
            const got = acceptor.accepts(text);
            if (got) expect({ text, valid }).toEqual({ text, valid: true });
            const keys = members.map((m) => m.key);
            const declaredOrder = keys
              .filter((k) => DECLARED.includes(k))
              .every((k, i, a) => i === 0 || DECLARED.indexOf(a[i - 1]) < DECLARED.indexOf(k));
            const extrasLast =
              keys.findIndex((k) => !DECLARED.includes(k)) === -1 ||
              keys.slice(keys.findIndex((k) => !DECLARED.includes(k))).every((k) => !DECLARED.includes(k));
            const undeclaredTriggers = Object.keys(c.deps).filter((k) => !DECLARED.includes(k));
            const canonical =
              new Set(keys).size === keys.length &&
              declaredOrder &&
              extrasLast &&
              !keys.some((k) => undeclaredTriggers.includes(k));
            // dependencies on undeclared keys force their declared triggers absent: fewer texts, so only one direction there
            const depsOnUndeclared = Object.entries(c.deps).some(
              ([k, ds]) => keys.includes(k) && ds.some((d) => !DECLARED.includes(d)),
            );
            if (canonical && !depsOnUndeclared) expect({ text, got }).toEqual({ text, got: valid });
          }
        },
      ),
      { seed: SEED, numRuns: RUNS },
    );
  }, 30_000);
});
