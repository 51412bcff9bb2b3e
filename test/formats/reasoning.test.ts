/**
 * Reasoning before the calls, for every described format: the grammar's texts parse strictly into the reasoning and
 * valid calls with zero issues and re-render into the language; regex and matcher agree with accepts(); the stream
 * equals the batch at random chunkings; the parser's reasoning issues; the constrained-text automaton against a
 * direct definition.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compileTools, type ToolCompileOptions } from "../../src/compile.js";
import { constrainedText, type TextConstraint } from "../../src/envelope/constrainedText.js";
import { FORMAT_DESCRIPTIONS, FORMAT_NAMES } from "../../src/formats/descriptions.js";
import type { FormatName } from "../../src/formats/FormatName.js";
import { contentBeforeCalls } from "../../src/formats/layoutText.js";
import type { ReasoningOptions } from "../../src/formats/resolveReasoning.js";
import { createAcceptor } from "../../src/grammar/accepts.js";
import { parseToolCalls } from "../../src/parser/parseToolCalls.js";
import { renderToolCalls } from "../../src/parser/renderToolCalls.js";
import { ToolCallStream } from "../../src/parser/ToolCallStream.js";
import type { StreamEvent } from "../../src/parser/types.js";
import { mutateText, sampleGrammar } from "../../src/testing/sampleGrammar.js";
import { seededRandom } from "../../src/util/seededRandom.js";
import { Vocabulary } from "../../src/vocab/Vocabulary.js";
import { SMALL_TOOLS } from "../support/envelope/formatTools.js";
import { chunked, SEED } from "../support/parser/arbitraries.js";
import { tierRotate } from "../support/tier.js";

const THINK = { open: "<think>\n", close: "\n</think>\n\n" };
/** A generation prompt that opened the block: the turn starts inside it. */
const PROMPT_OPENED = { open: "", close: "</think>" };

/** The reasoning settings each format is checked under (its own markers when it has them). */
function settings(format: FormatName): { label: string; options: ToolCompileOptions & ReasoningOptions }[] {
  const own = FORMAT_DESCRIPTIONS[format].reasoning ?? THINK;
  // a block the family's prompt opens (OLMo 3 Think's `<think>`) cannot be optional: the model may open it itself
  const markers = { open: own.open === "" ? "<think>" : own.open, close: own.close };
  return [
    { label: "optional", options: { reasoning: "optional", reasoningMarkers: markers, parallel: 2 } },
    {
      label: "required + toolChoice required",
      options: { reasoning: "required", reasoningMarkers: markers, toolChoice: "required", parallel: 2 },
    },
    {
      label: "required, opened by the prompt",
      options: { reasoning: "required", reasoningMarkers: PROMPT_OPENED, parallel: 2 },
    },
  ];
}

/** The parser's content holds the separators between and after blocks too: the text before the first call is the rest. */
function textBeforeCalls(format: FormatName, content: string, calls: number): string {
  return contentBeforeCalls(FORMAT_DESCRIPTIONS[format], content, calls);
}

const parseOptionsOf = (o: ToolCompileOptions) => ({ reasoning: o.reasoning, reasoningMarkers: o.reasoningMarkers });

const ALPHABET = [
  "<",
  ">",
  "/",
  "\n",
  " ",
  "{",
  "}",
  "[",
  "]",
  '"',
  "a",
  "<think>",
  "</think>",
  "<think>\n",
  "\n</think>\n\n",
  "<tool_call>",
  "</tool_call>",
  "[TOOL_CALLS]",
  "<|python_tag|>",
];

describe("reasoning: grammar → strict parse → render, for every format", () => {
  // the quick tier checks 1 of the 3 settings per format, rotating (the long tier all)
  for (const [formatIndex, format] of FORMAT_NAMES.entries()) {
    for (const { label, options } of tierRotate(settings(format), formatIndex, 4)) {
      it(`${format}, ${label} (seed ${SEED})`, () => {
        const g = compileTools(SMALL_TOOLS, { format, ...options });
        expect(g.reasoning?.mode).toBe(options.reasoning);
        const random = seededRandom(SEED);
        const problems: string[] = [];
        let withReasoning = 0;
        let withCalls = 0;
        for (let k = 0; k < 40; k++) {
          const text = sampleGrammar(g.grammar, random, { maxLength: 600 });
          if (text === undefined) continue;
          expect(g.accepts(text)).toBe(true);
          const r = parseToolCalls(text, { tools: SMALL_TOOLS, format, mode: "strict", ...parseOptionsOf(options) });
          if (r.issues.length > 0 || r.dropped > 0 || !r.calls.every((c) => c.valid)) {
            problems.push(`${JSON.stringify(r.issues.map((i) => i.code))} :: ${JSON.stringify(text)}`);
            continue;
          }
          if (options.reasoning === "required") expect(r.reasoning).toBeDefined();
          if (r.reasoning !== undefined) withReasoning++;
          if (r.calls.length > 0) withCalls++;
          if (options.toolChoice === "required") expect(r.calls.length).toBeGreaterThan(0);
          const calls = r.calls.map((c) => ({
            name: c.name,
            arguments: c.arguments,
            ...(c.id !== undefined ? { id: c.id } : {}),
          }));
          const again = renderToolCalls(calls, format, {
            ...(r.reasoning !== undefined ? { reasoning: r.reasoning } : {}),
            reasoningMarkers: options.reasoningMarkers!,
            content: textBeforeCalls(format, r.content, calls.length),
          });
          if (!g.accepts(again)) {
            problems.push(`re-rendered text rejected :: ${JSON.stringify(again)}`);
            continue;
          }
          const back = parseToolCalls(again, {
            tools: SMALL_TOOLS,
            format,
            mode: "strict",
            ...parseOptionsOf(options),
          });
          expect(back.issues).toEqual([]);
          expect(back.reasoning).toBe(r.reasoning);
          expect(back.content).toBe(r.content);
          expect(back.calls.map((c) => [c.name, c.arguments])).toEqual(r.calls.map((c) => [c.name, c.arguments]));
        }
        expect(problems).toEqual([]);
        expect(withReasoning).toBeGreaterThan(5);
        expect(withCalls).toBeGreaterThan(1);
      });
    }
  }
});

