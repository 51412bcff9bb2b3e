import { readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { ChatTemplate } from "../../src/templates/renderTemplate.js";
import { llamaCppSource, type LlamaCppSource } from "../../src/testing/llamaCppSource.js";
import { compileTools } from "../../src/compile.js";
import { ToolgramError } from "../../src/errors.js";
import { parseToolCalls } from "../../src/parser/parseToolCalls.js";
import { renderToolCalls } from "../../src/parser/renderToolCalls.js";
import { ToolCallStream } from "../../src/parser/ToolCallStream.js";
import { describeFormat } from "../../src/formats/describeFormat.js";
import { withoutCallTurnEnd } from "../../src/formats/callTurnEnd.js";
import { OUTPUTS_DIR, type ChatOutputCase } from "../../scripts/extract-chat-outputs.js";

/**
 * Gemma 4's own argument syntax (gemma4-call units): llama.cpp's outputs for Gemma 4 (test/fixtures/chat-outputs,
 * from tests/test-chat.cpp) parse strictly with their tools and are in the compiled grammar's language; keys come in
 * the template's `dictsort` order; strings are raw between `<|"|>`; what the syntax cannot carry is refused.
 */
const TOOLS = (JSON.parse(readFileSync(join(OUTPUTS_DIR, "tools.json"), "utf8")) as { tools: Record<string, unknown> })
  .tools;

const call = (name: string, args: string): string => `<|tool_call>call:${name}${args}<tool_call|>`;
const codes = (r: { issues: { code: string }[] }): string[] => r.issues.map((i) => i.code);

describe("gemma4: llama.cpp's outputs", () => {
  const cases = (
    JSON.parse(readFileSync(join(OUTPUTS_DIR, "google-gemma-4-31B-it.json"), "utf8")) as { cases: ChatOutputCase[] }
  ).cases.filter((c) => !("is_partial" in c.settings) && (c.expect?.toolCalls.length ?? 0) > 0);

  it("every complete output with calls is in the grammar's language and parses strictly into its calls (batch = stream)", () => {
    expect(cases.length).toBe(16);
    for (const c of cases) {
      const tools = c.tools.map((t) => TOOLS[t]);
      const where = `line ${c.line}`;
      const g = compileTools(tools, { format: "gemma4", parallel: true });
      expect(g.accepts(c.text), where).toBe(true);
      const r = parseToolCalls(c.text, { format: "gemma4", tools, mode: "strict" });
      expect(r.issues, where).toEqual([]);
      expect(r.content, where).toBe(c.expect!.content);
      expect(
        r.calls.map((x) => ({ name: x.name, arguments: x.arguments })),
        where,
      ).toEqual(c.expect!.toolCalls.map((x) => ({ name: x.name, arguments: JSON.parse(x.arguments) as unknown })));
      const s = new ToolCallStream({ format: "gemma4", tools, mode: "strict" });
      for (const ch of c.text) s.push(ch);
      expect(s.end(), where).toEqual(r);
    }
  });
});

describe("gemma4: keys in the template's dictsort order", () => {
  const tools = [
    {
      name: "f",
      parameters: {
        type: "object",
        properties: {
          zeta: { type: "string" },
          Alpha: { type: "integer" },
          beta: { type: "object", properties: { y: { type: "boolean" }, X: { type: "null" } } },
        },
      },
    },
  ];
  const args = { zeta: "z", Alpha: 1, beta: { y: true, X: null } };

  it("renders every object's keys case-insensitively sorted, as Jinja's dictsort does", () => {
    expect(renderToolCalls([{ name: "f", arguments: args }], "gemma4")).toBe(
      call("f", '{Alpha:1,beta:{X:null,y:true},zeta:<|"|>z<|"|>}'),
    );
  });

  it("the grammar writes declared properties in that order only", () => {
    const g = compileTools(tools, { format: "gemma4" });
    expect(g.accepts(call("f", '{Alpha:1,beta:{X:null,y:true},zeta:<|"|>z<|"|>}'))).toBe(true);
    expect(g.accepts(call("f", '{zeta:<|"|>z<|"|>,Alpha:1}'))).toBe(false);
    expect(g.accepts(call("f", "{beta:{y:true,X:null}}"))).toBe(false);
    expect(g.accepts(call("f", "{}"))).toBe(true);
  });

  it("without tools strict parsing takes any key order; with tools the grammar decides", () => {
    const text = call("f", '{zeta:<|"|>z<|"|>,Alpha:1}');
    expect(parseToolCalls(text, { format: "gemma4", mode: "strict" }).issues).toEqual([]);
    const r = parseToolCalls(text, { format: "gemma4", tools, mode: "strict" });
    expect(codes(r)).toEqual(["NONCANONICAL"]);
    expect(r.dropped).toBe(1);
    expect(parseToolCalls(text, { format: "gemma4", tools, mode: "tolerant" }).calls.map((c) => c.valid)).toEqual([
      true,
    ]);
  });
});

describe('gemma4: strings are raw between <|"|>', () => {
  const tools = [
    {
      name: "say",
      parameters: { type: "object", properties: { s: { type: "string", maxLength: 40 } }, required: ["s"] },
    },
  ];

  it("punctuation, quotes, backslashes and newlines stand as they are", () => {
    const s = 'a "b" {c:1}, [d] \\n\nü: <x>';
    const text = renderToolCalls([{ name: "say", arguments: { s } }], "gemma4");
    expect(text).toBe(call("say", `{s:<|"|>${s}<|"|>}`));
    expect(compileTools(tools, { format: "gemma4" }).accepts(text)).toBe(true);
    const r = parseToolCalls(text, { format: "gemma4", tools, mode: "strict" });
    expect(r.issues).toEqual([]);
    expect(r.calls[0].arguments).toEqual({ s });
  });

  it("a string cannot hold the delimiter or a block marker: the renderer refuses, the grammar never writes one", () => {
    for (const bad of ['x<|"|>y', "x<tool_call|>y", "x<|tool_call>y"]) {
      expect(() => renderToolCalls([{ name: "say", arguments: { s: bad } }], "gemma4"), bad).toThrow(/cannot hold/);
    }
    const g = compileTools(tools, { format: "gemma4" });
    expect(g.accepts(call("say", '{s:<|"|>x<|"|>y<|"|>}'))).toBe(false);
    expect(g.accepts(call("say", '{s:<|"|>x<tool_call|>y<|"|>}'))).toBe(false);
    // the length bound counts the value's own characters
    expect(g.accepts(call("say", `{s:<|"|>${"é".repeat(40)}<|"|>}`))).toBe(true);
    expect(g.accepts(call("say", `{s:<|"|>${"é".repeat(41)}<|"|>}`))).toBe(false);
  });
});

describe("gemma4: what the syntax cannot carry is refused", () => {
  const refusal = (tools: unknown[]): ToolgramError => {
    try {
      compileTools(tools, { format: "gemma4" });
    } catch (e) {
      if (e instanceof ToolgramError) return e;
      throw e;
    }
    throw new Error("compiled");
  };

  it("a property name that cannot be written bare (UNSUPPORTED_KEYWORD at its path)", () => {
    for (const key of ["a:b", "a b", "", "x,y", "<k>"]) {
      const e = refusal([
        {
          name: "f",
          parameters: { type: "object", properties: { ok: { type: "string" }, [key]: { type: "string" } } },
        },
      ]);
      expect(e.code, key).toBe("UNSUPPORTED_KEYWORD");
      expect(e.message).toMatch(/bare/);
    }
    expect(() => renderToolCalls([{ name: "f", arguments: { "a:b": 1 } }], "gemma4")).toThrow(/bare/);
  });

  it("a tool name that cannot stand before the arguments (INVALID_TOOL)", () => {
    expect(refusal([{ name: "get weather", parameters: { type: "object", properties: {} } }]).code).toBe(
      "INVALID_TOOL",
    );
    expect(refusal([{ name: "a{b", parameters: { type: "object", properties: {} } }]).code).toBe("INVALID_TOOL");
  });

  it("parameters that are not one object schema", () => {
    const e = refusal([
      {
        name: "f",
        parameters: { anyOf: [{ type: "object", properties: { a: { type: "string" } } }, { type: "array" }] },
      },
    ]);
    expect(e.code).toBe("UNSUPPORTED_KEYWORD");
  });

  it("undeclared keys of an open object are bare keys of the same form", () => {
    const g = compileTools([{ name: "f", parameters: { type: "object", properties: { o: { type: "object" } } } }], {
      format: "gemma4",
    });
    expect(g.accepts(call("f", '{o:{b:1,a:[<|"|>x<|"|>,{}]}}'))).toBe(true);
    expect(g.accepts(call("f", "{o:{a b:1}}"))).toBe(false);
  });
});

describe("gemma4: tolerant reading", () => {
  it("whitespace between tokens and Python's None / True / False (Python's Jinja writes null as None)", () => {
    const text = call("f", '{ a: <|"|>x<|"|> , b :None, c:[True, False] }');
    const t = parseToolCalls(text, { format: "gemma4" });
    expect(t.calls.map((c) => c.arguments)).toEqual([{ a: "x", b: null, c: [true, false] }]);
    expect(new Set(codes(t))).toEqual(new Set(["WHITESPACE_AROUND_TAGS", "PYTHON_LITERAL"]));
    expect(codes(parseToolCalls(text, { format: "gemma4", mode: "strict" }))).toEqual(["NONCANONICAL"]);
  });

  it("an unterminated string or a missing brace is no call", () => {
    for (const bad of ['{a:<|"|>x}', "{a:1", "{a 1}"]) {
      const r = parseToolCalls(call("f", bad), { format: "gemma4" });
      expect(r.calls, bad).toEqual([]);
      expect(r.dropped, bad).toBe(1);
    }
  });
});

describe("gemma4: the turn around the calls", () => {
  it("the calls end the reply; <|tool_response>, which the main template writes after them, is the call turn's end", () => {
    const text = renderToolCalls(
      [
        { name: "f", arguments: {} },
        { name: "g", arguments: { a: 1 } },
      ],
      "gemma4",
    );
    expect(text).toBe(call("f", "{}") + call("g", "{a:1}"));
    const g = compileTools(
      [
        { name: "f", parameters: { type: "object", properties: {} } },
        { name: "g", parameters: { type: "object", properties: { a: { type: "integer" } } } },
      ],
      { format: "gemma4" },
    );
    expect(g.accepts(text)).toBe(true);
    expect(g.accepts(`${text}<|tool_response>`)).toBe(false);
    expect(withoutCallTurnEnd(describeFormat("gemma4"), `${text}<|tool_response>`)).toBe(text);
  });

  it("vLLM's parser name and llama.cpp's chat format name are aliases of gemma4", () => {
    expect(describeFormat("peg-gemma4").name).toBe("gemma4");
    expect(describeFormat("gemma4").name).toBe("gemma4");
  });
});

describe("gemma4: Gemma 4's own templates write typed arguments as the renderer does", () => {
  let src: LlamaCppSource | undefined;
  beforeAll(async () => {
    src = await llamaCppSource();
    if (src === undefined)
      console.warn("skipped: llama.cpp's source is not available (node-llama-cpp's bundle or git missing)");
  }, 300_000);

  // mixed-case keys (dictsort ignores case), nested objects and arrays, numbers, booleans, punctuation inside strings;
  // no null: Python's Jinja writes None and @huggingface/jinja nothing, neither of them Gemma 4's `null`
  const args = { zeta: "a:b,{c} [d]", Alpha: 7, beta: { y: true, X: [1, 2.5, "s", false], m: {} }, list: [] };
  const tools = [
    {
      name: "f",
      parameters: {
        type: "object",
        properties: {
          zeta: { type: "string" },
          list: { type: "array", items: { type: "integer" } },
          beta: { type: "object", properties: { y: { type: "boolean" }, X: { type: "array" }, m: { type: "object" } } },
          Alpha: { type: "integer" },
        },
      },
    },
  ];
  const turnEnd: Record<string, string> = {
    "google-gemma-4-31B-it.jinja": "<|tool_response>",
    "google-gemma-4-31B-it-interleaved.jinja": "<turn|>\n",
  };

  for (const [file, end] of Object.entries(turnEnd)) {
    it(file, ({ skip }) => {
      if (src === undefined) skip();
      const t = new ChatTemplate(readFileSync(join((src as LlamaCppSource).dir, "models", "templates", file), "utf8"));
      const text = t.render({
        messages: [
          { role: "user", content: "hi" },
          {
            role: "assistant",
            content: "",
            tool_calls: [{ id: "c1", type: "function", function: { name: "f", arguments: structuredClone(args) } }],
          },
        ],
      });
      const turn = text.slice(text.lastIndexOf("<|turn>model\n") + "<|turn>model\n".length);
      const calls = renderToolCalls([{ name: "f", arguments: args }], "gemma4");
      expect(turn).toBe(calls + end);
      expect(calls).toBe(
        call("f", '{Alpha:7,beta:{m:{},X:[1,2.5,<|"|>s<|"|>,false],y:true},list:[],zeta:<|"|>a:b,{c} [d]<|"|>}'),
      );
      // declared in another order, the schema's grammar still takes the template's order, and strict parsing reads it
      expect(compileTools(tools, { format: "gemma4" }).accepts(calls)).toBe(true);
      const r = parseToolCalls(calls, { format: "gemma4", tools, mode: "strict" });
      expect(r.issues).toEqual([]);
      expect(r.calls[0].arguments).toEqual(args);
    });
  }
});
