/**
 * Every name a configuration may carry over names a format: vLLM's `--tool-call-parser` names (issue 12's list and
 * the parsers vLLM registers for the formats described here) and llama.cpp's chat-format names, read from the
 * `common_chat_format_name` of the llama.cpp source node-llama-cpp ships, and the names it used before. A name that
 * is not a format stays a ToolgramError that says why.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { describeFormat } from "../../src/formats/describeFormat.js";
import { ToolgramError } from "../../src/errors.js";
import { llamaCppSource } from "../../src/testing/llamaCppSource.js";

/** vLLM tool-parser name → the format it reads (vllm/tool_parsers/__init__.py's registry). */
const VLLM_PARSERS: Readonly<Record<string, string>> = {
  hermes: "qwen3",
  granite4: "qwen3",
  mistral: "mistral",
  llama3_json: "llama3-json",
  llama4_json: "llama3-json",
  llama4_pythonic: "pythonic",
  pythonic: "pythonic",
  qwen3_coder: "qwen3-coder",
  qwen3_xml: "qwen3-coder",
  deepseek_v3: "deepseek-v3",
  deepseek_v31: "deepseek-v3.1",
  deepseek_v32: "deepseek-v3.2",
  deepseek_v4: "deepseek-v4",
  glm45: "glm-4.5",
  glm47: "glm-4.7",
  kimi_k2: "kimi-k2",
  kimi_k3: "kimi-k3",
  minimax: "minimax-m1",
  minimax_m2: "minimax-m2",
  minimax_m3: "minimax-m3",
  openai: "openai",
  granite: "granite",
  "granite-20b-fc": "granite-20b-fc",
  phi4_mini_json: "phi4-mini",
  xlam: "xlam",
  seed_oss: "seed-oss",
  hunyuan_a13b: "hunyuan-a13b",
  hy_v3: "hy3",
  internlm: "internlm2",
  jamba: "hunyuan-a13b",
  step3: "step-3",
  olmo3: "olmo-3",
  step3p5: "step-3.5",
  gemma4: "gemma4",
  lfm2: "lfm2",
  minicpm5: "minicpm5",
  gigachat3: "gigachat3",
  apertus: "apertus",
};

/** llama.cpp's chat-format names that are formats, and the ones that are not (with what the error says). */
const LLAMA_CPP_FORMATS: Readonly<Record<string, string>> = { "peg-gemma4": "gemma4", "peg-minimax-m3": "minimax-m3" };
const LLAMA_CPP_NOT_FORMATS: Readonly<Record<string, RegExp>> = {
  "Content-only": /without tool calls/,
  "peg-simple": /formatFromChatTemplate/,
  "peg-native": /formatFromChatTemplate/,
};

/**
 * The names llama.cpp's common_chat_format_name gave before its autoparser (ggml-org/llama.cpp, common/chat.cpp at
 * 85c9a5042b0693d4932d4e485377c516aafd1b30), which configurations still carry: the format each names, or, for names
 * no description here covers, why (an unknown format stays INVALID_OPTION).
 */
const LLAMA_CPP_FORMER: Readonly<Record<string, string>> = {
  "Mistral Nemo": "mistral-nemo",
  "Llama 3.x": "llama3-json",
  "DeepSeek R1": "deepseek-v3",
  "FireFunction v2": "firefunction-v2",
  "Functionary v3.2": "functionary-v3.2",
  "Functionary v3.1 Llama 3.1": "functionary-v3.1",
  "DeepSeek V3.1": "deepseek-v3.1",
  "Hermes 2 Pro": "qwen3",
  "Command R7B": "command-r7b",
  Granite: "granite",
  "GPT-OSS": "openai",
  "Seed-OSS": "seed-oss",
  "Nemotron V2": "nemotron-v2",
  Apertus: "apertus",
  "MiniMax-M2": "minimax-m2",
  "GLM 4.5": "glm-4.5",
  "Kimi K2": "kimi-k2",
  "Qwen3 Coder": "qwen3-coder",
  "Apriel 1.5": "hunyuan-a13b",
  // Magistral's template writes `[TOOL_CALLS]NAME[ARGS]{…}` after `[THINK]…[/THINK]`, as Ministral 3's does; the former
  // handler constrained Mistral Nemo's `[TOOL_CALLS][{…}]` list instead (docs/formats.md)
  Magistral: "mistral-v11",
  // a reply that calls a built-in tool (`<|python_tag|>brave_search.call(…)`); the same turn's JSON call to another tool
  // is `llama3-json`'s, which one grammar here does not offer beside it (docs/formats.md)
  "Llama 3.x with builtin tools": "llama3-builtin",
  "LFM2 with JSON tools": "lfm2-json",
  // MiMo's `<tool_call>\n{"name": …, "arguments": …}\n</tool_call>` blocks are Hermes's
  "Xiaomi MiMo": "qwen3",
};
const LLAMA_CPP_FORMER_NOT_FORMATS: Readonly<Record<string, RegExp>> = {
  "Content-only": /without tool calls/,
  Generic: /does not recognise/,
  "peg-simple": /formatFromChatTemplate/,
  "peg-native": /formatFromChatTemplate/,
  "peg-constructed": /formatFromChatTemplate/,
};