describe("reasoning: regex, matcher and stream agree with accepts() / the batch", () => {
  const vocab = Vocabulary.fromPieces(
    Array.from({ length: 256 }, (_, b) => Uint8Array.of(b)),
    { eosTokenIds: [] },
  );
  const enc = new TextEncoder();
  // the quick tier checks 1 of the 3 settings per format, rotating, another one than above (the long tier all)
  for (const [formatIndex, format] of FORMAT_NAMES.entries()) {
    for (const { label, options } of tierRotate(settings(format), formatIndex + 1, 4)) {
      it(`${format}, ${label} (seed ${SEED})`, () => {
        const g = compileTools(SMALL_TOOLS, { format, ...options });
        const re = new RegExp(`^(?:${g.toRegex()})$`, "u");
        const random = seededRandom(SEED + 1);
        let accepted = 0;
        let total = 0;
        for (let k = 0; k < 15; k++) {
          const s = sampleGrammar(g.grammar, random, { maxLength: 300 });
          if (s === undefined) continue;
          for (const text of [
            s,
            ...Array.from({ length: 4 }, () => mutateText(s, ALPHABET, random, 1 + Math.floor(random() * 2))),
          ]) {
            total++;
            const want = g.accepts(text);
            if (want) accepted++;
            expect(re.test(text), JSON.stringify(text)).toBe(want);
            const m = g.createMatcher(vocab);
            // bytes only: markers that are special tokens are accepted as their text ("token-or-text")
            expect([...enc.encode(text)].every((b) => m.acceptToken(b)) && m.isCompleted(), JSON.stringify(text)).toBe(
              want,
            );
            // the stream equals the batch at a random chunking, and the reasoning deltas make up the reasoning
            const po = {
              tools: SMALL_TOOLS,
              format,
              mode: want ? ("strict" as const) : ("tolerant" as const),
              ...parseOptionsOf(options),
            };
            const batch = parseToolCalls(text, po);
            const stream = new ToolCallStream(po);
            const events: StreamEvent[] = [];
            for (const c of chunked(
              text,
              Array.from({ length: 4 }, () => Math.floor(random() * 1000)),
            ))
              events.push(...stream.push(c));
            events.push(...stream.flush());
            expect(stream.end()).toEqual(batch);
            expect(events.flatMap((e) => (e.type === "reasoning" ? [e.delta] : [])).join("")).toBe(
              batch.reasoning ?? "",
            );
            for (const c of batch.calls) expect(text.slice(c.span[0], c.span[1])).toBe(c.raw);
          }
        }
        expect(accepted).toBeGreaterThan(10);
        expect(accepted).toBeLessThan(total);
      });
    }
  }
});

