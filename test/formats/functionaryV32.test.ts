import { readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { OUTPUTS_DIR, type ChatOutputCase } from "../../scripts/extract-chat-outputs.js";
import { compileTools } from "../../src/compile.js";
import { canonicalJson, type JsonObject } from "../../src/json.js";
import { parseToolCalls } from "../../src/parser/parseToolCalls.js";
import { renderToolCalls } from "../../src/parser/renderToolCalls.js";
import { ToolCallStream } from "../../src/parser/ToolCallStream.js";
import { ChatTemplate } from "../../src/templates/renderTemplate.js";
import { llamaCppSource, type LlamaCppSource } from "../../src/testing/llamaCppSource.js";

/**
 * Functionary v3.2's turn of messages (`>>>RECIPIENT\n…`, text to `all`, the first `>>>` in the generation prompt):
 * the recipient, not a fixed marker, tells text from a call. The generic format suites cover it through FORMAT_NAMES;
 * these pin text before calls as the template itself writes it, and llama.cpp's own cases.
 */
const TOOLS = [
  { name: "get_weather", parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] } },
  { name: "ping", parameters: { type: "object", properties: {} } },
];
const CALLS: { name: string; arguments: JsonObject }[] = [
  { name: "get_weather", arguments: { city: "Paris" } },
  { name: "ping", arguments: {} },
];
const FORMAT = "functionary-v3.2";

