/**
 * Property: for random schemas from the supported subset and random instances near them, `accepts()` on the
 * canonical text agrees with ajv. A schema the compiler refuses is skipped (and counted: the run must compile most).
 * Seeded; the seed is printed on failure. `FC_SEED=<n>` replays a run.
 */
import { expect, it } from "vitest";
import fc from "fast-check";
import { compileSchema } from "../../src/compile.js";
import { ToolgramError } from "../../src/errors.js";
import { canonicalJson, type JsonValue } from "../../src/json.js";
import { Referee } from "../../src/conformance/referee.js";

const SEED = Number(process.env.FC_SEED ?? 20261122);
const referee = new Referee();

type Schema = Record<string, JsonValue>;

const smallInt = fc.integer({ min: -50, max: 50 });
const key = fc.constantFrom("a", "b", "city", "n", "x y", 'q"k', "é");
const patterns = fc.constantFrom("^[a-z]+$", "^[0-9]{2,4}$", "ab", "^a.*z$", "^(foo|bar)\\d?$", "[A-Z]");
const formats = fc.constantFrom("date", "email", "uuid", "ipv4", "date-time", "time", "hostname");

const leaf: fc.Arbitrary<Schema> = fc.oneof(
  fc.record({ type: fc.constant("string"), minLength: fc.integer({ min: 0, max: 3 }), maxLength: fc.integer({ min: 0, max: 6 }) }, { requiredKeys: ["type"] }),
  fc.record({ type: fc.constant("string"), pattern: patterns }),
  fc.record({ type: fc.constant("string"), format: formats }),
  fc.record({ type: fc.constant("integer"), minimum: smallInt, maximum: smallInt, exclusiveMinimum: smallInt }, { requiredKeys: ["type"] }),
  fc.record({ type: fc.constant("integer"), multipleOf: fc.integer({ min: 1, max: 7 }) }),
  fc.record({ type: fc.constant("number"), minimum: fc.double({ min: -100, max: 100, noNaN: true }), exclusiveMaximum: fc.double({ min: -100, max: 100, noNaN: true }) }, { requiredKeys: ["type"] }),
  fc.constant({ type: "boolean" }),
  fc.constant({ type: "null" }),
  fc.record({ enum: fc.uniqueArray(fc.oneof(fc.string({ maxLength: 4 }), smallInt, fc.boolean(), fc.constant(null)), { minLength: 1, maxLength: 4 }) }),
  fc.record({ const: fc.oneof(fc.string({ maxLength: 4 }), smallInt) }),
);

const schemaArb = fc.letrec((tie) => ({
  s: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    leaf,
    fc
      .record({
        props: fc.uniqueArray(fc.tuple(key, tie("s") as fc.Arbitrary<Schema>), { maxLength: 3, selector: (t) => t[0] }),
        req: fc.array(fc.boolean(), { minLength: 3, maxLength: 3 }),
        additional: fc.oneof(fc.constant(false), fc.constant(true), leaf),
      })
      .map(({ props, req, additional }) => ({
        type: "object",
        properties: Object.fromEntries(props),
        required: props.filter((_, i) => req[i]).map(([k]) => k),
        additionalProperties: additional,
      })),
    fc
      .record({ items: tie("s"), minItems: fc.integer({ min: 0, max: 2 }), maxItems: fc.integer({ min: 0, max: 4 }) }, { requiredKeys: ["items"] })
      .map((r) => ({ type: "array", ...r })),
    fc.record({ anyOf: fc.array(tie("s"), { minLength: 1, maxLength: 3 }) }),
    fc.record({ type: fc.constant(["string", "null"]), maxLength: fc.integer({ min: 0, max: 5 }) }),
  ),
})).s as fc.Arbitrary<Schema>;

/** Values shaped like the schema (often valid, often slightly wrong) plus arbitrary JSON. */
function near(schema: Schema): fc.Arbitrary<JsonValue> {
  const any = fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<JsonValue>;
  if (Array.isArray(schema.enum)) return fc.oneof(fc.constantFrom(...(schema.enum as JsonValue[])), any);
  if ("const" in schema) return fc.oneof(fc.constant(schema.const as JsonValue), any);
  if (Array.isArray(schema.anyOf)) return fc.oneof(...(schema.anyOf as Schema[]).map(near), any);
  switch (schema.type) {
    case "string":
      return fc.oneof(fc.string({ maxLength: 8 }), fc.stringMatching(/^[a-z0-9]{0,6}$/), fc.constantFrom("2024-02-29", "1999-13-01", "a@b.co", "12:30:00Z", "0b9e5d6a-58a4-4f7e-9f61-1f1c8b1e2f3a", "10.0.0.1", "2024-01-01T10:00:00Z", "foo1", "abz"), any);
    case "integer":
    case "number":
      return fc.oneof(fc.integer({ min: -60, max: 60 }), fc.double({ min: -120, max: 120, noNaN: true, noDefaultInfinity: true }), any);
    case "object": {
      const props = Object.entries((schema.properties ?? {}) as Record<string, Schema>);
      const rec: Record<string, fc.Arbitrary<JsonValue>> = {};
      for (const [k, s] of props) rec[k] = near(s);
      return fc.oneof(
        fc.record(rec, { requiredKeys: [] }).chain((o) => fc.option(fc.tuple(key, fc.jsonValue({ maxDepth: 1 }) as fc.Arbitrary<JsonValue>)).map((extra) => (extra ? { ...o, [extra[0]]: extra[1] } : o))),
        any,
      ) as fc.Arbitrary<JsonValue>;
    }
    case "array":
      return fc.oneof(fc.array(near(schema.items as Schema), { maxLength: 5 }), any) as fc.Arbitrary<JsonValue>;
    default:
      return any;
  }
}

it("accepts() agrees with ajv on random schemas and instances", () => {
  let compiled = 0;
  let refused = 0;
  let checked = 0;
  fc.assert(
    fc.property(
      schemaArb.chain((s) => fc.tuple(fc.constant(s), fc.array(near(s), { minLength: 1, maxLength: 8 }))),
      ([schema, values]) => {
        let g: ReturnType<typeof compileSchema>;
        try {
          g = compileSchema(schema);
        } catch (e) {
          if (e instanceof ToolgramError) {
            refused++;
            return true;
          }
          throw e;
        }
        compiled++;
        for (const v of values) {
          const text = canonicalJson(v);
          const want = referee.validText(schema, text);
          const got = g.accepts(text);
          checked++;
          if (got && !want) throw new Error(`invalid instance accepted: ${text} for ${JSON.stringify(schema)}`);
          if (!got && want) throw new Error(`valid instance rejected: ${text} for ${JSON.stringify(schema)}`);
        }
        return true;
      },
    ),
    { seed: SEED, numRuns: Number(process.env.FC_RUNS ?? 300), verbose: 1 },
  );
  console.log(`property: ${compiled} schemas compiled, ${refused} refused, ${checked} instances checked (seed ${SEED})`);
  expect(compiled).toBeGreaterThan(refused);
});
