import { describe, expect, it } from "vitest";
import type { StringNode } from "../../src/schema/SchemaNode.js";
import { lowerNode } from "../support/lower/lowerHarness.js";
import { obj } from "../support/lower/nodes.js";

// JSONSchemaBench Github_hard---o21075: one "at most N words" string schema under many properties; each copy needed an
// automaton of thousands of states and as many rules (deduplicated only afterwards), and the compile ran out of time.
const words = (path: string): StringNode => ({
  kind: "string",
  path,
  minLength: 1,
  maxLength: 60,
  patterns: ["^(?:\\S+\\s+){0,9}\\S+$"],
  notPatterns: [],
  formats: [],
});

describe("a string schema repeated under several properties", () => {
  const node = obj({
    properties: ["a", "b", "c"].map((name: string) => ({
      key: name,
      schema: words(`/properties/${name}`),
      required: true,
    })),
  });

  it("is lowered once: its rules are shared", () => {
    const { ctx } = lowerNode(node);
    const names = [...ctx.rules.keys()];
    expect(names.filter((n) => n.startsWith("t-a-str")).length).toBeGreaterThan(100); // an automaton's rules
    expect(names.filter((n) => /^t-[bc]-str/.test(n))).toEqual([]);
  });

  it("still constrains every property", () => {
    const { acceptor } = lowerNode(node);
    expect(acceptor.accepts('{"a": "x y", "b": "one two three", "c": "z"}')).toBe(true);
    expect(acceptor.accepts('{"a": "x y", "b": "one two ", "c": "z"}')).toBe(false);
    expect(acceptor.accepts('{"a": "x y", "b": "w", "c": "1 2 3 4 5 6 7 8 9 10"}')).toBe(true);
    expect(acceptor.accepts('{"a": "x y", "b": "w", "c": "1 2 3 4 5 6 7 8 9 10 11"}')).toBe(false);
    expect(acceptor.accepts(`{"a": "x", "b": "w", "c": "${"y".repeat(60)}"}`)).toBe(true);
    expect(acceptor.accepts(`{"a": "x", "b": "w", "c": "${"y".repeat(61)}"}`)).toBe(false);
  });
});
