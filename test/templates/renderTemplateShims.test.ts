/** The Python features ChatTemplate adds to @huggingface/jinja for real chat templates (MiniCPM5, Apriel, Hunyuan 3). */
import { describe, expect, it } from "vitest";
import { ChatTemplate } from "../../src/templates/renderTemplate.js";

const render = (source: string): string => new ChatTemplate(source).render({ messages: [] });

describe("ChatTemplate's Python shims", () => {
  it("min and max of a list", () => {
    expect(render("{{ [3, 1, 2] | min }} {{ [3, 1, 2] | max }} {{ ['b', 'a'] | min }}")).toBe("1 3 a");
  });

  it("string of a mapping is its JSON", () => {
    expect(render("{{ {'a': 1, 'b': [true, none]} | string }}")).toBe('{"a": 1, "b": [true, null]}');
  });

  it("str.format with automatic and numbered fields, braces doubled", () => {
    expect(render("{{ '<x{}|{0}>{{}}'.format(':os') }}")).toBe("<x:os|:os>{}");
  });

  it("anything else still fails with the engine's message, as a TEMPLATE_RENDER error", () => {
    expect(() => render("{{ [] | min }}")).toThrow(expect.objectContaining({ code: "TEMPLATE_RENDER" }));
    expect(() => render("{{ {'a': 1} | nosuchfilter }}")).toThrow(/Unknown ObjectValue filter: nosuchfilter/);
    expect(() => render("{{ '{} {}'.format('a') }}")).toThrow(/no argument/);
  });
});