describe("functionary-v3.2", () => {
  let src: LlamaCppSource | undefined;
  beforeAll(async () => {
    src = await llamaCppSource();
  }, 300_000);

  it("the template's own turn of text then two calls: accepted, parsed strictly, rendered back byte for byte", ({
    skip,
  }) => {
    if (src === undefined) skip();
    const t = new ChatTemplate(
      readFileSync(
        join((src as LlamaCppSource).dir, "models", "templates", "meetkai-functionary-medium-v3.2.jinja"),
        "utf8",
      ),
    );
    const user = { role: "user" as const, content: "Weather in Paris?" };
    const toolCalls = CALLS.map((c, i) => ({
      id: `c${i}`,
      type: "function" as const,
      function: { name: c.name, arguments: canonicalJson(c.arguments) },
    }));
    const prompt = t.render({
      messages: [user],
      tools: TOOLS.map((x) => ({ type: "function", function: x })),
      addGenerationPrompt: true,
    });
    const whole = t.render({
      messages: [user, { role: "assistant", content: "Let me check.", tool_calls: toolCalls }],
      tools: TOOLS.map((x) => ({ type: "function", function: x })),
      addGenerationPrompt: false,
    });
    expect(prompt.endsWith(">>>")).toBe(true);
    // the render up to the turn's end, after the generation prompt (which wrote the first `>>>`)
    expect(whole.startsWith(prompt.slice(0, -3))).toBe(true);
    const text = whole.slice(prompt.length).replace(/<\|eot_id\|>$/, "");
    expect(text).toBe('all\nLet me check.>>>get_weather\n{"city": "Paris"}>>>ping\n{}');
    expect(compileTools(TOOLS, { format: FORMAT }).accepts(text)).toBe(true);
    const r = parseToolCalls(text, { tools: TOOLS, format: FORMAT, mode: "strict" });
    expect(r.issues).toEqual([]);
    expect(r.content).toBe("Let me check.");
    expect(r.calls.map((c) => ({ name: c.name, arguments: c.arguments }))).toEqual(CALLS);
    expect(renderToolCalls(CALLS, FORMAT, { content: "Let me check." })).toBe(text);
  });

  it("llama.cpp's test cases: text to `all` is content, a message to a tool is its call", () => {
    const fixture = JSON.parse(readFileSync(join(OUTPUTS_DIR, "meetkai-functionary-medium-v3.2.json"), "utf8")) as {
      cases: ChatOutputCase[];
    };
    // the continuation case continues a prefilled message: not a turn from its start
    const cases = fixture.cases.filter((c) => !("continue_final_message" in c.settings));
    expect(cases.length).toBe(2);
    for (const c of cases) {
      const r = parseToolCalls(c.text, { format: "functionary_v3_2", mode: "strict" });
      expect(r.issues).toEqual([]);
      expect(r.content).toBe(c.expect?.content);
      expect(r.calls.map((x) => ({ name: x.name, arguments: JSON.stringify(x.arguments) }))).toEqual(
        (c.expect?.toolCalls ?? []).map((w) => ({ name: w.name, arguments: JSON.stringify(JSON.parse(w.arguments)) })),
      );
    }
  });

  it("the grammar and strict parsing hold the layout: one non-empty text message first, then calls", () => {
    const g = compileTools(TOOLS, { format: FORMAT });
    const strictIssues = (t: string): string[] =>
      parseToolCalls(t, { tools: TOOLS, format: FORMAT, mode: "strict" }).issues.map((i) => i.code);
    for (const ok of [
      "",
      "all\nHi",
      'get_weather\n{"city": "Paris"}',
      "all\nHi>>>ping\n{}",
      "ping\n{}>>>ping\n{}",
      "all\na>b",
    ]) {
      expect(g.accepts(ok), ok).toBe(true);
      expect(strictIssues(ok), ok).toEqual([]);
    }
    // no recipient, an empty text message, text after a call or a second text message, a text ending in `>` before a
    // call (its `>>>` would open the call a character early), a newline after the last call
    for (const bad of [
      "Hi",
      "all\n",
      "all\n>>>ping\n{}",
      "ping\n{}>>>all\nHi",
      "all\nA>>>all\nB",
      "all\nHi>>>>ping\n{}",
      "ping\n{}\n",
      ">>>ping\n{}",
    ]) {
      expect(g.accepts(bad), bad).toBe(false);
      expect(strictIssues(bad).length, bad).toBeGreaterThan(0);
    }
    expect(strictIssues("all\n>>>ping\n{}")).toContain("MESSAGE_LAYOUT");
  });

  it("tolerant reading: a reply without a recipient is text, never a failed call (no text is lost)", () => {
    for (const text of ["Hello there", "Hello\nworld", 'Sure thing:\n{"a": 1}', "ping", "x\n"]) {
      for (const mode of ["tolerant", "strict"] as const) {
        const r = parseToolCalls(text, { tools: TOOLS, format: FORMAT, mode });
        expect(r.calls, `${mode} ${text}`).toEqual([]);
        expect(r.dropped).toBe(0);
        expect(r.content).toBe(text);
        // strict mode names the layout the grammar never writes
        expect(r.issues.map((i) => i.code)).toEqual(mode === "strict" ? ["MESSAGE_LAYOUT"] : []);
      }
    }
    // a recipient closed by its newline and followed by arguments is still the call, as is text sent to `all`
    expect(parseToolCalls("ping\n {}", { format: FORMAT }).calls.map((c) => c.name)).toEqual(["ping"]);
    expect(parseToolCalls("all\nHi", { format: FORMAT }).content).toBe("Hi");
  });

  it("tolerant reading: a later message without a recipient is text too, with an issue; one written as a call to an undeclared tool stays a call", () => {
    const tolerant = (text: string) => parseToolCalls(text, { tools: TOOLS, format: FORMAT, mode: "tolerant" });
    // after a call, and between two calls: the message's text is content, the `>>>` that opened it is not
    for (const [text, content, calls] of [
      ["ping\n{}>>>Hello there", "Hello there", ["ping"]],
      ['ping\n{}>>>Hello there>>>get_weather\n{"city": "Paris"}', "Hello there", ["ping", "get_weather"]],
      ['all\nLet me check.>>>ping\n{}>>>Done, see:\n{"a": 1}', 'Let me check.Done, see:\n{"a": 1}', ["ping"]],
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
    // the issue names what the message starts with and spans its `>>>` up to where the text stopped reading as a call
    const issue = tolerant("ping\n{}>>>Hello there").issues[0];
    expect(issue.message).toContain('"Hello "');
    expect(issue.span).toEqual([7, 16]);
    // a message written as a call (NAME, newline, `{`) to an undeclared tool is that call, not text
    const unknown = tolerant('ping\n{}>>>send_mail\n{"to": "x"}');
    expect(unknown.calls.map((c) => [c.name, c.valid])).toEqual([
      ["ping", true],
      ["send_mail", false],
    ]);
    expect(unknown.issues.map((i) => i.code)).toEqual(["UNKNOWN_TOOL"]);
    expect(unknown.content).toBe("");
    // the rule reads the layout, not the tool list: `Done:` then a newline and `{` is written as a call to `Done:`
    expect(tolerant('ping\n{}>>>Done:\n{"a": 1}').issues.map((i) => i.code)).toEqual(["UNKNOWN_TOOL"]);
    // strict mode is unchanged: the grammar never writes such a message
    expect(parseToolCalls("ping\n{}>>>Hello there", { tools: TOOLS, format: FORMAT, mode: "strict" }).dropped).toBe(1);
  });

  it("streams a later text message at every cut as the whole text (tolerant)", () => {
    for (const text of [
      'ping\n{}>>>Hello there>>>get_weather\n{"city": "Paris"}',
      "ping\n{}>>>ping",
      'all\nA>>>send_mail\n{"to": "x"}>>>x y',
    ]) {
      const batch = parseToolCalls(text, { tools: TOOLS, format: FORMAT });
      for (let cut = 0; cut <= text.length; cut++) {
        for (let cut2 = cut; cut2 <= text.length; cut2 += 3) {
          const s = new ToolCallStream({ tools: TOOLS, format: FORMAT });
          s.push(text.slice(0, cut));
          s.push(text.slice(cut, cut2));
          s.push(text.slice(cut2));
          expect(s.end(), `${cut} ${cut2} ${text}`).toEqual(batch);
        }
      }
    }
  });

  it("a required call may follow text; no free text leaves the calls alone", () => {
    const required = compileTools(TOOLS, { format: FORMAT, toolChoice: "required", freeText: true });
    expect(required.accepts("all\nHi>>>ping\n{}")).toBe(true);
    expect(required.accepts("all\nHi")).toBe(false);
    const calls = compileTools(TOOLS, { format: FORMAT, toolChoice: "required", freeText: false });
    expect(calls.accepts("ping\n{}")).toBe(true);
    expect(calls.accepts("all\nHi>>>ping\n{}")).toBe(false);
  });

  it("refuses a tool named as text's recipient, and text that would open a message", () => {
    expect(() => compileTools([{ name: "all", parameters: { type: "object" } }], { format: FORMAT })).toThrow(/all/);
    expect(() => renderToolCalls([{ name: "all", arguments: {} }], FORMAT)).toThrow();
    expect(() => renderToolCalls(CALLS, FORMAT, { content: "a>>>b" })).toThrow(/>>>/);
    expect(() => renderToolCalls(CALLS, FORMAT, { content: "a>" })).toThrow(/>>>/);
    expect(renderToolCalls([], FORMAT, { content: "a>" })).toBe("all\na>");
    // with an optional reasoning block, a call starting like its opening would read as reasoning
    const reasoning = {
      reasoning: "optional" as const,
      reasoningMarkers: { open: "<think>\n", close: "\n</think>\n\n" },
    };
    expect(() =>
      compileTools([{ name: "<think>", parameters: { type: "object" } }], { format: FORMAT, ...reasoning }),
    ).toThrow(/reasoning/);
    const g = compileTools(TOOLS, { format: FORMAT, ...reasoning });
    const turn = renderToolCalls(CALLS, FORMAT, {
      reasoning: "R",
      reasoningMarkers: reasoning.reasoningMarkers,
      content: "Hi",
    });
    expect(turn).toBe('<think>\nR\n</think>\n\nall\nHi>>>get_weather\n{"city": "Paris"}>>>ping\n{}');
    expect(g.accepts(turn)).toBe(true);
    expect(parseToolCalls(turn, { tools: TOOLS, format: FORMAT, mode: "strict", ...reasoning }).issues).toEqual([]);
  });

  it("streams the recipient's decision across chunks as the whole text", () => {
    const text = 'all\nHi>>>get_weather\n{"city": "Paris"}>>>ping\n{}';
    const batch = parseToolCalls(text, { format: FORMAT, mode: "strict" });
    for (let cut = 0; cut <= text.length; cut++) {
      const s = new ToolCallStream({ format: FORMAT, mode: "strict" });
      s.push(text.slice(0, cut));
      s.push(text.slice(cut));
      expect(s.end(), String(cut)).toEqual(batch);
    }
  });
});