describe("llama.cpp's former chat-format names", () => {
  for (const [name, format] of Object.entries(LLAMA_CPP_FORMER)) {
    it(`${name} → ${format}`, () => expect(describeFormat(name).name).toBe(format));
  }
  it("the others are INVALID_OPTION saying why", () => {
    for (const [name, why] of Object.entries(LLAMA_CPP_FORMER_NOT_FORMATS)) {
      const e = errorOf(() => describeFormat(name));
      expect(e.code).toBe("INVALID_OPTION");
      expect(e.message).toMatch(why);
    }
  });
});

function errorOf(f: () => unknown): ToolgramError {
  try {
    f();
  } catch (e) {
    if (e instanceof ToolgramError) return e;
    throw e;
  }
  throw new Error("no error");
}

describe("vLLM's tool-parser names", () => {
  for (const [alias, format] of Object.entries(VLLM_PARSERS)) {
    it(`${alias} → ${format}`, () => expect(describeFormat(alias).name).toBe(format));
  }
});

const source = await llamaCppSource();

describe.skipIf(source === undefined)("llama.cpp's chat-format names", () => {
  const chat = source === undefined ? "" : readFileSync(join(source.dir, "common", "chat.cpp"), "utf8");
  const body = /common_chat_format_name\(common_chat_format format\) \{([^]*?)\n\}/.exec(chat)?.[1] ?? "";
  const names = [...body.matchAll(/case COMMON_CHAT_FORMAT_\w+:\s*return "([^"]+)";/g)].map((m) => m[1]);

  it("reads every name of common_chat_format_name, each known here as a format or as no format", () => {
    expect(names.length).toBeGreaterThanOrEqual(5);
    expect(names.filter((n) => !(n in LLAMA_CPP_FORMATS) && !(n in LLAMA_CPP_NOT_FORMATS))).toEqual([]);
  });

  it("a format's name resolves to it", () => {
    for (const n of names.filter((x) => x in LLAMA_CPP_FORMATS))
      expect(describeFormat(n).name).toBe(LLAMA_CPP_FORMATS[n]);
  });

  it("a name that is no format is INVALID_OPTION saying what it is", () => {
    for (const n of names.filter((x) => x in LLAMA_CPP_NOT_FORMATS)) {
      const e = errorOf(() => describeFormat(n));
      expect(e.code).toBe("INVALID_OPTION");
      expect(e.message).toMatch(LLAMA_CPP_NOT_FORMATS[n]);
      expect(e.message).toContain(JSON.stringify(n));
    }
  });
});

describe("an unknown name", () => {
  it("is INVALID_OPTION naming it and the known names", () => {
    for (const n of ["hermes2", "step_3", "Peg-Native", "", "olmo"]) {
      const e = errorOf(() => describeFormat(n));
      expect(e.code).toBe("INVALID_OPTION");
      expect(e.message).toContain(`unknown format ${JSON.stringify(n)}`);
      expect(e.message).toContain("hermes (qwen3)");
    }
    expect(errorOf(() => describeFormat(undefined)).code).toBe("INVALID_OPTION");
  });
});
