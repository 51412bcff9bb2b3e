/**
 * DeepSeek V3.2 / V4 DSML calls, whose parameters say how their value is written (`string="true"`: raw text,
 * `string="false"`: JSON). Checked against the models' own chat templates (llama.cpp's models/templates) rendering
 * typed arguments — strings with newlines and non-ASCII text, numbers, booleans, objects, arrays, a call without
 * arguments, and parameters whose schema admits both strings and other values — and against the DeepSeek V3
 * vocabulary for which markers are special tokens.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { Tokenizer } from "@huggingface/tokenizers";
import { beforeAll, describe, expect, it } from "vitest";
import { compileTools, parseToolCalls, renderToolCalls } from "../../src/index.js";
import type { CallToRender } from "../../src/parser/renderToolCalls.js";
import type { JsonValue } from "../../src/json.js";
import { FORMAT_DESCRIPTIONS } from "../../src/formats/descriptions.js";
import type { FormatName } from "../../src/formats/FormatName.js";
import { TINY_MODEL_FAMILIES } from "../../src/gguf/tinyModelFamilies.js";
import { ChatTemplate, type TemplateMessage } from "../../src/templates/renderTemplate.js";
import { llamaCppSource, type LlamaCppSource } from "../../src/testing/llamaCppSource.js";

const TOOLS = [
  {
    type: "function",
    function: {
      name: "get_time",
      parameters: {
        type: "object",
        properties: { city: { type: "string" } },
        required: ["city"],
        additionalProperties: false,
      },
    },
  },
  {
    type: "function",
    function: {
      name: "set_config",
      parameters: {
        type: "object",
        properties: {
          config: {
            type: "object",
            properties: { theme: { type: "string" }, level: { type: "integer" } },
            required: ["theme", "level"],
            additionalProperties: false,
          },
          tags: { type: "array", items: { type: "string" } },
          enabled: { type: "boolean" },
          ratio: { type: "number" },
        },
        required: ["config"],
        additionalProperties: false,
      },
    },
  },
  {
    type: "function",
    function: { name: "noop", parameters: { type: "object", properties: {}, additionalProperties: false } },
  },
  // parameters admitting strings and other values: the type marker says which was written
  {
    type: "function",
    function: {
      name: "lookup",
      parameters: {
        type: "object",
        properties: { key: { type: ["string", "integer"] }, anything: {} },
        required: ["key"],
        additionalProperties: false,
      },
    },
  },
];

const CALLS: CallToRender[] = [
  { name: "get_time", arguments: { city: 'Zürich, 12 °C — "quoted"\nsecond line' } },
  {
    name: "set_config",
    arguments: { config: { theme: "dark", level: 2 }, tags: ["a", "b c"], enabled: true, ratio: 0.5 },
  },
  { name: "noop", arguments: {} },
  { name: "lookup", arguments: { key: "42", anything: [1, "x", null] } },
  { name: "lookup", arguments: { key: 7, anything: "text" } },
];

const FORMATS: [FormatName, string[]][] = [
  ["deepseek-v3.2", ["deepseek-ai-DeepSeek-V3.2.jinja"]],
  ["deepseek-v4", ["deepseek-ai-DeepSeek-V4.jinja", "deepseek-ai-DeepSeek-V4-Flash-0731.jinja"]],
];

describe("the templates' own renders of typed arguments", () => {
  let src: LlamaCppSource | undefined;
  beforeAll(async () => {
    src = await llamaCppSource();
    if (src === undefined)
      console.warn("skipped: llama.cpp's source is not available (node-llama-cpp's bundle or git missing)");
  }, 300_000);

  for (const [format, templates] of FORMATS) {
    for (const file of templates) {
      it(`${format}: ${file}: accepted, parsed strictly into the calls, rendered back byte for byte`, ({ skip }) => {
        if (src === undefined) skip();
        const t = new ChatTemplate(
          readFileSync(join((src as LlamaCppSource).dir, "models", "templates", file), "utf8"),
        );
        const user: TemplateMessage = { role: "user", content: "Do it." };
        const prompt = t.render({ messages: [user], tools: TOOLS, addGenerationPrompt: true });
        const calls = CALLS.map((c, i) => ({
          id: `call_${i}`,
          type: "function" as const,
          function: { name: c.name, arguments: c.arguments },
        }));
        const rendered = t.render({
          messages: [user, { role: "assistant", content: "", tool_calls: calls }],
          tools: TOOLS,
        });
        expect(rendered.startsWith(prompt), rendered).toBe(true);
        const end = "<｜end▁of▁sentence｜>";
        expect(rendered.endsWith(end)).toBe(true);
        // the turn after the prompt `<｜Assistant｜><think>`: the closed empty reasoning, then the calls' section
        const body = rendered.slice(prompt.length, rendered.length - end.length);
        const content = "</think>\n\n";
        expect(body.startsWith(content + FORMAT_DESCRIPTIONS[format].section?.open), body).toBe(true);

        expect(compileTools(TOOLS, { format }).accepts(body), body).toBe(true);
        const r = parseToolCalls(body, { tools: TOOLS, format, mode: "strict" });
        expect(r.issues).toEqual([]);
        expect(r.calls.map((c) => ({ name: c.name, arguments: c.arguments }))).toEqual(CALLS);
        // the mixed parameter keeps its type: "42" written raw stays a string, 7 written as JSON a number
        expect(r.calls[3].arguments.key).toBe("42");
        expect(r.calls[4].arguments.key).toBe(7);
        expect(renderToolCalls(CALLS, format, { content })).toBe(body);
      });
    }
  }
});

describe.each(FORMATS.map(([f]) => f))("%s: the type markers", (format) => {
  const d = FORMAT_DESCRIPTIONS[format];
  const g = compileTools(TOOLS, { format, toolChoice: "required" });
  const one = (name: string, params: string): string =>
    `${d.section?.open}<｜DSML｜invoke name="${name}">\n${params}</｜DSML｜invoke>${d.section?.close}`;
  const p = (key: string, typed: boolean, value: string): string =>
    `<｜DSML｜parameter name="${key}" string="${typed}">${value}</｜DSML｜parameter>\n`;

  it("a parameter admitting both forms takes either, each read as its marker says", () => {
    for (const [key, typed, value, want] of [
      ["42", true, "42", "42"],
      ["42", false, "42", 42],
      ["x\ny", true, "x\ny", "x\ny"],
    ] as const) {
      const text = one("lookup", p("key", typed, value));
      expect(g.accepts(text), text).toBe(true);
      const r = parseToolCalls(text, { tools: TOOLS, format, mode: "strict" });
      expect(r.issues, text).toEqual([]);
      expect(r.calls[0].arguments, key).toEqual({ key: want });
    }
    // any JSON value but a string after string="false" (a JSON string would be a second spelling of a raw one)
    for (const v of ["null", "true", "-1.5", '[1, "a"]', '{"k": {}}'])
      expect(g.accepts(one("lookup", p("key", false, "1") + p("anything", false, v))), v).toBe(true);
    expect(g.accepts(one("lookup", p("key", false, '"42"')))).toBe(false);
    expect(g.accepts(one("lookup", p("key", false, "4.5")))).toBe(false); // the schema's integer
  });

  it("a string parameter is raw only, a non-string one JSON only, and no raw value holds a marker", () => {
    expect(g.accepts(one("get_time", p("city", true, "Paris")))).toBe(true);
    expect(g.accepts(one("get_time", p("city", false, '"Paris"')))).toBe(false);
    expect(
      g.accepts(one("set_config", p("config", false, '{"theme": "x", "level": 1}') + p("enabled", false, "false"))),
    ).toBe(true);
    expect(
      g.accepts(one("set_config", p("config", false, '{"theme": "x", "level": 1}') + p("enabled", true, "false"))),
    ).toBe(false);
    for (const marker of [
      "</｜DSML｜parameter>",
      "</｜DSML｜invoke>",
      '<｜DSML｜invoke name="',
      d.section?.close.trim() ?? "",
    ]) {
      expect(g.accepts(one("get_time", p("city", true, `a${marker}b`))), marker).toBe(false);
      expect(() => renderToolCalls([{ name: "get_time", arguments: { city: `a${marker}b` } }], format)).toThrow(
        /cannot hold/,
      );
      // inside a JSON value the marker's `<` is written \u003c, so it reads back whole
      const call = { name: "lookup", arguments: { key: 1, anything: [`a${marker}b`] } };
      const text = renderToolCalls([call], format);
      expect(g.accepts(text), text).toBe(true);
      expect(parseToolCalls(text, { tools: TOOLS, format, mode: "strict" }).calls[0].arguments).toEqual(call.arguments);
    }
  });

  it("tolerantly, a marker contradicting the schema is read as the schema says (VALUE_TYPE_MISMATCH); without tools the marker decides", () => {
    const a = parseToolCalls(one("get_time", p("city", false, '"Paris"')), { tools: TOOLS, format });
    expect(a.calls[0].arguments).toEqual({ city: "Paris" });
    expect(a.issues.map((i) => i.code)).toEqual(["VALUE_TYPE_MISMATCH"]);
    const b = parseToolCalls(one("set_config", p("config", true, '{"theme": "x", "level": 1}')), {
      tools: TOOLS,
      format,
    });
    expect(b.calls[0].arguments).toEqual({ config: { theme: "x", level: 1 } });
    expect(b.issues.map((i) => i.code)).toEqual(["VALUE_TYPE_MISMATCH"]);
    const strict = parseToolCalls(one("get_time", p("city", false, '"Paris"')), {
      tools: TOOLS,
      format,
      mode: "strict",
    });
    expect(strict.calls).toEqual([]);
    const bare = parseToolCalls(one("f", p("a", true, "42") + p("b", false, "42")), { format, mode: "strict" });
    expect(bare.issues).toEqual([]);
    expect(bare.calls[0].arguments).toEqual({ a: "42", b: 42 });
    // a JSON string after string="false" is that string, though not the canonical (raw) spelling of it
    expect(parseToolCalls(one("f", p("c", false, '"42"')), { format }).calls[0].arguments).toEqual({ c: "42" });
    expect(parseToolCalls(one("f", p("c", false, '"42"')), { format, mode: "strict" }).calls).toEqual([]);
    // loosely spaced markers are a whitespace repair
    const loose = parseToolCalls(
      one("get_time", '<｜DSML｜parameter name="city"  string=" true">Oslo</｜DSML｜parameter>\n'),
      { tools: TOOLS, format },
    );
    expect(loose.calls[0].arguments).toEqual({ city: "Oslo" });
    expect(loose.issues.map((i) => i.code)).toEqual(["WHITESPACE_AROUND_TAGS"]);
  });

  it("a call without arguments is written as the family's template writes it", () => {
    const text = renderToolCalls([{ name: "noop", arguments: {} }], format);
    expect(text).toBe(one("noop", format === "deepseek-v4" ? "\n" : ""));
    expect(g.accepts(text)).toBe(true);
    expect(parseToolCalls(text, { tools: TOOLS, format, mode: "strict" }).calls[0].arguments).toEqual({});
  });
});

describe("the DeepSeek V3 vocabulary", () => {
  const path = createRequire(import.meta.url).resolve(
    `${TINY_MODEL_FAMILIES.deepseek_v3.tokenizerPackage}/models/tokenizer.json`,
  );
  const json = JSON.parse(readFileSync(path, "utf8")) as { added_tokens: { content: string }[] };
  const hf = new Tokenizer(json as never, {});

  it("has no DSML or <think> token, so the DSML formats write every marker as text", () => {
    const added = json.added_tokens.map((t) => t.content);
    expect(added.filter((t) => t.includes("DSML") || t.includes("think"))).toEqual([]);
    for (const format of ["deepseek-v3.2", "deepseek-v4"] as const) {
      const d = FORMAT_DESCRIPTIONS[format];
      expect(d.specialTokens).toEqual([]);
      for (const marker of [
        d.section?.open ?? "",
        d.section?.close ?? "",
        d.open ?? "",
        d.close ?? "",
        "<｜DSML｜parameter",
        "</｜DSML｜parameter>",
      ]) {
        expect(hf.encode(marker, { add_special_tokens: false }).ids.length, marker).toBeGreaterThan(1);
      }
    }
  });
});

describe("kimi-k3 shares the written types: a parameter admitting both forms", () => {
  const tools = [
    {
      type: "function",
      function: {
        name: "f",
        parameters: { type: "object", properties: { v: {} }, required: ["v"], additionalProperties: false },
      },
    },
  ];
  const g = compileTools(tools, { format: "kimi-k3", toolChoice: "required" });

  it("takes a raw string after `string` and any other value after its JSON type, each read back exactly", () => {
    const values: JsonValue[] = ["42", 42, null, [1, "a"], { k: true }, "x\ny"];
    for (const v of values) {
      const text = renderToolCalls([{ name: "f", arguments: { v } }], "kimi-k3");
      expect(g.accepts(text), text).toBe(true);
      const r = parseToolCalls(text, { tools, format: "kimi-k3", mode: "strict" });
      expect(r.issues, text).toEqual([]);
      expect(r.calls[0].arguments.v).toEqual(v);
    }
    // a JSON string after a JSON type is not a spelling the grammar has (strings are raw, after `string`)
    expect(
      g.accepts(
        renderToolCalls([{ name: "f", arguments: { v: 1 } }], "kimi-k3").replace(
          'type="number"<|sep|>1',
          'type="number"<|sep|>"1"',
        ),
      ),
    ).toBe(false);
  });
});
