import { describe, expect, it } from "vitest";
import { resolveCallPolicy, type CallPolicyOptions } from "../../src/envelope/callPolicy.js";

const names = ["a", "b"];

describe("resolveCallPolicy", () => {
  it("defaults: auto, unbounded, free text", () => {
    expect(resolveCallPolicy({}, names)).toEqual({ minCalls: 0, maxCalls: null, allowed: names, freeText: true });
  });

  it("required and named choices force a call and default to no free text", () => {
    expect(resolveCallPolicy({ toolChoice: "required" }, names)).toEqual({
      minCalls: 1,
      maxCalls: null,
      allowed: names,
      freeText: false,
    });
    expect(resolveCallPolicy({ toolChoice: "b", parallel: 2 }, names)).toEqual({
      minCalls: 1,
      maxCalls: 2,
      allowed: ["b"],
      freeText: false,
    });
    expect(
      resolveCallPolicy({ toolChoice: { type: "function", function: { name: "a" } }, freeText: true }, names),
    ).toEqual({ minCalls: 1, maxCalls: null, allowed: ["a"], freeText: true });
  });

  it("none allows text only", () => {
    expect(resolveCallPolicy({ toolChoice: "none" }, names)).toEqual({
      minCalls: 0,
      maxCalls: 0,
      allowed: [],
      freeText: true,
    });
  });

  it("parallel: false is one call at most", () => {
    expect(resolveCallPolicy({ parallel: false }, names).maxCalls).toBe(1);
  });

  it.each<[CallPolicyOptions]>([
    [{ toolChoice: "c" }],
    [{ toolChoice: { type: "function" as const, function: { name: "zz" } } }],
    [{ toolChoice: 3 as unknown as string }],
    [{ parallel: 0 }],
    [{ parallel: 1.5 }],
    [{ parallel: "2" as unknown as number }],
    [{ toolChoice: "none", freeText: false }],
    [{ freeText: "yes" as unknown as boolean }],
  ])("refuses %j with INVALID_OPTION", (o) => {
    expect(() => resolveCallPolicy(o, names)).toThrow(expect.objectContaining({ code: "INVALID_OPTION" }));
  });

  it("required with no tools is refused", () => {
    expect(() => resolveCallPolicy({ toolChoice: "required" }, [])).toThrow(
      expect.objectContaining({ code: "INVALID_OPTION" }),
    );
  });

  it("allowed: a subset of the declared tools, in declaration order, text allowed unless mode is required", () => {
    const three = ["a", "b", "c"];
    expect(resolveCallPolicy({ toolChoice: { allowed: ["c", "a"] } }, three)).toEqual({
      minCalls: 0,
      maxCalls: null,
      allowed: ["a", "c"],
      freeText: true,
    });
    expect(resolveCallPolicy({ toolChoice: { allowed: ["b"], mode: "required" }, parallel: 1 }, three)).toEqual({
      minCalls: 1,
      maxCalls: 1,
      allowed: ["b"],
      freeText: false,
    });
  });

  it("allowed names every unknown tool in its error", () => {
    expect(() => resolveCallPolicy({ toolChoice: { allowed: ["a", "x", "y"] } }, names)).toThrow(
      /toolChoice.allowed names "x", "y", not declared tool\(s\); declared: "a", "b"/,
    );
    for (const toolChoice of [
      { allowed: [] },
      { allowed: "a" },
      { allowed: ["a"], mode: "none" },
      { allowed: ["a"], extra: 1 },
    ]) {
      expect(() => resolveCallPolicy({ toolChoice: toolChoice as CallPolicyOptions["toolChoice"] }, names)).toThrow(
        expect.objectContaining({ code: "INVALID_OPTION" }),
      );
    }
  });
});
