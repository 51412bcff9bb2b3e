import { describe, expect, it } from "vitest";
import { compileSchema, compileTools } from "../../src/compile.js";
import { ToolgramError } from "../../src/errors.js";
import { FORMAT_NAMES } from "../../src/formats/index.js";
import { splitFormats } from "../support/emit/structuralTagCheck.js";
import { exampleTools } from "../support/envelope/formatTools.js";
import { thrown } from "../support/schema/schemaHarness.js";

const weather = exampleTools("weather");

describe("toStructuralTag: the per-tool cut and the turn around it", () => {
  it("qwen3: free text, then each call as its fixed prefix, the arguments' schema and its fixed suffix", () => {
    const st = compileTools(weather, { format: "qwen3" }).toStructuralTag();
    expect(st.type).toBe("structural_tag");
    const f = st.format;
    if (f.type !== "triggered_tags") throw new Error(`expected triggered_tags, got ${f.type}`);
    expect(f).toMatchObject({ triggers: ["<tool_call>"], at_least_one: false, stop_after_first: true });
    const [calls] = f.tags;
    expect(calls).toMatchObject({ begin: "<tool_call>", end: "</tool_call>" });
    if (calls.content.type !== "tags_with_separator") throw new Error("expected the separated calls");
    expect(calls.content.separator).toBe("</tool_call>\n<tool_call>");
    expect(calls.content.tags[0]).toMatchObject({
      begin: '\n{"name": "get_weather", "arguments": ',
      content: { type: "json_schema" },
      end: "}\n",
    });
  });

  it("a required call without text is the calls alone; one call at most is one tag, no separator", () => {
    const f = compileTools(weather, { format: "qwen3", toolChoice: "required", parallel: false }).toStructuralTag()
      .format;
    expect(f.type).toBe("tag");
    if (f.type !== "tag") return;
    expect(f.content.type).toBe(weather.length === 1 ? "tag" : "or");
  });

  it("refuses with INVALID_OPTION at /format, naming the format and why", () => {
    const xml = thrown(() => compileTools(weather, { format: "qwen3-coder" }).toStructuralTag());
    expect(xml).toBeInstanceOf(ToolgramError);
    expect({ code: xml.code, path: xml.schemaPath }).toEqual({ code: "INVALID_OPTION", path: "/format" });
    expect(xml.message).toMatch(/qwen3-coder.*xml-parameters.*one JSON object/);
    expect(thrown(() => compileTools(weather, { format: "llama3-json" }).toStructuralTag()).message).toMatch(
      /llama3-json.*whole reply/,
    );
    expect(thrown(() => compileTools(weather, { format: "qwen3", parallel: 3 }).toStructuralTag()).message).toMatch(
      /not to 3/,
    );
    expect(thrown(() => compileSchema({ type: "object" }).toStructuralTag()).message).toMatch(/toJsonSchema/);
  });

  it("toolChoice none is free text", () => {
    expect(compileTools(weather, { toolChoice: "none" }).toStructuralTag().format).toEqual({ type: "any_text" });
  });
});

describe("toStructuralTag over every format", () => {
  it("a tag for each format whose arguments are one JSON object after a fixed per-tool prefix, a refusal otherwise", () => {
    const { tagged, refused } = splitFormats(weather);
    console.log(`structural tags: ${tagged.length} formats with, ${refused.size} without`);
    expect(tagged.length + refused.size).toBe(FORMAT_NAMES.length);
    expect(tagged).toContain("qwen3");
    expect([...refused.keys()]).toContain("qwen3-coder");
    for (const m of refused.values()) expect(m).toMatch(/cannot be written as an XGrammar structural tag: /);
  });
});
