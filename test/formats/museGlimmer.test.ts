import { readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { OUTPUTS_DIR, type ChatOutputCase } from "../../scripts/extract-chat-outputs.js";
import { compileTools } from "../../src/compile.js";
import type { JsonObject } from "../../src/json.js";
import { parseToolCalls } from "../../src/parser/parseToolCalls.js";
import { renderToolCalls } from "../../src/parser/renderToolCalls.js";
import { ToolCallStream } from "../../src/parser/ToolCallStream.js";
import { ChatTemplate } from "../../src/templates/renderTemplate.js";
import { llamaCppSource, type LlamaCppSource } from "../../src/testing/llamaCppSource.js";

/**
 * Muse Glimmer's turn of messages (` to=RECIPIENT<|message|>…`, joined by `<|eom|><|start|>assistant`): reasoning to
 * `self`, text to `user`, each call a message to its tool naming it again in `<atem:invoke name="…">`. The generic
 * format suites cover it through FORMAT_NAMES; these pin the template's own turns with typed values and a call
 * without arguments, and llama.cpp's cases (text before a call, markup quoted in text or in the reasoning).
 */
const FORMAT = "muse-glimmer";
const TOOLS = [
  {
    name: "plan_trip",
    parameters: {
      type: "object",
      properties: {
        city: { type: "string" },
        days: { type: "integer" },
        budget: { type: "number" },
        stops: { type: "array", items: { type: "string" } },
        options: { type: "object" },
        pet: { type: "null" },
        fast: { type: "boolean" },
      },
      required: ["city"],
    },
  },
  { name: "ping", parameters: { type: "object", properties: {} } },
];
const CALLS: { name: string; arguments: JsonObject }[] = [
  {
    name: "plan_trip",
    arguments: {
      city: 'Zürich "old" town\nline two',
      days: 3,
      budget: 12.5,
      stops: ["Lake", "Museum"],
      options: { pace: { slow: true }, list: [1, -2] },
      pet: null,
      fast: false,
    },
  },
  { name: "ping", arguments: {} },
];

const issues = (text: string, options: object = {}): string[] =>
  parseToolCalls(text, { tools: TOOLS, format: FORMAT, mode: "strict", ...options }).issues.map((i) => i.code);

describe("muse-glimmer", () => {
  let src: LlamaCppSource | undefined;
  beforeAll(async () => {
    src = await llamaCppSource();
  }, 300_000);

  it("the template's own turn (reasoning, typed values, a call without arguments): accepted, parsed strictly, rendered back byte for byte", ({
    skip,
  }) => {
    if (src === undefined) skip();
    const t = new ChatTemplate(
      readFileSync(join((src as LlamaCppSource).dir, "models", "templates", "muse-glimmer.jinja"), "utf8"),
    );
    const user = { role: "user" as const, content: "Plan it." };
    const tools = TOOLS.map((x) => ({ type: "function", function: x }));
    const toolCalls = CALLS.map((c, i) => ({
      id: `c${i}`,
      type: "function" as const,
      function: { name: c.name, arguments: c.arguments },
    }));
    const prompt = t.render({ messages: [user], tools, addGenerationPrompt: true });
    expect(prompt.endsWith("<|start|>assistant")).toBe(true);
    for (const reasoning of [undefined, "Two calls."]) {
      const assistant = {
        role: "assistant" as const,
        content: null,
        tool_calls: toolCalls,
        ...(reasoning === undefined ? {} : { reasoning_content: reasoning }),
      };
      const whole = t.render({ messages: [user, assistant], tools, addGenerationPrompt: false });
      expect(whole.startsWith(prompt)).toBe(true);
      const text = whole.slice(prompt.length).replace(/<\|eot\|>$/, "");
      const call0 =
        'plan_trip<|message|><atem:function_calls>\n<atem:invoke name="plan_trip">\n<atem:parameter name="city">Zürich "old" town\nline two</atem:parameter>\n' +
        '<atem:parameter name="days">3</atem:parameter>\n<atem:parameter name="budget">12.5</atem:parameter>\n<atem:parameter name="stops">["Lake", "Museum"]</atem:parameter>\n' +
        '<atem:parameter name="options">{"pace": {"slow": true}, "list": [1, -2]}</atem:parameter>\n<atem:parameter name="pet">null</atem:parameter>\n' +
        '<atem:parameter name="fast">false</atem:parameter>\n</atem:invoke>\n</atem:function_calls>';
      const call1 =
        'ping<|message|><atem:function_calls>\n<atem:invoke name="ping">\n</atem:invoke>\n</atem:function_calls>';
      const lead = reasoning === undefined ? " to=" : ` to=self<|message|>${reasoning}<|eom|><|start|>assistant to=`;
      expect(text).toBe(`${lead}${call0}<|eom|><|start|>assistant to=${call1}`);
      expect(compileTools(TOOLS, { format: FORMAT }).accepts(text), text).toBe(true);
      const r = parseToolCalls(text, { tools: TOOLS, format: FORMAT, mode: "strict" });
      expect(r.issues).toEqual([]);
      expect(r.reasoning).toBe(reasoning);
      expect(r.calls.map((c) => ({ name: c.name, arguments: c.arguments }))).toEqual(CALLS);
      expect(renderToolCalls(CALLS, FORMAT, reasoning === undefined ? {} : { reasoning })).toBe(text);
    }
  });

  it("llama.cpp's test cases: text to `user` is content (before a call too), markup in text or reasoning is no call", () => {
    const fixture = JSON.parse(readFileSync(join(OUTPUTS_DIR, "muse-glimmer.json"), "utf8")) as {
      cases: ChatOutputCase[];
    };
    const special = [
      {
        name: "special_function",
        parameters: { type: "object", properties: { arg1: { type: "integer" } }, required: ["arg1"] },
      },
    ];
    expect(fixture.cases.length).toBe(4);
    for (const c of fixture.cases) {
      // the turn's end token ends generation: not part of the reply
      const text = c.text.replace(/<\|eot\|>$/, "");
      for (const mode of ["strict", "tolerant"] as const) {
        const r = parseToolCalls(text, { tools: special, format: FORMAT, mode });
        expect(r.issues, `${mode} line ${c.line}`).toEqual([]);
        expect(r.content).toBe(c.expect?.content);
        expect(r.reasoning ?? "").toBe(c.expect?.reasoning);
        expect(r.calls.map((x) => ({ name: x.name, arguments: x.arguments }))).toEqual(
          (c.expect?.toolCalls ?? []).map((w) => ({ name: w.name, arguments: JSON.parse(w.arguments) as unknown })),
        );
      }
    }
    // the text-then-call turn is the canonical one: the grammar writes it, the renderer too
    const turn =
      ' to=user<|message|>Hello, world!\nWhat\'s up?<|eom|><|start|>assistant to=special_function<|message|><atem:function_calls>\n<atem:invoke name="special_function">\n<atem:parameter name="arg1">1</atem:parameter>\n</atem:invoke>\n</atem:function_calls>';
    expect(compileTools(special, { format: FORMAT }).accepts(turn)).toBe(true);
    expect(
      renderToolCalls([{ name: "special_function", arguments: { arg1: 1 } }], FORMAT, {
        content: "Hello, world!\nWhat's up?",
      }),
    ).toBe(turn);
  });

  it("the grammar and strict parsing hold the layout: reasoning or ` to=` first, one non-empty text message, then calls", () => {
    const g = compileTools(TOOLS, { format: FORMAT });
    const ping =
      'ping<|message|><atem:function_calls>\n<atem:invoke name="ping">\n</atem:invoke>\n</atem:function_calls>';
    const next = "<|eom|><|start|>assistant to=";
    for (const ok of [
      "",
      " to=user<|message|>Hi",
      ` to=${ping}`,
      ` to=user<|message|>Hi${next}${ping}`,
      ` to=${ping}${next}${ping}`,
      ` to=self<|message|>R${next}${ping}`,
      ` to=self<|message|>R${next}user<|message|>Hi`,
    ]) {
      expect(g.accepts(ok), ok).toBe(true);
      expect(issues(ok), ok).toEqual([]);
    }
    // no ` to=`, no recipient, an empty text message, text after a call, a second text message, text after the last
    // call, the call's name differing from its recipient
    const bad = [
      "Hi",
      `${ping}`,
      " to=Hi there",
      " to=user<|message|>",
      ` to=user<|message|>${next}${ping}`,
      ` to=${ping}${next}user<|message|>Hi`,
      ` to=user<|message|>A${next}user<|message|>B`,
      ` to=${ping}\n`,
      ` to=${ping.replace("ping<|message|>", "plan_trip<|message|>")}`,
    ];
    for (const b of bad) {
      expect(g.accepts(b), b).toBe(false);
      expect(issues(b).length, b).toBeGreaterThan(0);
    }
    expect(issues(" to=user<|message|>")).toContain("MESSAGE_LAYOUT");
    // a foreign reasoning block (`reasoningMarkers`) is followed by the turn's ` to=`, which Muse Glimmer's own closing
    // marker already ends with
    const think = { reasoning: "optional" as const, reasoningMarkers: { open: "<think>\n", close: "\n</think>\n\n" } };
    const thought = renderToolCalls([{ name: "ping", arguments: {} }], FORMAT, {
      reasoning: "R",
      reasoningMarkers: think.reasoningMarkers,
      content: "Hi",
    });
    expect(thought).toBe(`<think>\nR\n</think>\n\n to=user<|message|>Hi${next}${ping}`);
    expect(compileTools(TOOLS, { format: FORMAT, ...think }).accepts(thought)).toBe(true);
    expect(issues(thought, think)).toEqual([]);
    expect(renderToolCalls([], FORMAT, { reasoning: "R", content: "Hi" })).toBe(
      " to=self<|message|>R<|eom|><|start|>assistant to=user<|message|>Hi",
    );
    expect(issues("Hi")).toContain("MESSAGE_LAYOUT");
  });

  it("tools named like the text's or the reasoning's recipient are refused; names are written twice", () => {
    expect(() =>
      compileTools([{ name: "user", parameters: { type: "object", properties: {} } }], { format: FORMAT }),
    ).toThrow(/user/);
    expect(() =>
      compileTools([{ name: "self", parameters: { type: "object", properties: {} } }], { format: FORMAT }),
    ).toThrow(/reasoning/);
    // with reasoning required too: after a block, `self<|message|>` opens another one
    expect(() =>
      compileTools([{ name: "self", parameters: { type: "object", properties: {} } }], {
        format: FORMAT,
        reasoning: "required",
      }),
    ).toThrow(/another reasoning message/);
    expect(() => renderToolCalls([{ name: "user", arguments: {} }], FORMAT)).toThrow(/user/);
    expect(() => renderToolCalls(CALLS, FORMAT, { content: "a<|eom|><|start|>assistant to=b" })).toThrow(
      /opens a message/,
    );
  });

  it("several messages to `self` before the answer (llama.cpp reads any number): one reasoning, their texts joined by a newline", () => {
    const next = "<|eom|><|start|>assistant to=";
    const call = renderToolCalls([CALLS[1]], FORMAT).slice(" to=".length);
    const text = ` to=self<|message|>First, the city.${next}self<|message|>Then <atem:invoke name="ping"> the server.${next}user<|message|>Pinging.${next}${call}`;
    for (const reasoning of ["optional", "required"] as const) {
      const g = compileTools(TOOLS, { format: FORMAT, reasoning });
      expect(g.accepts(text)).toBe(true);
      const r = parseToolCalls(text, { tools: TOOLS, format: FORMAT, mode: "strict", reasoning });
      expect(r.issues).toEqual([]);
      expect(r.reasoning).toBe('First, the city.\nThen <atem:invoke name="ping"> the server.');
      expect(r.content).toBe("Pinging.");
      expect(r.calls.map((c) => c.name)).toEqual(["ping"]);
      // written back as one message to `self`, which the grammar accepts and reads back the same
      const again = renderToolCalls(
        r.calls.map((c) => ({ name: c.name, arguments: c.arguments })),
        FORMAT,
        { reasoning: r.reasoning as string, content: r.content },
      );
      expect(again).toBe(
        ` to=self<|message|>First, the city.\nThen <atem:invoke name="ping"> the server.${next}user<|message|>Pinging.${next}${call}`,
      );
      expect(g.accepts(again)).toBe(true);
    }
    // three blocks, then the calls alone
    const three = ` to=self<|message|>a${next}self<|message|>b${next}self<|message|>c${next}${call}`;
    expect(parseToolCalls(three, { tools: TOOLS, format: FORMAT, mode: "strict" }).reasoning).toBe("a\nb\nc");
    expect(compileTools(TOOLS, { format: FORMAT, toolChoice: "required" }).accepts(three)).toBe(true);
    // another message to `self` after the answer's first message is not reasoning (MESSAGE_NOT_A_CALL, below)
    expect(
      parseToolCalls(` to=user<|message|>Hi${next}self<|message|>x`, { tools: TOOLS, format: FORMAT }).reasoning,
    ).toBeUndefined();
    // with other markers the turn holds one block
    expect(
      compileTools(TOOLS, {
        format: FORMAT,
        reasoningMarkers: { open: " to=think<|message|>", close: "<|eom|><|start|>assistant to=" },
      }).reasoning?.again,
    ).toBeUndefined();
    expect(compileTools(TOOLS, { format: FORMAT }).reasoning?.again).toBe("self<|message|>");
    // the stream reads the blocks as the batch does, at every chunk size
    for (const size of [1, 2, 3, 7]) {
      const st = new ToolCallStream({ tools: TOOLS, format: FORMAT, mode: "strict" });
      let streamed = "";
      for (let i = 0; i < text.length; i += size)
        for (const e of st.push(text.slice(i, i + size))) if (e.type === "reasoning") streamed += e.delta;
      const end = st.end();
      expect(end).toEqual(parseToolCalls(text, { tools: TOOLS, format: FORMAT, mode: "strict" }));
      expect(streamed).toBe(end.reasoning);
    }
  });

  it("tolerant reading: a recipient other than the invoked tool, a turn without ` to=`, text without a recipient", () => {
    const tolerant = (text: string) => parseToolCalls(text, { tools: TOOLS, format: FORMAT, mode: "tolerant" });
    const mismatch = tolerant(
      ' to=plan<|message|><atem:function_calls>\n<atem:invoke name="ping">\n</atem:invoke>\n</atem:function_calls>',
    );
    expect(mismatch.calls.map((c) => c.name)).toEqual(["ping"]);
    expect(mismatch.issues.map((i) => i.code)).toEqual(["RECIPIENT_MISMATCH"]);
    // llama.cpp's parser takes a reply without ` to=user` too: it is text, never a lost call
    for (const text of ["<|message|>Hello", "Hello there", "Hello<|message|> world", "x<|message|>not a call"]) {
      const r = tolerant(text);
      expect(r.calls).toEqual([]);
      expect(r.dropped).toBe(0);
      expect(r.content).toBe(text);
    }
  });

  it("tolerant reading: a later message to no tool (a second ` to=self`, ` to=Hi there`) is text with an issue; one written as a call to an undeclared tool stays a call", () => {
    const tolerant = (text: string) => parseToolCalls(text, { tools: TOOLS, format: FORMAT, mode: "tolerant" });
    const ping =
      'ping<|message|><atem:function_calls>\n<atem:invoke name="ping">\n</atem:invoke>\n</atem:function_calls>';
    const next = "<|eom|><|start|>assistant to=";
    // after a call, and between two calls: the message (recipient included) is content, the marker that opened it is not
    for (const [text, content, calls] of [
      [` to=${ping}${next}self<|message|>more thought`, "self<|message|>more thought", ["ping"]],
      [` to=${ping}${next}self<|message|>more thought${next}${ping}`, "self<|message|>more thought", ["ping", "ping"]],
      [` to=user<|message|>Hi${next}${ping}${next}Hi there${next}${ping}`, "HiHi there", ["ping", "ping"]],
    ] as const) {
      const r = tolerant(text);
      expect(
        r.calls.map((c) => c.name),
        text,
      ).toEqual(calls);
      expect(r.dropped, text).toBe(0);
      expect(r.content, text).toBe(content);
      expect(
        r.issues.map((i) => i.code),
        text,
      ).toEqual(["MESSAGE_NOT_A_CALL"]);
    }
    expect(tolerant(` to=${ping}${next}self<|message|>more thought`).issues[0].message).toContain('"self<|message|>m"');
    // a message written as a call (RECIPIENT<|message|><atem:…) to an undeclared tool is that call, not text
    const unknown = tolerant(` to=${ping}${next}${ping.replaceAll("ping", "send_mail")}`);
    expect(unknown.calls.map((c) => [c.name, c.valid])).toEqual([
      ["ping", true],
      ["send_mail", false],
    ]);
    expect(unknown.issues.map((i) => i.code)).toEqual(["UNKNOWN_TOOL"]);
    // strict mode is unchanged: the grammar never writes such a message
    expect(
      parseToolCalls(` to=${ping}${next}self<|message|>more thought`, { tools: TOOLS, format: FORMAT, mode: "strict" })
        .dropped,
    ).toBe(1);
  });

  it("streams the turn at every chunk size as the batch reads it", () => {
    const texts = [
      renderToolCalls(CALLS, FORMAT, { content: "Let me plan.", reasoning: "Think <atem:invoke> first." }),
      renderToolCalls(CALLS, FORMAT),
      " to=user<|message|>Just text",
      "Hello there",
      " to=plan<|message|>",
      `${renderToolCalls(CALLS, FORMAT)}<|eom|><|start|>assistant to=self<|message|>more${renderToolCalls(CALLS, FORMAT).slice(4)}`,
    ];
    for (const text of texts) {
      for (const mode of ["strict", "tolerant"] as const) {
        const batch = parseToolCalls(text, { tools: TOOLS, format: FORMAT, mode });
        for (const size of [1, 2, 3, 5, 8, 13]) {
          const s = new ToolCallStream({ tools: TOOLS, format: FORMAT, mode });
          for (let i = 0; i < text.length; i += size) s.push(text.slice(i, i + size));
          expect(s.end(), `${mode} ${size} ${JSON.stringify(text)}`).toEqual(batch);
        }
      }
    }
  });
});
