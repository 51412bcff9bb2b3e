import { readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { OUTPUTS_DIR, type ChatOutputCase } from "../../scripts/extract-chat-outputs.js";
import { compileTools } from "../../src/compile.js";
import { describeFormat } from "../../src/formats/describeFormat.js";
import { contentBeforeCalls } from "../../src/formats/layoutText.js";
import { ToolgramError } from "../../src/errors.js";
import type { JsonObject } from "../../src/json.js";
import { parseToolCalls } from "../../src/parser/parseToolCalls.js";
import { renderToolCalls } from "../../src/parser/renderToolCalls.js";
import { ToolCallStream } from "../../src/parser/ToolCallStream.js";
import { ChatTemplate } from "../../src/templates/renderTemplate.js";
import { llamaCppSource, type LlamaCppSource } from "../../src/testing/llamaCppSource.js";

/**
 * MiniMax M3's nested-element arguments (xml-elements units): llama.cpp's outputs for MiniMax-M3 (test/fixtures/
 * chat-outputs, from tests/test-chat.cpp) are in the compiled grammar's language and parse strictly with their tools;
 * the template's own renders of nested objects, arrays of objects and of scalars, booleans, numbers, null items and
 * strings holding `<` and `&` are accepted, parse back exactly and render byte for byte; what the template cannot
 * write back (null members, undeclared keys, keys that are no tags) is refused or left out, never guessed.
 */
const TOOLS = (JSON.parse(readFileSync(join(OUTPUTS_DIR, "tools.json"), "utf8")) as { tools: Record<string, unknown> })
  .tools;
const P = "]<]minimax[>[";
const FORMAT = "minimax-m3";

/** A turn with the calls' invokes, written as the template writes them. */
const turn = (invokes: string[], before = "</mm:think>"): string =>
  `${before}${P}<tool_call>\n${invokes.map((i) => `${i}\n`).join("")}${P}</tool_call>`;
const invoke = (name: string, body: string): string => `${P}<invoke name="${name}">${body}${P}</invoke>`;
const el = (tag: string, body: string): string => `${P}<${tag}>${body}${P}</${tag}>`;
const codes = (r: { issues: { code: string }[] }): string[] => r.issues.map((i) => i.code);

describe("minimax-m3: llama.cpp's outputs", () => {
  const cases = (
    JSON.parse(readFileSync(join(OUTPUTS_DIR, "MiniMax-M3.json"), "utf8")) as { cases: ChatOutputCase[] }
  ).cases.filter((c) => !("is_partial" in c.settings) && (c.expect?.toolCalls.length ?? 0) > 0);

  it("every complete output with calls is in the grammar's language and parses strictly into its calls (batch = stream)", () => {
    expect(cases.length).toBe(17);
    const differ: number[] = [];
    for (const c of cases) {
      const tools = c.tools.map((t) => TOOLS[t]);
      const where = `line ${c.line}`;
      const want = c.expect!.toolCalls.map((x) => ({ name: x.name, arguments: JSON.parse(x.arguments) as unknown }));
      const r = parseToolCalls(c.text, { format: FORMAT, tools, mode: "strict" });
      const got = r.calls.map((x) => ({ name: x.name, arguments: x.arguments }));
      if (JSON.stringify(got) !== JSON.stringify(want)) {
        differ.push(c.line);
        continue;
      }
      expect(compileTools(tools, { format: FORMAT, parallel: true }).accepts(c.text), where).toBe(true);
      expect(r.issues, where).toEqual([]);
      // the content holds the separators between the blocks too
      expect(contentBeforeCalls(describeFormat(FORMAT), r.content, r.calls.length), where).toBe(c.expect!.content);
      expect(r.reasoning ?? "", where).toBe(c.expect!.reasoning);
      const s = new ToolCallStream({ format: FORMAT, tools, mode: "strict" });
      for (const ch of c.text) s.push(ch);
      expect(s.end(), where).toEqual(r);
    }
    // line 5389: a `string | object` parameter holding elements; llama.cpp keeps the elements' text as the string,
    // here a string never holds the tag prefix, so the elements are the object (and the grammar writes only that)
    expect(differ).toEqual([5389]);
  });

  it("the one output read otherwise: the object, which the schema admits too", () => {
    const c = cases.find((x) => x.line === 5389) as ChatOutputCase;
    const r = parseToolCalls(c.text, { format: FORMAT, tools: c.tools.map((t) => TOOLS[t]), mode: "strict" });
    expect(r.calls.map((x) => [x.name, x.arguments, x.valid])).toEqual([
      ["union_args", { label: { text: "hi" } }, true],
    ]);
  });
});

describe("minimax-m3: the template's own renders of every kind of value", () => {
  let src: LlamaCppSource | undefined;
  beforeAll(async () => {
    src = await llamaCppSource();
    if (src === undefined)
      console.warn("skipped: llama.cpp's source is not available (node-llama-cpp's bundle or git missing)");
  }, 300_000);

  const tool = {
    type: "function",
    function: {
      name: "plan_trip",
      parameters: {
        type: "object",
        properties: {
          title: { type: "string" },
          note: { type: "string" },
          days: { type: "integer" },
          budget: { type: "number" },
          confirmed: { type: "boolean" },
          code: { type: ["string", "integer"] },
          origin: {
            type: "object",
            properties: {
              city: { type: "string" },
              geo: {
                type: "object",
                properties: { lat: { type: "number" }, lon: { type: "number" } },
                required: ["lat", "lon"],
              },
            },
          },
          stops: {
            type: "array",
            items: {
              type: "object",
              properties: {
                city: { type: "string" },
                nights: { type: "integer" },
                tags: { type: "array", items: { type: "string" } },
              },
            },
          },
          scores: { type: "array", items: { type: ["number", "null"] } },
          flags: { type: "array", items: { type: "boolean" } },
          empty: { type: "string" },
          nothing: { type: "array", items: { type: "string" } },
        },
      },
    },
  };
  const args: JsonObject = {
    title: "Paris & <Lyon> a<b && c>d",
    note: "line one\nline two with </ and />",
    days: 3,
    budget: -12.5,
    confirmed: true,
    code: "A7",
    origin: { city: "Nice", geo: { lat: 43.7, lon: 7.25 } },
    stops: [
      { city: "Lyon", nights: 2, tags: ["food", "old town"] },
      { city: "Dijon", nights: 1, tags: [] },
    ],
    scores: [1, null, 2.5],
    flags: [false, true],
    empty: "",
    nothing: [],
  };

  /** The assistant turn the template writes for `calls` (after the generation prompt, without the turn's end). */
  const templateTurn = (calls: { name: string; arguments: JsonObject }[]): string => {
    const t = new ChatTemplate(
      readFileSync(join((src as LlamaCppSource).dir, "models", "templates", "MiniMax-M3.jinja"), "utf8"),
    );
    const user = { role: "user" as const, content: "hi" };
    const prompt = t.render({ messages: [user], tools: [tool], addGenerationPrompt: true });
    const assistant = {
      role: "assistant" as const,
      content: "",
      tool_calls: calls.map((c, i) => ({
        id: `c${i}`,
        type: "function" as const,
        function: { name: c.name, arguments: structuredClone(c.arguments) },
      })),
    };
    const full = t.render({ messages: [user, assistant], tools: [tool], addGenerationPrompt: false });
    expect(full.startsWith(prompt)).toBe(true);
    const end = "[e~[\n";
    expect(full.endsWith(end)).toBe(true);
    return full.slice(prompt.length, full.length - end.length);
  };

  it("nested objects, arrays of objects and scalars, booleans, numbers, null items, raw strings: accepted, read back exactly, rendered byte for byte", ({
    skip,
  }) => {
    if (src === undefined) skip();
    const text = templateTurn([{ name: "plan_trip", arguments: args }]);
    // the template's spelling, as read from its render
    expect(text).toContain(el("title", "Paris & <Lyon> a<b && c>d"));
    expect(text).toContain(el("scores", el("item", "1") + el("item", "") + el("item", "2.5")));
    expect(text).toContain(el("empty", "") + el("nothing", ""));
    expect(text.startsWith(`</mm:think>${P}<tool_call>\n`)).toBe(true);
    const tools = [tool];
    expect(compileTools(tools, { format: FORMAT }).accepts(text)).toBe(true);
    const r = parseToolCalls(text, { format: FORMAT, tools, mode: "strict" });
    expect(r.issues).toEqual([]);
    expect(r.calls.map((x) => ({ name: x.name, arguments: x.arguments }))).toEqual([
      { name: "plan_trip", arguments: args },
    ]);
    expect(renderToolCalls([{ name: "plan_trip", arguments: args }], FORMAT)).toBe(text);
  });

  it("two calls with reasoning, as the template writes them", ({ skip }) => {
    if (src === undefined) skip();
    const small = { title: "a", days: 1 };
    const t = new ChatTemplate(
      readFileSync(join((src as LlamaCppSource).dir, "models", "templates", "MiniMax-M3.jinja"), "utf8"),
    );
    const user = { role: "user" as const, content: "hi" };
    const prompt = t.render({ messages: [user], tools: [tool], addGenerationPrompt: true });
    const calls = [0, 1].map((i) => ({
      id: `c${i}`,
      type: "function" as const,
      function: { name: "plan_trip", arguments: { ...small } },
    }));
    const full = t.render({
      messages: [user, { role: "assistant", content: "", reasoning_content: "think <b> & plan", tool_calls: calls }],
      tools: [tool],
      addGenerationPrompt: false,
    });
    const text = full.slice(prompt.length, full.length - "[e~[\n".length);
    expect(text.startsWith("<mm:think>think <b> & plan</mm:think>")).toBe(true);
    expect(compileTools([tool], { format: FORMAT, parallel: true }).accepts(text)).toBe(true);
    const r = parseToolCalls(text, { format: FORMAT, tools: [tool], mode: "strict" });
    expect(r.issues).toEqual([]);
    expect(r.reasoning).toBe("think <b> & plan");
    expect(
      renderToolCalls(
        [small, small].map((a) => ({ name: "plan_trip", arguments: a })),
        FORMAT,
        { reasoning: "think <b> & plan" },
      ),
    ).toBe(text);
  });

  it("a null member: the template drops it; the renderer refuses it rather than write a call that reads back without it", ({
    skip,
  }) => {
    if (src === undefined) skip();
    const text = templateTurn([{ name: "plan_trip", arguments: { title: "x", days: null } }]);
    expect(text).toBe(turn([invoke("plan_trip", el("title", "x"))]));
    expect(() => renderToolCalls([{ name: "plan_trip", arguments: { title: "x", days: null } }], FORMAT)).toThrow(
      /arguments\.days.*null members/,
    );
  });
});

describe("minimax-m3: what cannot round-trip is refused or left out at compile time", () => {
  const compile = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
    compileTools([{ name: "f", parameters: { type: "object", properties, ...extra } }], { format: FORMAT });

  it("a required property admitting only null is refused, naming its path", () => {
    let err: unknown;
    try {
      compile({ gone: { type: "null" } }, { required: ["gone"] });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ToolgramError);
    expect((err as ToolgramError).code).toBe("UNSUPPORTED_KEYWORD");
    expect((err as ToolgramError).schemaPath).toContain("/properties/gone");
  });

  it("a nullable member is written without its null: the empty element is not a null", () => {
    const g = compile({ n: { type: ["integer", "null"] } });
    expect(g.accepts(turn([invoke("f", el("n", "4"))]))).toBe(true);
    expect(g.accepts(turn([invoke("f", "")]))).toBe(true);
    expect(g.accepts(turn([invoke("f", el("n", ""))]))).toBe(false);
    expect(g.accepts(turn([invoke("f", el("n", "null"))]))).toBe(false);
  });

  it("a string beside numbers never spells one: the text 42 is the number", () => {
    const g = compile({ v: { type: ["string", "integer"] } });
    const text = turn([invoke("f", el("v", "42"))]);
    expect(g.accepts(text)).toBe(true);
    expect(g.accepts(turn([invoke("f", el("v", "forty-two"))]))).toBe(true);
    const tools = [{ name: "f", parameters: { type: "object", properties: { v: { type: ["string", "integer"] } } } }];
    expect(parseToolCalls(text, { format: FORMAT, tools, mode: "strict" }).calls[0].arguments).toEqual({ v: 42 });
    expect(
      parseToolCalls(turn([invoke("f", el("v", "42"))]), {
        format: FORMAT,
        tools: [{ name: "f", parameters: { type: "object", properties: { v: { type: "string" } } } }],
        mode: "strict",
      }).calls[0].arguments,
    ).toEqual({ v: "42" });
  });

  it('an empty element is "" before {} before []: the later kinds are written non-empty', () => {
    const g = compile({ v: { anyOf: [{ type: "string" }, { type: "array", items: { type: "integer" } }] } });
    expect(g.accepts(turn([invoke("f", el("v", ""))]))).toBe(true);
    expect(g.accepts(turn([invoke("f", el("v", el("item", "1")))]))).toBe(true);
    const tools = [
      {
        name: "f",
        parameters: {
          type: "object",
          properties: { v: { anyOf: [{ type: "string" }, { type: "array", items: { type: "integer" } }] } },
        },
      },
    ];
    expect(
      parseToolCalls(turn([invoke("f", el("v", ""))]), { format: FORMAT, tools, mode: "strict" }).calls[0].arguments,
    ).toEqual({ v: "" });
  });

  it("strings never hold the tag prefix; < and & stand as they are", () => {
    const g = compile({ s: { type: "string" } });
    expect(g.accepts(turn([invoke("f", el("s", "a<b>&c</s>"))]))).toBe(true);
    expect(g.accepts(turn([invoke("f", el("s", `a${P}b`))]))).toBe(false);
    expect(() => renderToolCalls([{ name: "f", arguments: { s: `a${P}b` } }], FORMAT)).toThrow(ToolgramError);
  });

  it("undeclared keys are left out (a closing tag repeats its key), with the warning NARROWED", () => {
    const g = compileTools(
      [
        {
          name: "f",
          parameters: {
            type: "object",
            properties: {
              m: { type: "object", properties: { a: { type: "string" } }, additionalProperties: { type: "string" } },
            },
          },
        },
      ],
      { format: FORMAT },
    );
    expect(g.warnings.map((w) => w.code)).toContain("NARROWED");
    expect(g.accepts(turn([invoke("f", el("m", el("a", "x")))]))).toBe(true);
    expect(g.accepts(turn([invoke("f", el("m", el("b", "x")))]))).toBe(false);
  });

  it("keys that are no tags, or would read as the format's markers or as an array, are refused", () => {
    for (const key of ["invoke", "tool_call", "a<b", "/x"]) {
      expect(() => compile({ [key]: { type: "string" } }), key).toThrow(ToolgramError);
    }
    expect(() =>
      compile({
        u: {
          anyOf: [
            { type: "array", items: { type: "string" } },
            { type: "object", properties: { item: { type: "string" } } },
          ],
        },
      }),
    ).toThrow(/item/);
  });
});

describe("minimax-m3: the lone </mm:think>", () => {
  const tools = [{ name: "f", parameters: { type: "object", properties: { a: { type: "string" } } } }];
  const calls = turn([invoke("f", el("a", "x"))], "");

  it("a turn without reasoning starts with it, in every mode but required; the parser reads it as no reasoning", () => {
    for (const reasoning of ["none", "optional"] as const) {
      const g = compileTools(tools, { format: FORMAT, reasoning });
      expect(g.accepts(`</mm:think>${calls}`), reasoning).toBe(true);
      expect(g.accepts(calls), reasoning).toBe(false);
      const r = parseToolCalls(`</mm:think>${calls}`, { format: FORMAT, tools, mode: "strict", reasoning });
      expect([codes(r), r.reasoning, r.content, r.calls.length], reasoning).toEqual([[], undefined, "", 1]);
    }
    expect(compileTools(tools, { format: FORMAT, reasoning: "required" }).accepts(`</mm:think>${calls}`)).toBe(false);
    expect(
      compileTools(tools, { format: FORMAT, reasoning: "required" }).accepts(`<mm:think>r</mm:think>${calls}`),
    ).toBe(true);
  });

  it("its absence is REASONING_MISSING; the calls are still read", () => {
    const r = parseToolCalls(calls, { format: FORMAT, tools, mode: "tolerant" });
    expect(codes(r)).toEqual(["REASONING_MISSING"]);
    expect(r.calls.map((c) => c.arguments)).toEqual([{ a: "x" }]);
  });

  it("renderToolCalls writes it before a turn without reasoning, and the block with reasoning", () => {
    expect(renderToolCalls([{ name: "f", arguments: { a: "x" } }], FORMAT)).toBe(`</mm:think>${calls}`);
    expect(renderToolCalls([{ name: "f", arguments: { a: "x" } }], FORMAT, { reasoning: "r" })).toBe(
      `<mm:think>r</mm:think>${calls}`,
    );
  });
});

describe("minimax-m3: tolerant reading of a closing tag written without the prefix", () => {
  it("`P<k>V</k>` is read as the element (UNPREFIXED_CLOSING_TAG), strictly refused; a string holding `</k>` itself stays one", () => {
    const text = `</mm:think>I will search.${turn([invoke("search", `${P}<query>AI news</query>${P}<limit>6</limit>`)], "")}`;
    const r = parseToolCalls(text, { format: FORMAT, mode: "tolerant", reasoning: "none" });
    expect(r.calls.map((c) => c.arguments)).toEqual([{ query: "AI news", limit: 6 }]);
    expect(codes(r)).toEqual(["UNPREFIXED_CLOSING_TAG"]);
    expect(r.content).toBe("I will search.");
    expect(parseToolCalls(text, { format: FORMAT, mode: "strict", reasoning: "none" }).dropped).toBe(1);
    const held = turn([invoke("f", el("s", "a</s>b"))]);
    const s = parseToolCalls(held, {
      format: FORMAT,
      mode: "strict",
      tools: [{ name: "f", parameters: { type: "object", properties: { s: { type: "string" } } } }],
    });
    expect([codes(s), s.calls.map((c) => c.arguments)]).toEqual([[], [{ s: "a</s>b" }]]);
  });
});