describe("reasoning in the parser", () => {
  const call = renderToolCalls([{ name: "get_weather", arguments: { city: "Paris" } }], "qwen3");
  const opts = { tools: SMALL_TOOLS, reasoning: "optional" as const };

  it("returns the reasoning apart from the content, with spans in the whole text", () => {
    const text = `<think>\nLet me see.\n</think>\n\nSure. ${call}`;
    const r = parseToolCalls(text, { ...opts, mode: "strict" });
    expect(r.reasoning).toBe("Let me see.");
    expect(r.content).toBe("Sure. ");
    expect(r.issues).toEqual([]);
    expect(text.slice(...r.calls[0].span)).toBe(call);
    expect(
      renderToolCalls([{ name: "get_weather", arguments: { city: "Paris" } }], "qwen3", {
        reasoning: "Let me see.",
        content: "Sure. ",
      }),
    ).toBe(text);
  });

  it("a call inside the reasoning is not a call, and says so", () => {
    const text = `<think>\nmaybe ${call}\n</think>\n\n${call}`;
    for (const mode of ["strict", "tolerant"] as const) {
      const r = parseToolCalls(text, { ...opts, mode });
      expect(r.calls).toHaveLength(1);
      expect(r.calls[0].span[0]).toBe(text.lastIndexOf(call));
      const issue = r.issues.find((i) => i.code === "CALL_IN_REASONING");
      expect(issue?.span && text.slice(...issue.span)).toBe("<tool_call>");
    }
    expect(compileTools(SMALL_TOOLS, { reasoning: "optional" }).accepts(text)).toBe(false);
  });

  it("an unclosed block is all reasoning; a missing required block is an issue", () => {
    const open = parseToolCalls(`<think>\nstill thinking ${call}`, { ...opts, mode: "tolerant" });
    expect(open.reasoning).toBe(`still thinking ${call}`);
    expect(open.calls).toEqual([]);
    expect(open.issues.map((i) => i.code)).toEqual(["REASONING_UNCLOSED", "CALL_IN_REASONING"]);
    const missing = parseToolCalls(call, { tools: SMALL_TOOLS, reasoning: "required", mode: "strict" });
    expect(missing.issues.map((i) => i.code)).toEqual(["REASONING_MISSING"]);
    expect(missing.calls).toHaveLength(1);
    expect(missing.reasoning).toBeUndefined();
  });

  it("without reasoning options nothing changes", () => {
    const text = `<think>\nx\n</think>\n\n${call}`;
    const r = parseToolCalls(text, { tools: SMALL_TOOLS, mode: "strict" });
    expect(r.reasoning).toBeUndefined();
    expect(r.content).toBe("<think>\nx\n</think>\n\n");
  });

  it("bad reasoning options are INVALID_OPTION", () => {
    for (const o of [
      { reasoning: "maybe" },
      { reasoning: "optional", reasoningMarkers: { open: "", close: "</think>" } },
      { reasoning: "optional", reasoningMarkers: { open: "<think>", close: "" } },
      { format: "mistral", reasoning: "optional" },
    ] as ToolCompileOptions[]) {
      expect(() => compileTools(SMALL_TOOLS, o)).toThrow(expect.objectContaining({ code: "INVALID_OPTION" }));
    }
  });
});

describe("constrainedText", () => {
  const piece = fc.constantFrom(
    "<",
    "/",
    "t",
    "k",
    ">",
    "\n",
    "a",
    "<think>",
    "</think>",
    "\n</think>\n\n",
    "<tool_call>",
    " ",
    "é",
  );
  const texts = fc.array(piece, { maxLength: 8 }).map((a) => a.join(""));
  const cases: TextConstraint[] = [
    { avoid: ["<tool_call>"], before: "\n</think>\n\n" },
    { avoid: [], before: "</think>" },
    { avoid: ["<tool_call>"], notStartingWith: ["<think>\n"] },
    { avoid: [], notStartingWith: ["<think>", "<|python_tag|>"], notStartingWithChars: [0x20, 0x20, 0x5b, 0x5b] },
    { avoid: ["aa", "a<"], before: "<a" },
  ];
  const direct = (c: TextConstraint, s: string): boolean => {
    const all = [...c.avoid, ...(c.before !== undefined ? [c.before] : [])].filter((m) => m !== "");
    if (all.some((m) => s.includes(m))) return false;
    if ((c.notStartingWith ?? []).some((p) => p !== "" && s.startsWith(p))) return false;
    const r = c.notStartingWithChars ?? [];
    const first = s.codePointAt(0);
    for (let i = 0; first !== undefined && i < r.length; i += 2) if (first >= r[i] && first <= r[i + 1]) return false;
    if (c.before !== undefined && (s + c.before).indexOf(c.before) !== s.length) return false;
    return true;
  };
  for (const c of cases) {
    it(`${JSON.stringify(c)} (seed ${SEED})`, () => {
      const acceptor = createAcceptor({ rules: new Map([["root", constrainedText(c)]]), root: "root" });
      fc.assert(
        fc.property(texts, (s) => {
          expect(acceptor.accepts(s)).toBe(direct(c, s));
        }),
        { seed: SEED, numRuns: 400 },
      );
    });
  }
});

describe("toolChoice allowed", () => {
  it("compiles calls of the allowed tools only", () => {
    const g = compileTools(SMALL_TOOLS, { toolChoice: { allowed: ["ping"] } });
    const ping = renderToolCalls([{ name: "ping", arguments: {} }], "qwen3");
    const weather = renderToolCalls([{ name: "get_weather", arguments: { city: "Paris" } }], "qwen3");
    expect(g.accepts(ping)).toBe(true);
    expect(g.accepts("just text")).toBe(true);
    expect(g.accepts(weather)).toBe(false);
    const req = compileTools(SMALL_TOOLS, { toolChoice: { allowed: ["ping"], mode: "required" } });
    expect(req.accepts("just text")).toBe(false);
    expect(req.accepts(ping)).toBe(true);
    expect(() => compileTools(SMALL_TOOLS, { toolChoice: { allowed: ["ping", "nope"] } })).toThrow(/"nope"/);
  });
});
