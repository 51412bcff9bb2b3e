import { describe, expect, it } from "vitest";
import { githubMcpTools } from "../../bench/toolSets.js";
import { Deadline } from "../../src/Deadline.js";
import { LimitExceededError, type ToolgramError } from "../../src/errors.js";
import { clonePaths, cloneJson } from "../../src/tools/cloneJson.js";

describe("cloneJson", () => {
  it("copies a tool list without spelling a pointer per value (only an error spells one)", () => {
    const tools = githubMcpTools();
    const before = clonePaths.spelled;
    const copy = cloneJson(tools, "");
    expect(copy).toEqual(tools);
    expect(copy).not.toBe(tools);
    expect(clonePaths.spelled).toBe(before);
  });

  it("points an error at the value that raised it", () => {
    const bad = { tools: [{ name: "a", parameters: { properties: { "x/y": { minimum: Number.NaN } } } }] };
    expect(() => cloneJson(bad, "")).toThrow(
      expect.objectContaining({ code: "INVALID_INPUT", schemaPath: "/tools/0/parameters/properties/x~1y/minimum" }),
    );
    const cyclic: Record<string, unknown> = { a: [1, 2] };
    (cyclic.a as unknown[]).push(cyclic);
    expect(() => cloneJson(cyclic, "/base")).toThrow(expect.objectContaining({ schemaPath: "/base/a/2" }));
    try {
      cloneJson(
        { a: { b: [0, 1, 2, 3] } },
        "",
        undefined,
        Deadline.fromLimits({ maxCompileSteps: 18, maxCompileMs: Number.POSITIVE_INFINITY }),
      );
      expect.unreachable();
    } catch (e) {
      // four steps a value: the fifth value read (the root, a, b, b/0, b/1) is the one the budget stops at
      expect(e).toBeInstanceOf(LimitExceededError);
      expect((e as ToolgramError).code).toBe("LIMIT_COMPILE_STEPS");
      expect((e as ToolgramError).schemaPath).toBe("/a/b/1");
    }
  });

  it("keeps an array's holes and drops undefined properties", () => {
    const sparse: unknown[] = [1];
    sparse[2] = 3;
    const copy = cloneJson({ a: sparse, b: undefined }, "") as { a: unknown[] };
    expect(1 in copy.a).toBe(false);
    expect(JSON.stringify(copy)).toBe('{"a":[1,null,3]}');
  });

  it("tells its reader whether it copied a -0 (which JSON.stringify writes 0)", () => {
    const plain = { negativeZero: false };
    cloneJson({ a: [0, 1, -1, 0.5] }, "", undefined, undefined, plain);
    expect(plain.negativeZero).toBe(false);
    const minus = { negativeZero: false };
    cloneJson(JSON.parse('{"a": {"const": -0}}'), "", undefined, undefined, minus);
    expect(minus.negativeZero).toBe(true);
  });
});
