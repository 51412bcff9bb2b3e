/**
 * The Jinja2 that real chat templates use, rendered as Python's Jinja2 renders it (transformers' environment:
 * `ImmutableSandboxedEnvironment(trim_blocks=True, lstrip_blocks=True)` with the `loopcontrols` extension and a
 * `tojson` that is `json.dumps`). Each case quotes the template lines it renders, with their source; every expected
 * text is Jinja2 3.1's output for the same lines and context.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { ChatTemplate } from "../../src/templates/renderTemplate.js";
import { type LlamaCppSource, llamaCppSource } from "../../src/testing/llamaCppSource.js";

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

  it("undefined in ~ is '' and None is 'None'; in + with a string both are '', as llama.cpp's runtime has it", () => {
    expect(render("{{ u ~ 'x' }}|{{ none ~ 'x' }}")).toBe("x|Nonex");
    // Jinja2's default Undefined raises here; llama.cpp's runtime joins "" (Command R+'s `'): ' +
    // param_fields.description` on a parameter without a description), and llama-server renders the prompt so
    expect(render("{{ u + 'x' }}|{{ 'x' + none }}")).toBe("x|x");
    // with anything but a string it still raises
    expect(() => render("{{ 1 + u }}")).toThrow(/undefined/);
    expect(() => render("{{ u + u }}")).toThrow(expect.objectContaining({ code: "TEMPLATE_RENDER" }));
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
    expect(render("{{ 1 is not sameas(true) }}|{{ 'is sameas true' }}")).toBe("True|is sameas true");
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

  it("continue in a loop (EXAONE 4's system turn)", () => {
    // Axolotl src/axolotl/utils/chat_templates/templates/exaone4.jinja, lines 38-58 (shortened to the loop control)
    const turns = `{%- for i in range(messages | length) %}
    {%- set msg = messages[i] %}
    {%- if i == 0 %}
        {%- if msg.role == 'system' %}
            {{- '[S]' + msg.content }}
            {%- continue %}
        {%- endif %}
    {%- endif %}
    {{- '[' + msg.role + ']' + msg.content }}
{%- endfor %}`;
    const messages = [
      { role: "system", content: "s" },
      { role: "user", content: "u" },
    ];
    expect(new ChatTemplate(turns).render({ messages: messages as never })).toBe("[S]s[user]u");
    // what a turn wrote before its `continue` or `break` stays written (Jinja2 writes as it goes)
    const each = "{% for i in [1, 2, 3] %}{{ i }}{% if i == 2 %}!{% continue %}{% endif %}.{% endfor %}";
    expect(render(each)).toBe("1.2!3.");
    expect(render(each.replace("continue", "break"))).toBe("1.2!");
    expect(render("{% for i in [1] %}{% for j in [1, 2] %}{{ j }}{% break %}{% endfor %}-{% endfor %}")).toBe("1-");
    // a loop's else runs when no turn ran, not after a first turn that breaks
    expect(render("{% for i in [1, 2] %}{{ i }}{% break %}{% else %}E{% endfor %}")).toBe("1");
    expect(render("{% for i in [] %}{{ i }}{% break %}{% else %}E{% endfor %}")).toBe("E");
  });

  it("tojson with indent and sort_keys, as json.dumps writes them (Llama 4's tool list)", () => {
    // Axolotl src/axolotl/utils/chat_templates/templates/llama4.jinja, lines 44-47
    const tools = `{%- for t in tools %}
            {{- t | tojson(indent=4) }}
            {{- "\n\n" }}
        {%- endfor %}`;
    const tool = { type: "function", function: { name: "f", parameters: { b: [1, "é"], a: {} } } };
    expect(new ChatTemplate(tools).render({ messages: [], tools: [tool] })).toBe(
      '{\n    "type": "function",\n    "function": {\n        "name": "f",\n        "parameters": {\n            "b": [\n                1,\n                "é"\n            ],\n            "a": {}\n        }\n    }\n}\n\n',
    );
    // transformers' tojson(x, ensure_ascii=False, indent=None, separators=None, sort_keys=False) is json.dumps's
    expect(render("{{ {'b': 1, 'a': {'d': none, 'c': true}} | tojson(indent=2, sort_keys=true) }}")).toBe(
      '{\n  "a": {\n    "c": true,\n    "d": null\n  },\n  "b": 1\n}',
    );
  });

  it("text filters of an undefined value, of None and of a boolean take Python's str() (Command A's safety mode)", () => {
    // Axolotl src/axolotl/utils/chat_templates/templates/command_a.jinja, line 163, with no safety_mode given
    const safety = `{% if safety_mode|upper == 'STRICT' -%}
strict
{%- else -%}
contextual
{%- endif %}`;
    expect(render(safety)).toBe("contextual");
    expect(render(safety, { safety_mode: "strict" })).toBe("strict");
    expect(render("{{ none | trim }}|{{ true | lower }}|{{ u | replace('a', 'b') }}|{{ none | upper }}")).toBe(
      "None|true||NONE",
    );
  });

  it("an undefined value iterates as empty: no loop turn, length 0, an empty list and join", () => {
    // llama.cpp models/templates/Qwen3-Coder.jinja, line 76: `message.tool_calls | length` after `is defined`; without
    // the guard Jinja2's default Undefined is an empty iterable, never an error
    expect(
      render("{% for c in m.tool_calls %}x{% else %}none{% endfor %}|{{ m.tool_calls | length }}", { m: {} }),
    ).toBe("none|0");
    expect(render("{{ u | list | length }}|{{ u | join(', ') }}|{{ u | items | list | length }}")).toBe("0||0");
  });

  it("a boolean is written as Python writes it, True and False (Qwen3-Coder's call arguments)", () => {
    // llama.cpp models/templates/Qwen3-Coder.jinja, lines 88-90
    const value = `{%- for args_name, args_value in arguments|items %}
    {{- '<parameter=' + args_name + '>\n' }}
    {%- set args_value = args_value | tojson | safe if args_value is mapping or (args_value is sequence and args_value is not string) else args_value | string %}
    {{- args_value }}
    {{- '\n</parameter>\n' }}
{%- endfor %}`;
    expect(render(value, { arguments: { on: true, off: false, none: null, n: 2, l: [true] } })).toBe(
      "<parameter=on>\nTrue\n</parameter>\n<parameter=off>\nFalse\n</parameter>\n<parameter=none>\nNone\n</parameter>\n" +
        "<parameter=n>\n2\n</parameter>\n<parameter=l>\n[true]\n</parameter>\n",
    );
    expect(render("{{ true }}|{{ 1 is odd }}|{{ false ~ '' }}|{{ [] is defined }}")).toBe("True|True|False|True");
  });

  it("a string times an integer repeats it, as in Python", () => {
    expect(render("{{ '  ' * 2 }}|{{ 3 * 'ab' }}|{{ 'x' * 0 }}|{{ 'x' * -1 }}")).toBe("    |ababab||");
  });

  it("strftime_now's directives, the glibc unpadded ones too, at the fixed date (Granite 3.3, Hunyuan A13B)", () => {
    // llama.cpp models/templates/ibm-granite-granite-3.3-2B-Instruct.jinja: strftime_now('%B %d, %Y')
    expect(render("{{ strftime_now('%B %d, %Y') }}")).toBe("January 02, 2026");
    // vLLM examples/tool_chat_template_hunyuan_a13b.jinja: `weekday_map[strftime_now('%A')]`, then '%Y-%m-%d %H:%M:%S'
    expect(render("{{ strftime_now('%A') }}|{{ strftime_now('%Y-%m-%d %H:%M:%S') }}")).toBe(
      "Friday|2026-01-02 00:00:00",
    );
    const t = new ChatTemplate("{{ strftime_now('%A %a %-d/%-m %j %I:%M %p %y %%') }}", {
      date: new Date(Date.UTC(2025, 6, 26, 15, 4)),
    });
    expect(t.render({ messages: [] })).toBe("Saturday Sat 26/7 207 03:04 PM 25 %");
  });
});

describe("Qwen3-Coder's own template with null in tool schemas and call arguments", () => {
  let src: LlamaCppSource | undefined;
  beforeAll(async () => {
    src = await llamaCppSource();
    if (src === undefined)
      console.warn("skipped: llama.cpp's source is not available (node-llama-cpp's bundle or git missing)");
  }, 120_000);

  it("renders them as Jinja2 does (None, True), where it used to fail on `string` / `trim` of null", ({ skip }) => {
    if (src === undefined) skip();
    const path = join((src as LlamaCppSource).dir, "models", "templates", "Qwen3-Coder.jinja");
    const tool = {
      type: "function",
      function: {
        name: "search",
        description: null,
        parameters: {
          type: "object",
          properties: {
            q: { type: "string", default: null, enum: ["a", null] },
            limit: { type: ["integer", "null"] },
            flag: { type: "boolean", default: false },
          },
          required: null,
        },
      },
    };
    const call = { id: "c1", type: "function", function: { name: "search", arguments: { q: null, flag: true } } };
    const out = new ChatTemplate(readFileSync(path, "utf8")).render({
      messages: [
        { role: "user", content: "find" },
        { role: "assistant", content: null, tool_calls: [call] },
      ] as never,
      tools: [tool],
    });
    expect(out).toContain("<function>\n<name>search</name>\n<description>None</description>");
    expect(out).toContain('<name>q</name>\n<type>string</type>\n<default>None</default>\n<enum>["a", null]</enum>');
    expect(out).toContain('<name>limit</name>\n<type>["integer", "null"]</type>');
    expect(out).toContain("<default>False</default>");
    expect(out).toContain(
      "<function=search>\n<parameter=q>\nNone\n</parameter>\n<parameter=flag>\nTrue\n</parameter>\n</function>",
    );
  });
});
