/** The Python features ChatTemplate adds to @huggingface/jinja for real chat templates (MiniCPM5, Apriel, Hunyuan 3, Command R+, Seed-OSS, Functionary v3.2, Llama 3.1). */
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

  it("a subscript with an undefined key is undefined, as in Jinja2 (Command R+)", () => {
    expect(render("{% set m = {'string': 'str'} %}{{ m[spec.type] is defined }}|{{ m['string'] }}")).toBe("False|str");
  });

  it("dicts with integer keys: subscripts, items and dictsort give the keys back as integers (Seed-OSS)", () => {
    const table = "{% set t = {512: 'b', 0: 'a'} %}";
    expect(render(`${table}{{ t[512] }}{{ t[7] is defined }}{{ t['0'] is defined }}`)).toBe("bFalseFalse");
    expect(render(`${table}{% for k, v in t | dictsort %}{{ k + 1 }}{{ v }} {% endfor %}`)).toBe("1a 513b ");
    expect(render(`${table}{% for k, v in t | items %}{{ k - 1 }}{{ v }} {% endfor %}`)).toBe("511b -1a ");
    expect(() => render("{% for k, v in {1: 'a', 'b': 2} | dictsort %}{% endfor %}")).toThrow(/do not compare/);
    expect(() => render("{{ {1.5: 'a'} }}")).toThrow(/keys must be strings or integers/);
  });

  it("reject and select with the equalto test (Llama 3.1's builtin_tools)", () => {
    expect(
      render(
        "{{ ['brave_search', 'code_interpreter', 'wolfram_alpha'] | reject('equalto', 'code_interpreter') | join(', ') }}",
      ),
    ).toBe("brave_search, wolfram_alpha");
    expect(render("{{ [1, 2, 1] | select('equalto', 1) | length }}")).toBe("2");
    expect(() => render("{{ [1, 2] | reject('odd') | length }}")).toThrow(/only the equalto test/);
  });

  it("a loop unpacks tuples as it unpacks lists (Functionary v3.2)", () => {
    expect(render('{% for f, n in [("maximum", "Max"), ("minimum", "Min")] %}{{ f }}={{ n }} {% endfor %}')).toBe(
      "maximum=Max minimum=Min ",
    );
    expect(render('{% for a, b in [("x", 1), ["y", 2]] if b > 1 %}{{ a }}{% endfor %}')).toBe("y");
    expect(() => render('{% for a, b in [("x", 1, 2)] %}{% endfor %}')).toThrow(/Too many items to unpack/);
  });

  it("a shimmed subscript evaluates its operands once", () => {
    expect(render("{% set ns = namespace(l=[1, 2, 3]) %}{{ [ns.l.pop()][0] }}{{ ns.l | length }}")).toBe("32");
    // slices stay the library's, bounds left out included
    expect(render("{{ [1, 2, 3][::-1][0] }}{{ [1, 2, 3][1:] | length }}")).toBe("32");
  });

  it('a string + undefined or None joins the string with "", as llama.cpp\'s runtime does (Command R+, gpt-oss)', () => {
    const spec = "{% set spec = {'type': 'string', 'd': none} %}";
    expect(render(`${spec}{{ '): ' + spec.description }}|{{ spec.description + '.' }}|{{ '// ' + spec.d }}`)).toBe(
      "): |.|// ",
    );
    // nothing else changes: numbers still add, and undefined + a number is still an error
    expect(render("{{ 1 + 2 }}{{ 'a' + 'b' }}")).toBe("3ab");
    expect(() => render("{{ 1 + nothing }}")).toThrow(/on undefined values/);
  });

  it("None under llama.cpp's list filters is an empty list (Functionary v3.1's `none | selectattr(…)`)", () => {
    expect(render("{% set tools = none %}{{ tools | selectattr('type', 'equalto', 'x') | list | length }}")).toBe("0");
    expect(render("{{ none | map(attribute='a') | list | length }}{{ none | reject('equalto', 1) | list }}")).toBe(
      "0[]",
    );
    // a filter llama.cpp does not give None still fails
    expect(() => render("{{ none | length }}")).toThrow(expect.objectContaining({ code: "TEMPLATE_RENDER" }));
  });

  it("anything else still fails with the engine's message, as a TEMPLATE_RENDER error", () => {
    expect(() => render("{{ [] | min }}")).toThrow(expect.objectContaining({ code: "TEMPLATE_RENDER" }));
    expect(() => render("{{ {'a': 1} | nosuchfilter }}")).toThrow(/Unknown ObjectValue filter: nosuchfilter/);
    expect(() => render("{{ '{} {}'.format('a') }}")).toThrow(/no argument/);
  });
});

describe("ChatTemplate's context variables a caller passes (FireFunction v2)", () => {
  const tools = [{ type: "function", function: { name: "f", parameters: { type: "object" } } }];
  it('`functions` is the tools\' JSON (2-space indent), "" without tools; `datetime` the fixed date as llama.cpp writes it', () => {
    const t = new ChatTemplate("{{ 'x' + functions + '|' + datetime }}");
    expect(t.render({ messages: [], tools })).toBe(`x${JSON.stringify(tools, null, 2)}|Jan 02 2026`);
    expect(t.render({ messages: [] })).toBe("x|Jan 02 2026");
    expect(t.render({ messages: [], tools: [] })).toBe("x|Jan 02 2026");
  });

  it("extraContext overrides both", () => {
    const t = new ChatTemplate("{{ functions }}|{{ datetime }}", { extraContext: { functions: "F", datetime: "D" } });
    expect(t.render({ messages: [], tools })).toBe("F|D");
  });
});
