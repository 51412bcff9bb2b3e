import { readFile } from "node:fs/promises";
import { Tokenizer } from "@huggingface/tokenizers";
import type { LlamaModel } from "node-llama-cpp";
import { beforeAll, describe, expect, it } from "vitest";
import { ToolgramError } from "../../src/errors.js";
import type { TinyModel } from "../../src/gguf/buildTinyModel.js";
import { ggufTokenizer } from "../../src/gguf/ggufTokenizer.js";
import { readGguf } from "../../src/gguf/readGguf.js";
import { generateWithGbnf } from "../../src/llama-cpp/generateWithGbnf.js";
import { generateWithMask } from "../../src/llama-cpp/generateWithMask.js";
import { FiniteSetMatcher, tokenByteStrings } from "../support/llama-cpp/finiteSetMatcher.js";
import { tierSample } from "../support/tier.js";
import { tinyQwen3, tinyQwen3Model } from "../support/tinyQwen3.js";

const PROMPT = "<|im_start|>user\nWhat is the weather in Paris?<|im_end|>\n<|im_start|>assistant\n";
const TOOL_CALL_GBNF =
  'root ::= "<tool_call>\\n{\\"name\\": \\"get_weather\\", \\"arguments\\": {\\"city\\": \\"" [a-zA-Z ]{1,20} "\\"}}\\n</tool_call>"';
const TOOL_CALL_SHAPE =
  /^<tool_call>\n\{"name": "get_weather", "arguments": \{"city": "[a-zA-Z ]{1,20}"\}\}\n<\/tool_call>$/;
const IM_END = 151645;
const END_TOKENS = [IM_END, 151643];

let tiny: TinyModel;
let model: LlamaModel;
let tokenBytes: string[];
let loadMs = 0;

beforeAll(async () => {
  tiny = await tinyQwen3();
  const started = performance.now();
  model = await tinyQwen3Model();
  loadMs = performance.now() - started;
  tokenBytes = tokenByteStrings(ggufTokenizer(await readGguf(tiny.path)));
});

