import { describe, expect, it } from "vitest";
import { githubMcpTools } from "../../bench/toolSets.js";
import { compileTools } from "../../src/compile.js";
import { grammarKey } from "../../src/grammar/analysis/exprKey.js";
import { stringContents } from "../../src/lower/lowerString.js";
import { toolFragments } from "../../src/ToolFragmentCache.js";

const policy = { format: "qwen3", toolChoice: "required", parallel: false } as const;

/**
 * A string's content that depends on its spec and the limits alone (a plain string, a format such as `date-time`,
 * lengths) is lowered once per process and shared by every later compile; contents with rules or steps of their own
 * (automata) stay per compile. Counted in lowerings, never timed.
 */
describe("string contents shared across compiles", () => {
  it("a second cold compile of the 117 GitHub tools lowers no plain or format string again, and gets the same grammar", () => {
    stringContents.clear();
    toolFragments.clear();
    const before = stringContents.lowered;
    const first = compileTools(githubMcpTools(), policy);
    const lowered = stringContents.lowered - before;
    // one lowering per distinct spec per tool before; the plain string alone was lowered in every tool that has one
    expect(lowered).toBeGreaterThan(0);
    toolFragments.clear();
    const reused = stringContents.reused;
    const again = stringContents.lowered;
    const second = compileTools(githubMcpTools(), policy);
    expect(stringContents.lowered - again).toBe(0);
    expect(stringContents.reused - reused).toBeGreaterThanOrEqual(lowered);
    expect(grammarKey(second.grammar)).toBe(grammarKey(first.grammar));
    // a compile spends the same steps whatever ran before it
    expect(second.compileSteps).toBe(first.compileSteps);
  });

  it("other limits or strictness lower the content again", () => {
    const tools = [
      {
        type: "function",
        function: {
          name: "when",
          parameters: { type: "object", properties: { at: { type: "string", format: "date-time" } }, required: ["at"] },
        },
      },
    ];
    stringContents.clear();
    toolFragments.clear();
    compileTools(tools, policy);
    const n = stringContents.lowered;
    toolFragments.clear();
    compileTools(tools, policy);
    expect(stringContents.lowered).toBe(n);
    toolFragments.clear();
    compileTools(tools, { ...policy, limits: { maxRepeatBound: 1000 } });
    expect(stringContents.lowered).toBe(n + 1);
    toolFragments.clear();
    compileTools(tools, { ...policy, strict: false });
    expect(stringContents.lowered).toBe(n + 2);
  });

  it("a large content (a pattern of 5,000 alternatives) is not kept for later compiles", () => {
    const big = `^(${Array.from({ length: 5000 }, (_, i) => `w${i}`).join("|")})$`;
    const tools = [
      {
        type: "function",
        function: {
          name: "pick",
          parameters: { type: "object", properties: { w: { type: "string", pattern: big } }, required: ["w"] },
        },
      },
    ];
    stringContents.clear();
    toolFragments.clear();
    const n = stringContents.lowered;
    compileTools(tools, policy);
    toolFragments.clear();
    compileTools(tools, policy);
    expect(stringContents.lowered).toBe(n + 2);
  });
});
