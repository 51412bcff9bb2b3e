import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ToolgramError } from "../../src/errors.js";
import { FORMAT_DESCRIPTIONS, FORMAT_NAMES } from "../../src/formats/index.js";
import { callsLayoutText } from "../../src/formats/layoutText.js";
import { parseToolCalls } from "../../src/parser/parseToolCalls.js";
import { renderToolCalls } from "../../src/parser/renderToolCalls.js";
import { ToolCallStream } from "../../src/parser/ToolCallStream.js";
import { SEED, callsArb } from "../support/parser/arbitraries.js";
import { tierRuns } from "../support/tier.js";

describe("render → parse round trip", () => {
  for (const format of FORMAT_NAMES) {
    for (const mode of ["strict", "tolerant"] as const) {
      it(`${format} / ${mode}`, () => {
        fc.assert(
          fc.property(callsArb(format), (calls) => {
            const text = renderToolCalls(calls, format);
            const r = parseToolCalls(text, { format, mode });
            expect(r.issues).toEqual([]);
            expect(r.dropped).toBe(0);
            // the canonical separators between (and text after) blocks are text outside the blocks
            expect(r.content).toBe(callsLayoutText(FORMAT_DESCRIPTIONS[format], calls.length));
            expect(
              r.calls.map((c) => ({
                name: c.name,
                arguments: c.arguments,
                ...(c.id !== undefined ? { id: c.id } : {}),
              })),
            ).toEqual(calls);
            // rendering what was parsed gives the same text: one canonical text per call list
            expect(renderToolCalls(r.calls, format)).toBe(text);
          }),
          { seed: SEED, numRuns: tierRuns(50, 200) },
        );
      });
    }
  }
});

