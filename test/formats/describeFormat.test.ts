import type { FormatName } from "../../src/formats/FormatName.js";
import { describe, expect, it } from "vitest";
import { compileTools } from "../../src/compile.js";
import { describeFormat } from "../../src/formats/describeFormat.js";
import { FORMAT_DESCRIPTIONS, FORMAT_NAMES } from "../../src/formats/descriptions.js";
import { ToolgramError } from "../../src/errors.js";
import { parseToolCalls } from "../../src/parser/parseToolCalls.js";
import { renderToolCalls } from "../../src/parser/renderToolCalls.js";

const TOOLS = [
  { name: "get_weather", parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] } },
];

describe("format names and aliases", () => {
  it("every name and alias names one format", () => {
    const all = Object.values(FORMAT_DESCRIPTIONS).flatMap((d) => [d.name, ...d.aliases]);
    expect(new Set(all).size).toBe(all.length);
    for (const d of Object.values(FORMAT_DESCRIPTIONS)) {
      expect(FORMAT_DESCRIPTIONS[d.name as FormatName]).toBe(d);
      for (const n of [d.name, ...d.aliases]) expect(describeFormat(n)).toBe(d);
    }
    expect(FORMAT_NAMES).toEqual(Object.keys(FORMAT_DESCRIPTIONS));
  });

  it("an alias compiles, parses and renders as its format", () => {
    const call = [{ name: "get_weather", arguments: { city: "Paris" } }];
    const text = renderToolCalls(call, "hermes");
    expect(text).toBe(renderToolCalls(call, "qwen3"));
    const g = compileTools(TOOLS, { format: "hermes" });
    expect(g.format).toBe("qwen3");
    expect(g.accepts(text)).toBe(true);
    const r = parseToolCalls(text, { tools: TOOLS, format: "hermes", mode: "strict" });
    expect(r.issues).toEqual([]);
    expect(r.calls.map((c) => c.arguments)).toEqual([{ city: "Paris" }]);
    expect(describeFormat("llama3_json").name).toBe("llama3-json");
  });

  it("an unknown name is INVALID_OPTION listing the names and aliases", () => {
    for (const f of [
      () => describeFormat("qwen"),
      () => compileTools(TOOLS, { format: "qwen" }),
      () => parseToolCalls("", { format: "qwen" }),
      () => renderToolCalls([], "qwen"),
    ]) {
      let err: unknown;
      try {
        f();
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(ToolgramError);
      expect((err as ToolgramError).code).toBe("INVALID_OPTION");
      expect((err as Error).message).toMatch(/unknown format "qwen"; use one of qwen3, tools-array.*hermes \(qwen3\)/);
    }
  });
});
