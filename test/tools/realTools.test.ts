import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { compileTools } from "../../src/compile.js";
import type { Diagnostic } from "../../src/diagnostic.js";
import { canonicalJson, type JsonValue } from "../../src/json.js";
import { normalizeTools } from "../../src/tools/normalizeTools.js";

const rows = readFileSync(new URL("../fixtures/llamafactory-tools/tools.jsonl", import.meta.url), "utf8")
  .split("\n")
  .filter(Boolean)
  .map((l) => JSON.parse(l) as { row: number; tools: string });
const byRow = (n: number): string => (rows.find((r) => r.row === n) as { tools: string }).tools;
const call = (name: string, args: JsonValue): string =>
  `<tool_call>\n${canonicalJson({ name, arguments: args })}\n</tool_call>`;

describe("real xLAM-style tool lists (LLaMA-Factory demo data)", () => {
  it("row 20: dict/int with `required` beside parameters", () => {
    const warnings: Diagnostic[] = [];
    const [t] = normalizeTools(byRow(20), warnings);
    expect(t.name).toBe("recent_unique_tournaments");
    expect(t.parameters).toMatchObject({
      type: "object",
      properties: { team_id: { type: "integer" } },
      required: ["team_id"],
    });
    expect(new Set(warnings.map((w) => w.code))).toEqual(new Set(["NONSTANDARD_TYPE", "NONSTANDARD_SCHEMA"]));
  });

  it("row 22: a parameter map; 'str, optional' is optional, plain 'str' required", () => {
    const c = compileTools(byRow(22));
    expect(c.tools.map((t) => t.parameters)).toEqual([
      { type: "object", properties: { block_id: expect.objectContaining({ type: "string" }) }, required: ["block_id"] },
      { type: "object", properties: { cards: expect.objectContaining({ type: "string" }) } },
    ]);
    expect(c.accepts(call("blocks", { block_id: "minecraft:stone" }))).toBe(true);
    expect(c.accepts(call("blocks", {}))).toBe(false);
    expect(c.accepts(call("us", {}))).toBe(true);
    expect(c.accepts(call("us", { cards: 2 }))).toBe(false);
  });

  it("row 26: every optional marker read; integers stay integers", () => {
    const c = compileTools(byRow(26));
    expect(c.accepts(call("take_image_screenshot", {}))).toBe(true);
    expect(c.accepts(call("take_image_screenshot", { width: 800, height: 600 }))).toBe(true);
    expect(c.accepts(call("take_image_screenshot", { width: 800.5 }))).toBe(false);
  });
});
