/**
 * Adversarial schemas and tool sets. Each case says what must happen: it compiles within the limits, or it is refused
 * with its own error code. Run in a capped child process by test/hostile/hostile.test.ts (see runHostile.ts).
 */
export interface HostileCase {
  name: string;
  kind: "schema" | "tools";
  build: () => unknown;
  /** Error code expected, or "compiles". A list: any of them. */
  expect: string | string[];
}

function nested(depth: number): unknown {
  let s: unknown = { type: "string" };
  for (let i = 0; i < depth; i++) s = { type: "object", properties: { a: s }, required: ["a"] };
  return s;
}

function nestedArrays(depth: number): unknown {
  let s: unknown = { type: "integer" };
  for (let i = 0; i < depth; i++) s = { type: "array", items: s };
  return s;
}

const tool = (
  name: string,
  parameters: unknown = { type: "object", properties: { x: { type: "string" } } },
  description = "",
): unknown => ({
  type: "function",
  function: { name, description, parameters },
});

export const HOSTILE_CASES: HostileCase[] = [
  { name: "10,000 nested objects", kind: "schema", build: () => nested(10_000), expect: "LIMIT_NESTING" },
  { name: "10,000 nested arrays", kind: "schema", build: () => nestedArrays(10_000), expect: "LIMIT_NESTING" },
  { name: "100 nested objects", kind: "schema", build: () => nested(100), expect: "compiles" },
  {
    name: "recursive $ref (linked list)",
    kind: "schema",
    build: () => ({
      $defs: {
        node: {
          type: "object",
          properties: { v: { type: "integer" }, next: { anyOf: [{ $ref: "#/$defs/node" }, { type: "null" }] } },
          required: ["v"],
        },
      },
      $ref: "#/$defs/node",
    }),
    expect: "compiles",
  },
  {
    name: "mutually recursive $refs",
    kind: "schema",
    build: () => ({
      $defs: {
        a: { type: "object", properties: { b: { $ref: "#/$defs/b" } } },
        b: { type: "array", items: { $ref: "#/$defs/a" } },
      },
      $ref: "#/$defs/a",
    }),
    expect: "compiles",
  },
  {
    name: "$ref cycle with no base case",
    kind: "schema",
    build: () => ({ $defs: { a: { $ref: "#/$defs/b" }, b: { $ref: "#/$defs/a" } }, $ref: "#/$defs/a" }),
    expect: ["UNSATISFIABLE", "INVALID_REF", "LIMIT_REF_DEPTH"],
  },
  {
    name: "self $ref at the root",
    kind: "schema",
    build: () => ({ $ref: "#" }),
    expect: ["UNSATISFIABLE", "INVALID_REF", "LIMIT_REF_DEPTH"],
  },
  {
    name: "required recursion with no base case",
    kind: "schema",
    build: () => ({ type: "object", properties: { a: { $ref: "#" } }, required: ["a"] }),
    expect: ["UNSATISFIABLE", "compiles"],
  },
  {
    name: "enum of 100,000 strings",
    kind: "schema",
    build: () => ({ enum: Array.from({ length: 100_000 }, (_, i) => `v${i}`) }),
    expect: "LIMIT_ENUM_SIZE",
  },
  {
    name: "enum of 10,000 strings",
    kind: "schema",
    build: () => ({ enum: Array.from({ length: 10_000 }, (_, i) => `value-${i}`) }),
    expect: "compiles",
  },
  {
    name: "maxLength 1e9",
    kind: "schema",
    build: () => ({ type: "string", maxLength: 1e9 }),
    expect: ["compiles", "LIMIT_REPETITION"],
  },
  {
    name: "minLength 1e9",
    kind: "schema",
    build: () => ({ type: "string", minLength: 1e9 }),
    expect: ["LIMIT_REPETITION"],
  },
  {
    name: "maxItems 1e9 of objects",
    kind: "schema",
    build: () => ({ type: "array", items: { type: "object", properties: { a: { type: "integer" } } }, maxItems: 1e9 }),
    expect: ["compiles", "LIMIT_REPETITION"],
  },
  {
    name: "minItems > maxItems",
    kind: "schema",
    build: () => ({ type: "array", minItems: 3, maxItems: 1 }),
    expect: "UNSATISFIABLE",
  },
  {
    name: "minLength > maxLength inside a property",
    kind: "schema",
    build: () => ({
      type: "object",
      properties: { s: { type: "string", minLength: 3, maxLength: 1 } },
      required: ["s"],
    }),
    expect: "UNSATISFIABLE",
  },
  {
    name: "pattern with {3,1}",
    kind: "schema",
    build: () => ({ type: "string", pattern: "^a{3,1}$" }),
    expect: "INVALID_PATTERN",
  },
  {
    name: "catastrophic-backtracking pattern",
    kind: "schema",
    build: () => ({ type: "string", pattern: "^(a+)+$" }),
    expect: "compiles",
  },
  {
    name: "catastrophic-backtracking pattern 2",
    kind: "schema",
    build: () => ({ type: "string", pattern: "^(a|a?)+b$" }),
    expect: "compiles",
  },
  {
    name: "huge nested quantifier",
    kind: "schema",
    build: () => ({ type: "string", pattern: "^(a{1,1000}){1,1000}$" }),
    expect: ["LIMIT_REPETITION", "LIMIT_AUTOMATON_SIZE", "LIMIT_GRAMMAR_SIZE", "compiles"],
  },
  {
    name: "quantifier 1e9",
    kind: "schema",
    build: () => ({ type: "string", pattern: "^x{1000000000}$" }),
    expect: ["LIMIT_REPETITION", "LIMIT_AUTOMATON_SIZE"],
  },
  {
    name: "backreference",
    kind: "schema",
    build: () => ({ type: "string", pattern: "^(a)\\1$" }),
    expect: "UNSUPPORTED_PATTERN",
  },
  {
    name: "lookahead inside an unbounded repetition",
    kind: "schema",
    build: () => ({ type: "string", pattern: "^(?:(?!ab).)*$" }),
    expect: "UNSUPPORTED_PATTERN",
  },
  {
    name: "integer range with 400-digit bounds",
    kind: "schema",
    build: () => ({ type: "integer", minimum: -1e300, maximum: 1e300 }),
    expect: ["compiles", "LIMIT_GRAMMAR_SIZE"],
  },
  {
    name: "2,000 tools",
    kind: "tools",
    build: () =>
      Array.from({ length: 2000 }, (_, i) =>
        tool(`tool_${i}`, {
          type: "object",
          properties: { q: { type: "string" }, n: { type: "integer", minimum: 0, maximum: i } },
          required: ["q"],
        }),
      ),
    expect: "compiles",
  },
  {
    name: "1 MB description",
    kind: "tools",
    build: () => [tool("big", undefined, "x".repeat(1 << 20))],
    expect: "compiles",
  },
  {
    name: "names with quotes, newlines, </tool_call> and control characters",
    kind: "tools",
    build: () => [
      tool('a"b'),
      tool("line\nbreak"),
      tool("</tool_call>"),
      tool("ctl\u0001\u007f"),
      tool("math.factorial"),
      tool("with space"),
    ],
    expect: "compiles",
  },
  { name: "duplicate tool names", kind: "tools", build: () => [tool("a"), tool("a")], expect: "DUPLICATE_TOOL" },
  { name: "empty tool name", kind: "tools", build: () => [tool("")], expect: "INVALID_TOOL" },
  {
    name: "10,000 tools",
    kind: "tools",
    build: () => Array.from({ length: 10_000 }, (_, i) => tool(`t${i}`)),
    expect: "LIMIT_TOOLS",
  },
];