describe("canonical renderings", () => {
  const calls = [{ name: "get_weather", arguments: { city: "Paris", n: 1 }, id: "c1" }];
  const expected: Record<string, string> = {
    qwen3: '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris", "n": 1}}\n</tool_call>',
    "tools-array": '<tools>[{"name": "get_weather", "id": "c1", "parameters": {"city": "Paris", "n": 1}}]</tools>',
    "llama3-json": '{"name": "get_weather", "parameters": {"city": "Paris", "n": 1}}',
    mistral: '[TOOL_CALLS][{"name": "get_weather", "id": "c1", "arguments": {"city": "Paris", "n": 1}}]',
    glaive: `<functioncall> {"name": "get_weather", "arguments": '{"city": "Paris", "n": 1}'}`,
    pythonic: '[get_weather(city="Paris", n=1)]',
    openai: ' to=functions.get_weather<|channel|>commentary json<|message|>{"city": "Paris", "n": 1}<|call|>',
    "qwen3-coder":
      "<tool_call>\n<function=get_weather>\n<parameter=city>\nParis\n</parameter>\n<parameter=n>\n1\n</parameter>\n</function>\n</tool_call>",
    "mistral-v11": '[TOOL_CALLS]get_weather[ARGS]{"city": "Paris", "n": 1}',
    "deepseek-v3":
      '<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>get_weather\n```json\n{"city": "Paris", "n": 1}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>',
    "deepseek-v3.1":
      '<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>get_weather<｜tool▁sep｜>{"city": "Paris", "n": 1}<｜tool▁call▁end｜><｜tool▁calls▁end｜>',
    // the call's own id is not of Kimi's `functions.NAME:IDX` shape: the head counts the call's position
    "kimi-k2":
      '<|tool_calls_section_begin|><|tool_call_begin|>functions.get_weather:0<|tool_call_argument_begin|>{"city": "Paris", "n": 1}<|tool_call_end|><|tool_calls_section_end|>',
    "minimax-m1": '<tool_calls>\n{"name": "get_weather", "arguments": {"city": "Paris", "n": 1}}\n</tool_calls>',
    "mistral-v11-call-id": '[TOOL_CALLS]get_weather[CALL_ID]c1[ARGS]{"city": "Paris", "n": 1}',
    "mistral-nemo": '[TOOL_CALLS][{"name": "get_weather", "arguments": {"city": "Paris", "n": 1}, "id": "c1"}]',
    "nemotron-v2": '<TOOLCALL>[{"name": "get_weather", "arguments": {"city": "Paris", "n": 1}}]</TOOLCALL>',
    granite: '<|tool_call|>[{"name": "get_weather", "arguments": {"city": "Paris", "n": 1}}]',
    "granite-20b-fc": '<function_call> {"name": "get_weather", "arguments": {"city": "Paris", "n": 1}}',
    "phi4-mini": 'functools[{"name": "get_weather", "arguments": {"city": "Paris", "n": 1}}]',
    xlam: '[{"name": "get_weather", "arguments": {"city": "Paris", "n": 1}}]',
    "hunyuan-a13b": '<tool_calls>[{"name": "get_weather", "arguments": {"city": "Paris", "n": 1}}]</tool_calls>',
    internlm2:
      '<|action_start|><|plugin|>\n{"name": "get_weather", "parameters": {"city": "Paris", "n": 1}}<|action_end|>',
    gigachat3:
      '<|message_sep|>\n\nfunction call<|role_sep|>\n{"name": "get_weather", "arguments": {"city": "Paris", "n": 1}}',
    "gigachat3-1": '<|function_call|>{"name": "get_weather", "arguments": {"city": "Paris", "n": 1}}',
    lfm2: "<|tool_call_start|>[get_weather(city='Paris', n=1)]<|tool_call_end|>",
    minicpm5: '<function name="get_weather"><param name="city">Paris</param><param name="n">1</param></function>',
    "glm-4.5":
      "<tool_call>get_weather\n<arg_key>city</arg_key>\n<arg_value>Paris</arg_value>\n<arg_key>n</arg_key>\n<arg_value>1</arg_value>\n</tool_call>",
    "nemotron-3-nano":
      "<tool_call>\n<function=get_weather>\n<parameter=city>\nParis\n</parameter>\n<parameter=n>\n1\n</parameter>\n</function>\n</tool_call>\n",
    "step-3.5":
      "<tool_call>\n<function=get_weather>\n<parameter=city>\nParis\n</parameter>\n<parameter=n>\n1\n</parameter>\n</function>\n</tool_call>",
    "reka-edge": '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris", "n": 1}}\n</tool_call>',
    "seed-oss":
      "<seed:tool_call>\n<function=get_weather>\n<parameter=city>Paris</parameter>\n<parameter=n>1</parameter>\n</function>\n</seed:tool_call>",
    "glm-4.7":
      "<tool_call>get_weather<arg_key>city</arg_key><arg_value>Paris</arg_value><arg_key>n</arg_key><arg_value>1</arg_value></tool_call>",
    "deepseek-v3.2":
      '<｜DSML｜function_calls>\n<｜DSML｜invoke name="get_weather">\n<｜DSML｜parameter name="city" string="true">Paris</｜DSML｜parameter>\n<｜DSML｜parameter name="n" string="false">1</｜DSML｜parameter>\n</｜DSML｜invoke>\n</｜DSML｜function_calls>',
    "deepseek-v4":
      '<｜DSML｜tool_calls>\n<｜DSML｜invoke name="get_weather">\n<｜DSML｜parameter name="city" string="true">Paris</｜DSML｜parameter>\n<｜DSML｜parameter name="n" string="false">1</｜DSML｜parameter>\n</｜DSML｜invoke>\n</｜DSML｜tool_calls>',
    gemma4: '<|tool_call>call:get_weather{city:<|"|>Paris<|"|>,n:1}<tool_call|>',
    hy3: "<tool_calls:opensource>\n<tool_call:opensource>get_weather<tool_sep:opensource>\n<arg_key:opensource>city</arg_key:opensource>\n<arg_value:opensource>Paris</arg_value:opensource>\n<arg_key:opensource>n</arg_key:opensource>\n<arg_value:opensource>1</arg_value:opensource>\n</tool_call:opensource>\n</tool_calls:opensource>",
    // the turn's end-of-turn token after the calls (`<|eom_id|>`) is not part of them
    "functionary-v3.1": '<function=get_weather>{"city": "Paris", "n": 1}</function>',
    // the generation prompt wrote the first message's `>>>`
    "functionary-v3.2": 'get_weather\n{"city": "Paris", "n": 1}',
    // a message to the tool, which it names again; the turn writes its first ` to=`
    "muse-glimmer":
      ' to=get_weather<|message|><atem:function_calls>\n<atem:invoke name="get_weather">\n<atem:parameter name="city">Paris</atem:parameter>\n<atem:parameter name="n">1</atem:parameter>\n</atem:invoke>\n</atem:function_calls>',
    // the call's own id is not an index: `index` counts the call's position from 1
    "kimi-k3":
      '<|close|>response<|sep|><|open|>tools<|sep|><|open|>call tool="get_weather" index="1"<|sep|><|open|>argument key="city" type="string"<|sep|>Paris<|close|>argument<|sep|><|open|>argument key="n" type="number"<|sep|>1<|close|>argument<|sep|><|close|>call<|sep|><|close|>tools<|sep|>',
    apertus: '<|tools_prefix|>[{"get_weather": {"city": "Paris", "n": 1}}]<|tools_suffix|>',
    "solar-open":
      '<|tool_calls|><|tool_call:begin|>c1<|tool_call:name|>get_weather<|tool_call:args|>{"city": "Paris", "n": 1}<|tool_call:end|><|calls|>',
    "command-r7b":
      '<|START_ACTION|>[\n    {"tool_call_id": "c1", "tool_name": "get_weather", "parameters": {"city": "Paris", "n": 1}}\n]<|END_ACTION|>',
    // json.dumps(indent=4) of the list of calls, as Command R+'s template writes it (no ids)
    "command-r-plus":
      '\nAction:\n```json\n[\n    {\n        "tool_name": "get_weather",\n        "parameters": {\n            "city": "Paris",\n            "n": 1\n        }\n    }\n]```\n',
    "minimax-m2":
      '\n<minimax:tool_call>\n<invoke name="get_weather">\n<parameter name="city">Paris</parameter>\n<parameter name="n">1</parameter>\n</invoke>\n</minimax:tool_call>',
    // a turn without reasoning starts with MiniMax M3's lone `</mm:think>`
    "minimax-m3":
      '</mm:think>]<]minimax[>[<tool_call>\n]<]minimax[>[<invoke name="get_weather">]<]minimax[>[<city>Paris]<]minimax[>[</city>]<]minimax[>[<n>1]<]minimax[>[</n>]<]minimax[>[</invoke>\n]<]minimax[>[</tool_call>',
    "firefunction-v2": ' functools[{"name": "get_weather", "arguments": {"city": "Paris", "n": 1}}]',
    "olmo-3": '<function_calls>get_weather(city="Paris", n=1)</function_calls>',
    "lfm2-json":
      '<|tool_call_start|>[{"name": "get_weather", "arguments": {"city": "Paris", "n": 1}}]<|tool_call_end|>',
    // a built-in tool's call, as Llama 3.1's template writes one to a tool of its `builtin_tools`
    "llama3-builtin": '<|python_tag|>get_weather.call(city="Paris", n=1)',
    "step-3":
      '<｜tool_calls_begin｜><｜tool_call_begin｜>function<｜tool_sep｜><steptml:invoke name="get_weather"><steptml:parameter name="city">Paris</steptml:parameter><steptml:parameter name="n">1</steptml:parameter></steptml:invoke><｜tool_call_end｜><｜tool_calls_end｜>',
  };
  for (const format of FORMAT_NAMES) {
    it(format, () => expect(renderToolCalls(calls, format)).toBe(expected[format]));
  }
  it("refuses what a format cannot carry", () => {
    expect(() =>
      renderToolCalls(
        [
          { name: "a", arguments: {} },
          { name: "b", arguments: {} },
        ],
        "llama3-json",
      ),
    ).toThrow(ToolgramError);
    expect(() => renderToolCalls([{ name: "a", arguments: { "not id": 1 } }], "pythonic")).toThrow(/Python identifier/);
    // a quoted name holding its closing `">` would be read back cut there
    expect(() => renderToolCalls([{ name: "f", arguments: { 'k">x': "v" } }], "minimax-m2")).toThrow(/ends it/);
    expect(() => renderToolCalls([{ name: 'a">b', arguments: {} }], "minicpm5")).toThrow(/ends it/);
    expect(renderToolCalls([{ name: 'a"b', arguments: { 'k"y': "v" } }], "minimax-m2")).toContain(
      '<invoke name="a"b">',
    );
    expect(FORMAT_DESCRIPTIONS.qwen3.open).toBe("<tool_call>");
  });
});

