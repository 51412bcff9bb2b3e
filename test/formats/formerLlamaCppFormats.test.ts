/**
 * llama.cpp's former chat formats that name a format here (`Magistral`, `LFM2 with JSON tools`, `Llama 3.x with builtin
 * tools`, `Xiaomi MiMo`): the outputs of llama.cpp's own parser tests (test/fixtures/llama-cpp-former-formats, with
 * provenance) parse, under the format's llama.cpp name, into the calls, text and reasoning those tests expect; and
 * where a template writes the layout, its render is the canonical text.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { describeFormat } from "../../src/formats/describeFormat.js";
import type { JsonObject } from "../../src/json.js";
import { parseToolCalls } from "../../src/parser/parseToolCalls.js";
import { renderToolCalls } from "../../src/parser/renderToolCalls.js";
import { ChatTemplate } from "../../src/templates/renderTemplate.js";
import { llamaCppSource } from "../../src/testing/llamaCppSource.js";

interface Case {
  format: string;
  path: string;
  commit: string;
  case: string;
  text: string;
  calls: { name: string; arguments: JsonObject }[];
  content?: string;
  reasoning?: string;
}

const fixture = JSON.parse(
  readFileSync(new URL("../fixtures/llama-cpp-former-formats/cases.json", import.meta.url), "utf8"),
) as { cases: Case[] };

describe("llama.cpp's parser-test outputs of its former formats", () => {
  for (const c of fixture.cases) {
    it(`${c.format}: ${c.path.split("/").pop()} ${c.case}`, () => {
      const r = parseToolCalls(c.text, { format: c.format, mode: "tolerant" });
      expect(r.calls.map((x) => ({ name: x.name, arguments: x.arguments }))).toEqual(c.calls);
      if (c.content !== undefined) expect(r.content).toBe(c.content);
      if (c.reasoning !== undefined) expect(r.reasoning).toBe(c.reasoning);
    });
  }

  it("every former name of the fixtures is a format (the cases are not read by a fallback)", () => {
    expect([...new Set(fixture.cases.map((c) => describeFormat(c.format).name))].sort()).toEqual([
      "lfm2-json",
      "llama3-builtin",
      "mistral-v11",
    ]);
  });

  it("a call written canonically parses strictly back, and its canonical text is what llama.cpp's tests write", () => {
    for (const c of fixture.cases.filter((x) => x.calls.length > 0 && !/\n|Here's|Let me/.test(x.text))) {
      expect(renderToolCalls(c.calls, describeFormat(c.format).name)).toBe(c.text);
      const r = parseToolCalls(c.text, { format: c.format, mode: "strict" });
      expect(r.issues).toEqual([]);
      expect(r.calls.map((x) => x.name)).toEqual(c.calls.map((x) => x.name));
    }
  });

  it("strict parsing refuses a built-in call without `.call` and an LFM2 JSON list without its closing token", () => {
    expect(
      parseToolCalls('<|python_tag|>brave_search(query="x")', { format: "llama3-builtin", mode: "strict" }).calls,
    ).toEqual([]);
    const open = parseToolCalls('<|tool_call_start|>[{"name": "f", "arguments": {}}]', {
      format: "lfm2-json",
      mode: "strict",
    });
    expect(open.issues.length).toBeGreaterThan(0);
  });
});

const source = await llamaCppSource();

describe.skipIf(source === undefined)("Llama 3.1's template with builtin_tools", () => {
  it("writes a call to a built-in tool as llama3-builtin's canonical text, ended by <|eom_id|>", () => {
    for (const file of ["meta-llama-Llama-3.1-8B-Instruct.jinja", "meta-llama-Llama-3.3-70B-Instruct.jinja"]) {
      const t = new ChatTemplate(readFileSync(join(source?.dir ?? "", "models", "templates", file), "utf8"), {
        extraContext: { builtin_tools: ["brave_search", "wolfram_alpha"] },
      });
      for (const [name, query] of [
        ["brave_search", "weather in Paris"],
        ["wolfram_alpha", "integrate x^2 dx"],
      ] as const) {
        const rendered = t.render({
          messages: [
            { role: "user", content: "Hi" },
            {
              role: "assistant",
              content: null,
              tool_calls: [{ id: "c1", type: "function", function: { name, arguments: { query } } }],
            },
          ],
        });
        const call = renderToolCalls([{ name, arguments: { query } }], "llama3-builtin");
        expect(rendered.endsWith(`<|start_header_id|>assistant<|end_header_id|>\n\n${call}<|eom_id|>`)).toBe(true);
        expect(
          parseToolCalls(call, { format: "Llama 3.x with builtin tools", mode: "strict" }).calls.map(
            (x) => x.arguments,
          ),
        ).toEqual([{ query }]);
      }
    }
  });
});

describe("Xiaomi MiMo", () => {
  it("MiMo-VL's outputs in llama.cpp's test-chat.cpp parse under the name as under qwen3", () => {
    const f = JSON.parse(readFileSync(new URL("../fixtures/chat-outputs/MiMo-VL.json", import.meta.url), "utf8")) as {
      cases: {
        text: string;
        settings: Record<string, string>;
        expect: { content: string; toolCalls: { name: string; arguments: string }[] };
      }[];
    };
    const own = f.cases.filter((c) => c.settings.messages === undefined);
    expect(own.length).toBeGreaterThanOrEqual(2);
    for (const c of own) {
      const r = parseToolCalls(c.text, { format: "Xiaomi MiMo", mode: "strict" });
      expect(r.calls.map((x) => ({ name: x.name, arguments: x.arguments }))).toEqual(
        c.expect.toolCalls.map((x) => ({ name: x.name, arguments: JSON.parse(x.arguments) as unknown })),
      );
      expect(r.content).toBe(c.expect.content);
    }
  });
});
