import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { compileTools } from "../../src/compile.js";
import { canonicalJson, type JsonValue } from "../../src/json.js";
import { checkGbnfBatchWithLlamaCpp } from "../../src/testing/checkGbnfWithLlamaCpp.js";

const call = (name: string, args: JsonValue): string =>
  `<tool_call>\n${canonicalJson({ name, arguments: args })}\n</tool_call>`;

const samples = [
  call("get_weather", { city: "Paris" }),
  `Let me look.\n${call("get_weather", { city: "Paris", unit: "celsius" })}\n${call("get_forecast", { city: "Oslo", days: 3 })}`,
  call("get_forecast", { city: "Oslo", days: 15 }),
  call("read_file", { path: "a.txt" }),
  call("exec", { command: "ls", timeout: 10 }),
  call("list_allowed_directories", {}),
  call("read_file", { path: "a.txt", head: null }),
  "plain text, mentioning </tool_call> and <tool_call without the bracket",
  "text <tool_call> text",
  `${call("get_weather", { city: "Paris" })}\n`,
  "",
];

describe("examples through llama.cpp's grammar parser and engine", () => {
  it("every example grammar parses, and llama.cpp agrees with accepts() on samples", async () => {
    const compiled = ["weather", "seed", "mcp-filesystem", "assistant"].map((n) =>
      compileTools(JSON.parse(readFileSync(new URL(`../../examples/${n}.tools.json`, import.meta.url), "utf8")), {
        limits: { maxCompileMs: 600_000 },
      }),
    );
    const results = await checkGbnfBatchWithLlamaCpp(compiled.map((c) => ({ grammar: c.toGbnf(), samples })));
    results.forEach((r, i) => {
      expect(r.error).toBeUndefined();
      expect(r.ok).toBe(true);
      expect(r.samples).toEqual(samples.map((s) => compiled[i].accepts(s)));
    });
    // the samples do discriminate
    expect(results[0].samples?.slice(0, 3)).toEqual([true, true, false]);
  }, 120_000);
});
