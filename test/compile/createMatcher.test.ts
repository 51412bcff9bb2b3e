import { describe, expect, it } from "vitest";
import { compileTools } from "../../src/compile.js";
import { Vocabulary } from "../../src/vocab/Vocabulary.js";

// a hand-built vocabulary: Qwen3's two special tokens, a few text pieces, single characters, and EOS
const pieces = [
  { text: "<tool_call>", special: true },
  { text: "</tool_call>", special: true },
  "\n",
  '{"name": "',
  "ping",
  '", "arguments": ',
  "{}",
  "}",
  "<",
  "tool_call>",
  "</",
  "Hi",
  " ",
  "x",
  { text: "<|im_end|>", special: true },
];
const EOS = pieces.length - 1;
const id = (p: string): number => pieces.findIndex((x) => (typeof x === "string" ? x : x.text) === p);
const vocab = Vocabulary.fromPieces(pieces, { eosTokenIds: [EOS] });

const callTokens = ["<tool_call>", "\n", '{"name": "', "ping", '", "arguments": ', "{}", "}", "\n", "</tool_call>"];

describe("CompiledGrammar.createMatcher", () => {
  const compiled = compileTools([{ name: "ping" }]);

  it("walks a call through the special tokens and ends", () => {
    const m = compiled.createMatcher(vocab);
    for (const t of ["Hi", " ", ...callTokens]) expect(m.acceptToken(id(t)), t).toBe(true);
    expect(m.isCompleted()).toBe(true);
    expect(m.acceptToken(id("x"))).toBe(false);
  });

  it("token-or-text (default) also accepts <tool_call> spelled by text pieces; token-only does not", () => {
    const loose = compiled.createMatcher(vocab);
    expect(loose.acceptToken(id("<"))).toBe(true);
    expect(loose.acceptToken(id("tool_call>"))).toBe(true);
    const strict = compileTools([{ name: "ping" }], { specialTokens: "token-only" }).createMatcher(vocab);
    expect(strict.acceptToken(id("<"))).toBe(true); // free text may start with "<"
    expect(strict.acceptToken(id("tool_call>"))).toBe(false); // but "<tool_call>" is never text
  });

  it("masks: the special token is allowed at the start, EOS only when complete", () => {
    const m = compileTools([{ name: "ping" }], { toolChoice: "required" }).createMatcher(vocab);
    const bits = new Uint32Array(Math.ceil(vocab.size / 32));
    m.fillNextTokenBitmask(bits);
    const allowed = (i: number): boolean => ((bits[i >> 5] >>> (i & 31)) & 1) === 1;
    expect(allowed(id("<tool_call>"))).toBe(true);
    expect(allowed(EOS)).toBe(false);
    expect(allowed(id("Hi"))).toBe(false);
    for (const t of callTokens) expect(m.acceptToken(id(t)), t).toBe(true);
    m.fillNextTokenBitmask(bits);
    expect(allowed(EOS)).toBe(true);
  });

  it("the compile's limits.maxAutomatonStates caps the matcher (the option its error names)", () => {
    const tools = [
      { name: "ping" },
      { name: "get_weather", parameters: { type: "object", properties: { city: { type: "string" } } } },
    ];
    const capped = compileTools(tools, { limits: { maxAutomatonStates: 40 } }); // the compile itself fits
    expect(() => capped.createMatcher(vocab)).toThrow(/maxAutomatonStates/);
    expect(() => compileTools(tools).createMatcher(vocab)).not.toThrow();
  });
});
