/**
 * fast-check arbitraries shared by the property tests and the fuzzers: JSON Schemas drawn from the supported subset,
 * values near a schema (often valid, often slightly wrong), and tool sets.
 */
import fc from "fast-check";
import type { JsonValue } from "../../src/json.js";

export type Schema = Record<string, JsonValue>;

const smallInt = fc.integer({ min: -50, max: 50 });
const key = fc.constantFrom("a", "b", "city", "n", "x y", 'q"k', "é", "</tool_call>");
const patterns = fc.constantFrom(
  "^[a-z]+$",
  "^[0-9]{2,4}$",
  "ab",
  "^a.*z$",
  "^(foo|bar)\\d?$",
  "[A-Z]",
  "^\\w+@\\w+\\.com$",
);
const formats = fc.constantFrom("date", "email", "uuid", "ipv4", "date-time", "time", "hostname");

export const leafSchema: fc.Arbitrary<Schema> = fc.oneof(
  fc.record(
    {
      type: fc.constant("string"),
      minLength: fc.integer({ min: 0, max: 3 }),
      maxLength: fc.integer({ min: 0, max: 6 }),
    },
    { requiredKeys: ["type"] },
  ),
  fc.record({ type: fc.constant("string"), pattern: patterns }),
  fc.record({ type: fc.constant("string"), format: formats }),
  fc.record({
    type: fc.constant("string"),
    enum: fc.uniqueArray(fc.string({ maxLength: 5 }), { minLength: 1, maxLength: 4 }),
  }),
  fc.record(
    { type: fc.constant("integer"), minimum: smallInt, maximum: smallInt, exclusiveMinimum: smallInt },
    { requiredKeys: ["type"] },
  ),
  fc.record({ type: fc.constant("integer"), multipleOf: fc.integer({ min: 1, max: 7 }) }),
  fc.record(
    {
      type: fc.constant("number"),
      minimum: fc.double({ min: -100, max: 100, noNaN: true }),
      exclusiveMaximum: fc.double({ min: -100, max: 100, noNaN: true }),
    },
    { requiredKeys: ["type"] },
  ),
  fc.constant({ type: "boolean" }),
  fc.constant({ type: "null" }),
  fc.record({
    enum: fc.uniqueArray(fc.oneof(fc.string({ maxLength: 4 }), smallInt, fc.boolean(), fc.constant(null)), {
      minLength: 1,
      maxLength: 4,
    }),
  }),
  fc.record({ const: fc.oneof(fc.string({ maxLength: 4 }), smallInt) }),
);

export const schemaArb = fc.letrec((tie) => ({
  s: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    leafSchema,
    fc
      .record({
        props: fc.uniqueArray(fc.tuple(key, tie("s") as fc.Arbitrary<Schema>), { maxLength: 3, selector: (t) => t[0] }),
        req: fc.array(fc.boolean(), { minLength: 3, maxLength: 3 }),
        additional: fc.oneof(fc.constant(false), fc.constant(true), leafSchema),
      })
      .map(({ props, req, additional }) => ({
        type: "object",
        properties: Object.fromEntries(props),
        required: props.filter((_, i) => req[i]).map(([k]) => k),
        additionalProperties: additional,
      })),
    fc
      .record(
        {
          items: tie("s") as fc.Arbitrary<Schema>,
          minItems: fc.integer({ min: 0, max: 2 }),
          maxItems: fc.integer({ min: 0, max: 4 }),
        },
        { requiredKeys: ["items"] },
      )
      .map((r) => ({ type: "array", ...r })),
    fc.record({ anyOf: fc.array(tie("s") as fc.Arbitrary<Schema>, { minLength: 1, maxLength: 3 }) }),
    fc.record({ type: fc.constant(["string", "null"]), maxLength: fc.integer({ min: 0, max: 5 }) }),
  ),
})).s as fc.Arbitrary<Schema>;

/** Values shaped like the schema (often valid, often slightly wrong) plus arbitrary JSON. */
export function nearValue(schema: Schema): fc.Arbitrary<JsonValue> {
  const any = fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<JsonValue>;
  if (Array.isArray(schema.enum)) return fc.oneof(fc.constantFrom(...(schema.enum as JsonValue[])), any);
  if ("const" in schema) return fc.oneof(fc.constant(schema.const as JsonValue), any);
  if (Array.isArray(schema.anyOf)) return fc.oneof(...(schema.anyOf as Schema[]).map(nearValue), any);
  switch (schema.type) {
    case "string":
      return fc.oneof(
        fc.string({ maxLength: 8 }),
        fc.stringMatching(/^[a-z0-9]{0,6}$/),
        fc.constantFrom(
          "2024-02-29",
          "1999-13-01",
          "a@b.co",
          "12:30:00Z",
          "0b9e5d6a-58a4-4f7e-9f61-1f1c8b1e2f3a",
          "10.0.0.1",
          "2024-01-01T10:00:00Z",
          "foo1",
          "abz",
          'x\ny"\\',
          "日本🎉",
        ),
        any,
      );
    case "integer":
    case "number":
      return fc.oneof(
        fc.integer({ min: -60, max: 60 }),
        fc.double({ min: -120, max: 120, noNaN: true, noDefaultInfinity: true }),
        any,
      );
    case "object": {
      const props = Object.entries((schema.properties ?? {}) as Record<string, Schema>);
      const rec: Record<string, fc.Arbitrary<JsonValue>> = {};
      for (const [k, s] of props) rec[k] = nearValue(s);
      return fc.oneof(
        fc
          .record(rec, { requiredKeys: [] })
          .chain((o) =>
            fc
              .option(fc.tuple(key, fc.jsonValue({ maxDepth: 1 }) as fc.Arbitrary<JsonValue>))
              .map((extra) => (extra ? { ...o, [extra[0]]: extra[1] } : o)),
          ),
        any,
      ) as fc.Arbitrary<JsonValue>;
    }
    case "array":
      return fc.oneof(fc.array(nearValue(schema.items as Schema), { maxLength: 5 }), any) as fc.Arbitrary<JsonValue>;
    default:
      return any;
  }
}

const toolName = fc.constantFrom("get_weather", "search", "math.factorial", "with space", 'q"uote', "日本");

/**
 * 1–3 tools with object parameters built from the schema arbitrary. Each parameters object states
 * `additionalProperties` explicitly: compiled tool grammars forbid undeclared argument keys by default, which the
 * schema alone does not say, and the parser's ajv check must judge the same language as the grammar.
 */
export const toolSetArb = fc
  .uniqueArray(
    fc.tuple(
      toolName,
      fc.uniqueArray(fc.tuple(key, schemaArb), { maxLength: 3, selector: (t) => t[0] }),
      fc.array(fc.boolean(), { minLength: 3, maxLength: 3 }),
    ),
    { minLength: 1, maxLength: 3, selector: (t) => t[0] },
  )
  .map((ts) =>
    ts.map(([name, props, req]) => ({
      type: "function",
      function: {
        name,
        parameters: {
          type: "object",
          properties: Object.fromEntries(props),
          required: props.filter((_, i) => req[i]).map(([k]) => k),
          additionalProperties: req[0] && req[1],
        },
      },
    })),
  );

export type ToolSet = { type: string; function: { name: string; parameters: Schema } }[];
