import { readdirSync, readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { extractCases, OUTPUTS_DIR, type ChatOutputCase } from "../../scripts/extract-chat-outputs.js";
import { llamaCppSource, type LlamaCppSource } from "../../src/testing/llamaCppSource.js";

interface Fixture {
  source: { repository: string; path: string; commit: string; license: string };
  template: string;
  cases: ChatOutputCase[];
}

const files = readdirSync(OUTPUTS_DIR).filter((f) => f.endsWith(".json") && f !== "tools.json");
const fixtures = files.map((f) => JSON.parse(readFileSync(join(OUTPUTS_DIR, f), "utf8")) as Fixture);
const tools = (
  JSON.parse(readFileSync(join(OUTPUTS_DIR, "tools.json"), "utf8")) as {
    tools: Record<string, { name: string; parameters: unknown }>;
  }
).tools;
const partial = (c: ChatOutputCase): boolean => "is_partial" in c.settings;

describe("test/fixtures/chat-outputs", () => {
  it("holds llama.cpp's parser cases for most templates, with provenance", () => {
    expect(fixtures.length).toBeGreaterThanOrEqual(50);
    expect(fixtures.reduce((n, f) => n + f.cases.length, 0)).toBeGreaterThanOrEqual(400);
    for (const f of fixtures) {
      expect(f.source).toMatchObject({ path: "tests/test-chat.cpp", license: "MIT" });
      expect(f.source.commit).toMatch(/^[0-9a-f]{40}$/);
      expect(f.template).toMatch(/^models\/templates\/.+\.jinja$/);
    }
  });

  it("pairs each output with calls it can hold: declared tools, names in the text, JSON arguments", () => {
    for (const f of fixtures) {
      for (const c of f.cases) {
        const where = `${f.template} line ${c.line}`;
        for (const t of c.tools) expect(tools[t], `${where}: tool ${t}`).toBeDefined();
        for (const call of c.expect?.toolCalls ?? []) {
          expect(c.text.includes(call.name), `${where}: ${call.name} not in the text`).toBe(true);
          if (!partial(c)) expect(() => JSON.parse(call.arguments === "" ? "{}" : call.arguments), where).not.toThrow();
        }
      }
    }
  });
});

describe("chat-outputs against llama.cpp's source", () => {
  let src: LlamaCppSource | undefined;
  beforeAll(async () => {
    src = await llamaCppSource();
    if (src === undefined)
      console.warn("skipped: llama.cpp's source is not available (node-llama-cpp's bundle or git missing)");
  }, 120_000);

  it("is what tests/test-chat.cpp holds (run npm run templates:extract-outputs)", ({ skip }) => {
    if (src === undefined) skip();
    const { byTemplate } = extractCases(
      readFileSync(join((src as LlamaCppSource).dir, "tests", "test-chat.cpp"), "utf8"),
    );
    expect([...byTemplate.keys()].map((t) => basename(t).replace(/\.jinja$/, ".json")).sort()).toEqual(
      [...files].sort(),
    );
    for (const f of fixtures) expect(byTemplate.get(f.template), f.template).toEqual(f.cases);
  });
});
