/**
 * The Jinja2 that real chat templates use, rendered as Python's Jinja2 renders it (transformers' environment:
 * `ImmutableSandboxedEnvironment(trim_blocks=True, lstrip_blocks=True)` with the `loopcontrols` extension and a
 * `tojson` that is `json.dumps`). Each case quotes the template lines it renders, with their source; every expected
 * text is Jinja2 3.1's output for the same lines and context.
 */
import { describe, expect, it } from "vitest";
import { ChatTemplate } from "../../src/templates/renderTemplate.js";

const render = (source: string, context: Record<string, unknown> = {}): string =>
  new ChatTemplate(source, { extraContext: context }).render({ messages: [] });

// vLLM examples/tool_chat_template_llama3.2_pythonic.jinja (also SGLang's tool_chat_template_llama4_pythonic.jinja)
const PYTHONIC_CALL = `{%- for param in tool_call.arguments %}
    {{- param + '=' -}}
    {{- "%s" | format(tool_call.arguments[param]) -}}
    {% if not loop.last %}, {% endif %}
{%- endfor %}`;

describe("ChatTemplate renders the Jinja2 real templates use", () => {
  it("the format filter writes each value as Python's str() does (Llama 3.2 pythonic, ToolACE)", () => {
    const args = { location: "Paris", days: 3, metric: true, unit: null, tags: ["a", "b"], ratio: 0.5 };
    expect(render(PYTHONIC_CALL, { tool_call: { arguments: args } })).toBe(
      "location=Paris, days=3, metric=True, unit=None, tags=['a', 'b'], ratio=0.5",
    );
    // vLLM examples/tool_chat_template_toolace.jinja: `{{- "%sr" | format(tool_call.arguments[param]) -}}`
    expect(render('{{- "%sr" | format(v) -}}', { v: "Paris" })).toBe("Parisr");
  });

  it("printf-style conversions, as Python's % operator (which the format filter applies) writes them", () => {
    expect(render('{{ "%05.1f|%-4d|%x|%+d" % (3.14159, 7, 255, 5) }}')).toBe("003.1|7   |ff|+5");
    expect(render('{{ "%(k)s=%(v)r" % {"k": "a", "v": "b"} }}{{ "%d%%" | format(50) }}')).toBe("a='b'50%");
    expect(render('{{ "%g|%g|%e" % (0.0001, 1234567, 12345.678) }}')).toBe("0.0001|1.23457e+06|1.234568e+04");
    expect(() => render('{{ "%s %s" | format("a") }}')).toThrow(/not enough arguments/);
    expect(() => render('{{ "%s" | format("a", "b") }}')).toThrow(/not all arguments converted/);
    expect(() => render('{{ "%d" | format("a") }}')).toThrow(/a real number is required/);
  });

  it("a for over a string walks its characters (the pythonic call lines given OpenAI's JSON-text arguments)", () => {
    // Jinja2 iterates the text; `arguments[param]` of a string by a string is undefined, which formats as ""
    expect(render(PYTHONIC_CALL, { tool_call: { arguments: '{"a": 1}' } })).toBe('{=, "=, a=, "=, :=,  =, 1=, }=');
    expect(render('{% for c in "añ" if c != "a" %}[{{ c }}]{% endfor %}')).toBe("[ñ]");
  });

  it("string of None is 'None' (Qwen3-Coder's tool definitions with a null default)", () => {
    // llama.cpp models/templates/Qwen3-Coder.jinja, lines 1-10 (Qwen/Qwen3-Coder-30B-A3B-Instruct's template)
    const renderExtraKeys = `{% macro render_extra_keys(json_dict, handled_keys) %}
    {%- if json_dict is mapping %}
        {%- for json_key in json_dict if json_key not in handled_keys %}
            {%- if json_dict[json_key] is mapping or (json_dict[json_key] is sequence and json_dict[json_key] is not string) %}
                {{- '\\n<' ~ json_key ~ '>' ~ (json_dict[json_key] | tojson | safe) ~ '</' ~ json_key ~ '>' }}
            {%- else %}
                {{-'\\n<' ~ json_key ~ '>' ~ (json_dict[json_key] | string) ~ '</' ~ json_key ~ '>' }}
            {%- endif %}
        {%- endfor %}
    {%- endif %}
{% endmacro %}{{ render_extra_keys(p, ['type', 'description']) }}`;
    const p = { type: "string", description: "d", default: null, enum: ["a", null] };
    expect(render(renderExtraKeys, { p })).toBe('\n<default>None</default>\n<enum>["a", null]</enum>');
    expect(render("{{ u | string }}|{{ none | string }}")).toBe("|None");
  });

  it("undefined in ~ is '' and None is 'None'; in + it raises, as Jinja2's default Undefined does", () => {
    expect(render("{{ u ~ 'x' }}|{{ none ~ 'x' }}")).toBe("x|Nonex");
    // real templates guard `+` instead (vLLM examples/tool_chat_template_olmo3.jinja):
    //   {%- if message.name is defined %}{{- "Function " + message.name + " returned:\n" }}{%- endif %}
    expect(() => render("{{ u + 'x' }}")).toThrow(expect.objectContaining({ code: "TEMPLATE_RENDER" }));
    expect(() => render("{{ 1 + u }}")).toThrow(/undefined/);
  });

  it("tojson with Python's separators and ensure_ascii (GLM 4.6, Kimi K2.5)", () => {
    // llama.cpp models/templates/GLM-4.6.jinja: `{{ tool | tojson(ensure_ascii=False) }}`; moonshotai/Kimi-K2.5's
    // template writes its tools as `tools | tojson(separators=(',', ':'))`
    expect(
      render(
        "{{ {'a': 'é', 'b': [1, 2]} | tojson(separators=(',', ':')) }}|{{ {'a': 'é'} | tojson(ensure_ascii=True) }}|{{ {'a': 'é'} | tojson(ensure_ascii=False) }}",
      ),
    ).toBe('{"a":"é","b":[1,2]}|{"a": "\\u00e9"}|{"a": "é"}');
  });

  it("is sameas true / false / none (OLMo 3's pythonic call values)", () => {
    // vLLM examples/tool_chat_template_olmo3.jinja
    const olmo = `{%- for key, value in args.items() %}
    {{- key + "=" }}
    {%- if value is string %}
        {{- "'" + value + "'" }}
    {%- elif value is none %}
        {{- "null" }}
    {%- elif value is sameas true %}
        {{- "true" }}
    {%- elif value is sameas false %}
        {{- "false" }}
    {%- else %}
        {{- value | tojson }}
    {%- endif %}
    {%- if not loop.last %}
        {{- ", " }}
    {%- endif %}
{%- endfor %}`;
    const args = { s: "x", n: null, t: true, f: false, one: 1, zero: 0 };
    expect(render(olmo, { args })).toBe("s='x', n=null, t=true, f=false, one=1, zero=0");
    expect(render("{{ 1 is not sameas(true) }}|{{ 'is sameas true' }}")).toBe("true|is sameas true");
  });

  it("a dict subscript with a list key is undefined (MiniCPM3's type map for `type: [string, null]`)", () => {
    // vLLM examples/tool_chat_template_minicpm3.jinja, json_to_python_type (the recursive call inlined)
    const typeMap = `{%- set basic_type_map = {
  'string': 'str',
  'number': 'float',
  'integer': 'int',
  'boolean': 'bool',
  'null': 'None'
} %}
{%- if basic_type_map[json_spec.type] is defined %}
  {{- basic_type_map[json_spec.type] }}
{%- elif json_spec.type is iterable %}
  {{- 'Union[' }}
  {%- for t in json_spec.type %}
    {{- basic_type_map[t] }}
    {{- ', ' if not loop.last }}
  {%- endfor %}
  {{- ']' }}
{%- endif %}`;
    expect(render(typeMap, { json_spec: { type: ["string", "null"] } })).toBe("Union[str, None]");
  });

  it("namespace attributes set in a loop (DeepSeek V3's system prompt)", () => {
    // vLLM examples/tool_chat_template_deepseekv3.jinja
    const systemPrompt = `{% set ns = namespace(is_first=false, is_tool=false, is_output_first=true, system_prompt='', is_first_sp=true, is_last_user=false) %}
{%- for message in messages %}
    {%- if message['role'] == 'system' %}
        {%- if ns.is_first_sp %}
            {% set ns.system_prompt = ns.system_prompt + message['content'] %}
            {% set ns.is_first_sp = false %}
        {%- else %}
            {% set ns.system_prompt = ns.system_prompt + '\\n\\n' + message['content'] %}
        {%- endif %}
    {%- endif %}
{%- endfor %}
{{ ns.system_prompt }}`;
    const messages = [
      { role: "system", content: "A" },
      { role: "user", content: "u" },
      { role: "system", content: "B" },
    ];
    // `messages` is the render's own variable: pass the conversation as the template reads it
    expect(new ChatTemplate(systemPrompt).render({ messages: messages as never })).toBe("A\n\nB");
  });

  it("break in a loop (Command A's run of tool results)", () => {
    // llama.cpp models/templates/Cohere2MoE.jinja, lines 251-258 (the results written stripped to their content)
    const results = `{%- for msg in messages[1:] %}
            {%- if msg.role | lower == 'tool' %},{{ msg.content }}
            {%- else %}
                {%- break %}
            {%- endif %}
        {%- endfor %}`;
    const messages = [
      { role: "assistant" },
      { role: "tool", content: "r1" },
      { role: "TOOL", content: "r2" },
      { role: "user", content: "u" },
      { role: "tool", content: "r3" },
    ];
    expect(new ChatTemplate(results).render({ messages: messages as never })).toBe(",r1,r2");
  });

  it("raise_exception fails the render with the template's message (Mistral Small 3.2)", () => {
    // llama.cpp models/templates/Mistral-Small-3.2-24B-Instruct-2506.jinja, line 52
    const alternate = `{{- raise_exception("After the optional system message, conversation roles must alternate user/assistant/user/assistant/...") }}`;
    expect(() => render(alternate)).toThrow(/raise_exception: After the optional system message/);
  });

  it("strftime_now reads the render's fixed date, never the clock (Llama 3.2)", () => {
    // vLLM examples/tool_chat_template_llama3.2_pythonic.jinja
    const today = `{%- set date_string = strftime_now("%d %b %Y") %}{{- "Today Date: " + date_string + "\\n\\n" }}`;
    expect(render(today)).toBe("Today Date: 02 Jan 2026\n\n");
    expect(new ChatTemplate(today, { date: new Date(Date.UTC(2025, 6, 26)) }).render({ messages: [] })).toBe(
      "Today Date: 26 Jul 2025\n\n",
    );
  });
});
