import { describe, expect, it } from "vitest";
import { githubMcpTools } from "../../bench/toolSets.js";
import { compileSchema, compileTools } from "../../src/compile.js";
import { numberLowerings } from "../../src/lower/number/lowerNumber.js";
import { toolFragments } from "../../src/ToolFragmentCache.js";

const policy = { format: "qwen3", toolChoice: "required", parallel: false } as const;

/**
 * A number without multipleOf is the same expression wherever its kind and bounds are the same (no rule, no warning,
 * no step): built once per process and shared, so the passes after the lowering also see one object. Counted in
 * lowerings, never timed.
 */
describe("numbers shared by kind and bounds", () => {
  it("the 117 GitHub tools' many page and perPage numbers are a few lowerings, and none in a second cold compile", () => {
    toolFragments.clear();
    const before = numberLowerings.lowered;
    const first = compileTools(githubMcpTools(), policy);
    const numbers = githubMcpTools().reduce(
      (n, t) => n + (JSON.stringify(t.inputSchema).match(/"type":"(number|integer)"/g)?.length ?? 0),
      0,
    );
    expect(numbers).toBeGreaterThan(50);
    expect(numberLowerings.lowered - before).toBeLessThanOrEqual(5);
    toolFragments.clear();
    const again = numberLowerings.lowered;
    const second = compileTools(githubMcpTools(), policy);
    expect(numberLowerings.lowered).toBe(again);
    expect(second.compileSteps).toBe(first.compileSteps);
  });

  it("bounds that differ (exclusive, sign of zero, integer or not) are lowered apart and stay exact", () => {
    const cases: [object, string[], string[]][] = [
      [{ type: "integer", minimum: 1 }, ["1", "20"], ["0", "-1"]],
      [{ type: "integer", exclusiveMinimum: 1 }, ["2"], ["1"]],
      [{ type: "number", minimum: 1 }, ["1", "1.5"], ["0.99"]],
      [{ type: "number", maximum: 0 }, ["0", "-0", "-2"], ["0.1"]],
      [{ type: "number", maximum: -0, exclusiveMaximum: -0 }, ["-0.5"], ["0", "-0"]],
    ];
    for (const [schema, valid, invalid] of cases) {
      const c = compileSchema(schema);
      for (const v of valid) expect(c.accepts(v), `${JSON.stringify(schema)} ${v}`).toBe(true);
      for (const v of invalid) expect(c.accepts(v), `${JSON.stringify(schema)} ${v}`).toBe(false);
    }
  });
});
