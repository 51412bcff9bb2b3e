import { describe, expect, it } from "vitest";
import { foldExpr } from "../../src/grammar/analysis/foldExpr.js";
import { cls, lit, ref, rep, seq } from "../../src/grammar/build.js";
import type { GExpr } from "../../src/grammar/Grammar.js";

describe("foldExpr", () => {
  // a compile folds every node several times (sizes, structural identities, simplify, renames): leaves, most of the
  // nodes, are combined without an array of values of their own
  it("gives every leaf one shared empty array of values, and computes a shared subtree once", () => {
    const shared = seq(lit("k"), ref("v"));
    // built as objects: the smart constructors would flatten `shared` into the first sequence
    const e: GExpr = {
      type: "alt",
      items: [{ type: "seq", items: [lit("a"), shared, rep(cls([0x30, 0x39]), 1, 3)] }, shared, lit("b")],
    };
    const leafValues = new Set<readonly number[]>();
    let calls = 0;
    let innerArrays = 0;
    const size = foldExpr<number>(e, (_x, kids, kidNodes) => {
      calls++;
      expect(kids.length).toBe(kidNodes.length);
      if (kidNodes.length === 0) leafValues.add(kids);
      else innerArrays++;
      return kids.reduce((n, k) => n + k, 1);
    });
    // nodes: alt, seq(a …), lit a, shared seq, lit k, ref v, repeat, class, lit b — the shared seq computed once
    expect(calls).toBe(9);
    expect(innerArrays).toBe(4);
    expect(leafValues.size).toBe(1);
    // sizes as a tree: the shared subtree counts at each of its two places
    expect(size).toBe(12);
  });

  it("folds a chain deeper than the call stack", () => {
    let e: GExpr = lit("x");
    for (let i = 0; i < 100_000; i++) e = { type: "seq", items: [lit("y"), e] };
    expect(foldExpr<number>(e, (_, kids) => kids.reduce((n, k) => n + k, 1))).toBe(200_001);
  });
});