describe("format drifts", () => {
  it("mistral: a bare object, whitespace, trailing comma", () => {
    const r = parseToolCalls('[TOOL_CALLS] {"name": "f", "arguments": {"a": 1}}', { format: "mistral" });
    expect(r.calls.map((c) => c.arguments)).toEqual([{ a: 1 }]);
    expect(r.issues.map((i) => i.code)).toEqual(["MISSING_ARRAY_BRACKETS"]);
    const t = parseToolCalls('[TOOL_CALLS] [{"name": "f", "arguments": {}}, ]', { format: "mistral" });
    expect(t.calls).toHaveLength(1);
    expect(t.issues.map((i) => i.code)).toEqual(["TRAILING_COMMA"]);
  });
  it("mistral: a truncated list keeps the complete calls", () => {
    const r = parseToolCalls('[TOOL_CALLS][{"name": "a", "arguments": {}}, {"name": "b", "argu', { format: "mistral" });
    expect(r.calls.map((c) => c.name)).toEqual(["a"]);
    expect(r.dropped).toBe(1);
    expect(r.issues.map((i) => i.code)).toEqual(["TRUNCATED", "UNCLOSED_BLOCK"]);
  });
  it("llama3-json: strictly, only a reply that starts with an object is a call; tolerantly, one after text too", () => {
    const text = 'Sure: {"name": "f", "parameters": {}}';
    expect(parseToolCalls(text, { format: "llama3-json", mode: "strict" }).calls).toEqual([]);
    const late = parseToolCalls(text, { format: "llama3-json" });
    expect(late.calls.map((c) => c.name)).toEqual(["f"]);
    expect(late.content).toBe("Sure: ");
    expect(late.issues.map((i) => i.code)).toEqual(["CALL_AFTER_TEXT"]);
    const r = parseToolCalls('  <|python_tag|>{"name": "f", "arguments": {"x": 1}}', { format: "llama3-json" });
    expect(r.calls.map((c) => c.arguments)).toEqual([{ x: 1 }]);
    expect(r.content).toBe("  ");
    expect(r.issues.map((i) => i.code)).toEqual(["ARGUMENTS_KEY_ALIAS"]);
  });
  it("pythonic: Python literals, single quotes, text that only looks like a list", () => {
    const r = parseToolCalls("[search(query='it\\'s', limit=3, flags=[True, None], opts={'a': 1.5})]", {
      format: "pythonic",
    });
    expect(r.calls.map((c) => c.arguments)).toEqual([
      { query: "it's", limit: 3, flags: [true, null], opts: { a: 1.5 } },
    ]);
    expect(parseToolCalls("[1] is a citation", { format: "pythonic" }).content).toBe("[1] is a citation");
    expect(parseToolCalls("[f(x=)]", { format: "pythonic" }).dropped).toBe(1);
  });
  it("glaive: arguments as a quoted string or an object", () => {
    const r = parseToolCalls(`<functioncall> {"name": "f", "arguments": '{"q": "it's"}'}`, { format: "glaive" });
    expect(r.calls.map((c) => c.arguments)).toEqual([{ q: "it's" }]);
    const o = parseToolCalls(`Calling.\n<functioncall> {"name": "f", "arguments": {"q": 1}}`, { format: "glaive" });
    expect(o.calls.map((c) => c.arguments)).toEqual([{ q: 1 }]);
    expect(o.content).toBe("Calling.\n");
    expect(o.issues.map((i) => i.code)).toEqual(["ARGUMENTS_NOT_STRING"]);
  });
  it("tools-array: an unbalanced quote does not swallow the rest of the reply", () => {
    const t = `<tools>[{"name": "f", "parameters": {"q": it's}}]</tools>\nAnd <tools>[{"name": "g", "parameters": {}}]</tools>`;
    for (const chunks of [[t], [...t]]) {
      const s = new ToolCallStream({ format: "tools-array" });
      const events = chunks.flatMap((c) => s.push(c)).concat(s.flush());
      const r = s.end();
      expect(r).toEqual(parseToolCalls(t, { format: "tools-array" }));
      expect(r.calls.map((c) => c.name)).toEqual(["g"]);
      expect(r.content).toBe("\nAnd ");
      expect(r.dropped).toBe(1);
      const starts = events.flatMap((e) => (e.type === "call_start" ? [e.index] : []));
      const ends = events.flatMap((e) => (e.type === "call_end" ? [e.index] : []));
      expect(ends.sort((a, b) => a - b)).toEqual(starts);
    }
  });

  it("tools-array: ids carried, text before", () => {
    const r = parseToolCalls(
      'Checking.\n<tools>[{"name": "f", "id": "x1", "parameters": {}}, {"name": "g", "parameters": {"a": 1}}]</tools>',
      { format: "tools-array" },
    );
    expect(r.calls.map((c) => [c.name, c.id])).toEqual([
      ["f", "x1"],
      ["g", undefined],
    ]);
    expect(r.content).toBe("Checking.\n");
  });
});