describe("tiny Qwen3 model in node-llama-cpp", () => {
  it("loads, with Qwen3's end token and vocabulary size", () => {
    console.log(
      `tiny model: ${(tiny.sizeBytes / 1e6).toFixed(1)} MB, sha256 ${tiny.sha256}, loaded in ${loadMs.toFixed(0)} ms`,
    );
    expect(model.tokens.eos).toBe(IM_END);
    expect([...model.iterateAllTokens()].length).toBe(151_936);
    expect(model.isEogToken(IM_END as never)).toBe(true);
  });

  it("tokenizes exactly like the Hugging Face tokenizer of the same tokenizer.json", async () => {
    const json: object = JSON.parse(await readFile(tiny.tokenizerJsonPath, "utf8"));
    const config: object = JSON.parse(
      await readFile(tiny.tokenizerJsonPath.replace(/tokenizer\.json$/, "tokenizer_config.json"), "utf8"),
    );
    const hf = new Tokenizer(json, config);
    const samples = [
      "Hello world",
      PROMPT,
      '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris", "days": 3}}\n</tool_call>',
      "  leading spaces,\ttabs\n\nand newlines\r\n",
      "numbers 1234567 3.14159 -42",
      "日本語のテキスト, émigré, 🙂👍🏽, Ω≈ç√",
      "it's they're we've I'm you'll he'd",
      "<think>\nreasoning\n</think>\n\n",
    ];
    for (const text of samples) {
      expect(model.tokenize(text, true), JSON.stringify(text)).toEqual(
        hf.encode(text, { add_special_tokens: false }).ids,
      );
    }
  });

  it("generates unconstrained tokens", async () => {
    const r = await generateWithGbnf({
      model,
      prompt: PROMPT,
      gbnf: undefined,
      maxTokens: 64,
      temperature: 1,
      seed: 1,
    });
    console.log(`unconstrained: ${r.tokens.length} tokens, ${r.tokensPerSecond.toFixed(0)} tok/s`);
    expect(r.tokens.length).toBeGreaterThan(0);
    expect(r.tokens.length).toBeLessThanOrEqual(64);
  });

  // llama.cpp's grammar sampler walks the 151,936-token vocabulary at every step: the quick tier samples one seed
  it("generates exactly the tool-call shape under a GBNF grammar", async () => {
    for (const seed of tierSample([1, 2], 2)) {
      const r = await generateWithGbnf({
        model,
        prompt: PROMPT,
        gbnf: TOOL_CALL_GBNF,
        maxTokens: 200,
        temperature: 1,
        seed,
      });
      console.log(
        `GBNF seed ${seed}: ${r.tokens.length} tokens, ${r.tokensPerSecond.toFixed(0)} tok/s ${JSON.stringify(r.text)}`,
      );
      expect(r.finishReason).toBe("stop");
      expect(r.text).toMatch(TOOL_CALL_SHAPE);
    }
  });

  it("accepts token-level GBNF: <[151657]> is exactly the <tool_call> special token", async () => {
    const r = await generateWithGbnf({
      model,
      prompt: PROMPT,
      gbnf: 'root ::= <[151657]> "\\n{}\\n" <[151658]>',
      maxTokens: 20,
    });
    expect(r.tokens[0]).toBe(151657);
    expect(r.tokens[r.tokens.length - 1]).toBe(151658);
    expect(r.text).toBe("<tool_call>\n{}\n</tool_call>");
  });

  it("refuses a grammar llama.cpp cannot parse, and bounds that would crash it", async () => {
    await expect(
      generateWithGbnf({ model, prompt: "x", gbnf: 'root ::= "unterminated', maxTokens: 4 }),
    ).rejects.toThrow(ToolgramError);
    await expect(generateWithGbnf({ model, prompt: "x", gbnf: 'root ::= "a"{3,1}', maxTokens: 4 })).rejects.toThrow(
      /minimum above/,
    );
  });

  it("generates under a per-step token mask: output is exactly one of the allowed texts", async () => {
    const targets = ["Paris", "Berlin", "Tokyo", "New York"].map(
      (city) => `<tool_call>\n{"name": "get_weather", "arguments": {"city": "${city}"}}\n</tool_call>`,
    );
    for (const seed of tierSample([1, 2, 3], 3)) {
      const matcher = new FiniteSetMatcher(tokenBytes, targets, END_TOKENS);
      const r = await generateWithMask({ model, prompt: PROMPT, matcher, maxTokens: 200, temperature: 1, seed });
      console.log(
        `mask seed ${seed}: ${r.tokens.length} tokens, ${r.tokensPerSecond.toFixed(0)} tok/s, resampled ${r.resampledSteps}`,
      );
      expect(r.finishReason).toBe("stop");
      expect(targets).toContain(r.text);
      expect(matcher.text()).toBe(r.text);
    }
  });

  it("lets the model choose between ending and continuing when both are allowed", async () => {
    const targets = ["a", "ab", "abc", "abcd", "abcde", "abcdef"];
    const outputs = new Set<string>();
    for (const seed of [1, 2, 3, 4, 5, 6]) {
      const matcher = new FiniteSetMatcher(tokenBytes, targets, END_TOKENS);
      const r = await generateWithMask({ model, prompt: "letters: ", matcher, maxTokens: 20, temperature: 1, seed });
      expect(r.finishReason).toBe("stop");
      expect(targets).toContain(r.text);
      outputs.add(r.text);
    }
    expect(outputs.size).toBeGreaterThan(0);
  });

  it("jump-forward appends the forced text without sampling it", async () => {
    const targets = ["Paris", "Lyon"].map(
      (city) => `<tool_call>\n{"name": "get_weather", "arguments": {"city": "${city}"}}\n</tool_call>`,
    );
    const matcher = new FiniteSetMatcher(tokenBytes, targets, END_TOKENS);
    const r = await generateWithMask({ model, prompt: PROMPT, matcher, maxTokens: 200, jumpForward: true });
    expect(targets).toContain(r.text);
    expect(r.forcedTokens).toBeGreaterThan(10);
  });

  it("enforces a mask that allows most of the vocabulary (banning the model's favourite tokens)", async () => {
    const free = await generateWithGbnf({ model, prompt: PROMPT, gbnf: undefined, maxTokens: 16 });
    const banned = new Set<number>(free.tokens);
    const steps = 16;
    let count = 0;
    const matcher = {
      fillNextTokenBitmask(bits: Uint32Array): void {
        bits.fill(count < steps ? 0xffffffff : 0);
        for (const id of banned) bits[id >>> 5] &= ~(1 << (id & 31));
        for (const id of END_TOKENS) {
          if (count < steps) bits[id >>> 5] &= ~(1 << (id & 31));
          else bits[id >>> 5] |= 1 << (id & 31);
        }
      },
      acceptToken(token: number): boolean {
        if (banned.has(token) || count >= steps) return false;
        count++;
        return true;
      },
      isCompleted: () => count >= steps,
    };
    const r = await generateWithMask({ model, prompt: PROMPT, matcher, maxTokens: 100 });
    expect(r.tokens.length).toBe(steps);
    expect(r.finishReason).toBe("stop");
    for (const t of r.tokens) expect(banned.has(t)).toBe(false);
  });
});
