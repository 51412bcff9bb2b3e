/**
 * Formats derived from chat templates (src/templates/deriveFormat.ts): the described formats are names for what
 * derivation produces from their own templates (or the difference is listed with its reason); derived formats accept
 * their template's own renders, parse them back strictly (stream = batch) and write them back byte for byte; and strict
 * parsing agrees with the compiled grammar on grammar samples and their mutations.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { compileTools } from "../../src/compile.js";
import { describeFormat } from "../../src/formats/describeFormat.js";
import { FORMAT_DESCRIPTIONS } from "../../src/formats/descriptions.js";
import type { FormatDescription } from "../../src/formats/FormatDescription.js";
import { parseToolCalls } from "../../src/parser/parseToolCalls.js";
import { modelChatFor } from "../../src/prompt/ModelChat.js";
import { ToolCallStream } from "../../src/parser/ToolCallStream.js";
import { deriveFormat } from "../../src/templates/deriveFormat.js";
import {
  formatFromChatTemplate,
  formatFromProbe,
  type TemplateFormat,
} from "../../src/templates/formatFromChatTemplate.js";
import { recognizeFormat } from "../../src/templates/knownFormats.js";
import { sameAsDescribed, WIRE_PARTS } from "../../src/templates/sameAsDescribed.js";
import { toolOptionsFromTemplate } from "../../src/templates/toolOptionsFromTemplate.js";
import { probeTemplate, PROBE_TOOLS } from "../../src/templates/probeTemplate.js";
import { readCallLayout } from "../../src/templates/readCallLayout.js";
import { readReasoning } from "../../src/templates/readReasoning.js";
import { llamaCppSource, type LlamaCppSource } from "../../src/testing/llamaCppSource.js";
import { mutateText, sampleGrammar } from "../../src/testing/sampleGrammar.js";
import { seededRandom } from "../../src/util/seededRandom.js";
import { checkTemplateFormat } from "../../src/testing/templateAcceptance.js";
import { TOOLS } from "../support/parser/tools.js";
import { listWiderTemplates, widerTemplatesDir, widerTemplatesDirs } from "../../scripts/templates-wider-report.js";

const SEED = Number(process.env.TOOLGRAM_SEED ?? 20261128);

/**
 * A chat template written here whose assistant turn writes its calls with `calls` (Jinja over `message.tool_calls`,
 * each `c`), wrapped in `open` / `close` around all of them, joined by `sep`.
 */
function template(call: string, sep: string, open = "", close = ""): string {
  return `{%- for m in messages %}<|im_start|>{{ m.role }}
{% if m.tool_calls %}${open}{% for tc in m.tool_calls %}{% set c = tc.function %}{% if not loop.first %}{{ ${JSON.stringify(sep)} }}{% endif %}${call}{% endfor %}${close}{% else %}{{ m.content }}{% endif %}<|im_end|>
{% endfor %}{% if add_generation_prompt %}<|im_start|>assistant
{% endif %}`;
}

const JSON_CALL = '{"name": "{{ c.name }}", "arguments": {{ c.arguments | tojson }}}';
const PY_ARGS =
  "{% for k in c.arguments %}{{ k }}={{ c.arguments[k] | tojson }}{% if not loop.last %}, {% endif %}{% endfor %}";

/** Layouts no described format has, each as the issue lists a real template's (written here from the words). */
const UNSEEN: Record<string, string> = {
  "[TOOL_CALLS] [ objects with ids ]": template(
    '{"name": "{{ c.name }}", "arguments": {{ c.arguments | tojson }}, "id": "{{ tc.id }}"}',
    ", ",
    "[TOOL_CALLS] [",
    "]",
  ),
  "<|tool_call|> before each object, one a line": template(`<|tool_call|>${JSON_CALL}`, "\n"),
  "InternLM's <|action_start|><|plugin|>": template(`<|action_start|><|plugin|>\n${JSON_CALL}<|action_end|>`, "\n"),
  "<|python_start|> and parameters, one call": template(
    '<|python_start|>{"name": "{{ c.name }}", "parameters": {{ c.arguments | tojson }}}<|python_end|>',
    "",
  ).replace("{% for tc in m.tool_calls %}", "{% for tc in m.tool_calls[:1] %}"),
  "DeepSeek V3's fenced JSON, a newline after the section's start": template(
    "<｜tool▁call▁begin｜>function<｜tool▁sep｜>{{ c.name }}\n```json\n{{ c.arguments | tojson }}\n```<｜tool▁call▁end｜>",
    "\n",
    "<｜tool▁calls▁begin｜>{{ '\\n' }}",
    "<｜tool▁calls▁end｜>",
  ),
  "a pythonic list in markers of its own": template(
    `{{ c.name }}(${PY_ARGS})`,
    ", ",
    "<|tool_calls|>[",
    "]<|/tool_calls|>",
  ),
  "<function_call> and a space": template(`<function_call> ${JSON_CALL}`, "\n"),
  "tagged parameters in markers of their own": template(
    '<call>\n<name>{{ c.name }}</name>{% for k in c.arguments %}\n<arg key="{{ k }}">{{ c.arguments[k] }}</arg>{% endfor %}\n</call>',
    "\n",
  ),
  "Python calls one a line in a section (OLMo 3)": template(
    `{{ c.name }}(${PY_ARGS})`,
    "\n",
    "<function_calls>{{ '\\n' }}",
    "{{ '\\n' }}</function_calls>",
  ),
  // the tolerant reading of whole-reply lists must not ask for a `[` such a list does not write
  "JSON objects with no markers, comma-separated": template(JSON_CALL, ","),
};

describe("derived formats on layouts no described format has", () => {
  for (const [name, source] of Object.entries(UNSEEN)) {
    it(`${name}: derived, accepted, parsed back, written back`, () => {
      const t = formatFromChatTemplate(source);
      expect(t.derived).toBe(true);
      expect(t.format).toMatch(/^derived-[0-9a-f]{12}$/);
      expect(describeFormat(t.format)).toBe(t.description);
      const verdict = checkTemplateFormat(name, t);
      expect(verdict.reason, JSON.stringify(t.markers)).toBe("");
      expect(verdict.status).toBe("pass");
      expectStreamEqualsBatch(t);
    });
  }

  it("derives the same description, under the same name, from the same layout", () => {
    const a = formatFromChatTemplate(UNSEEN["[TOOL_CALLS] [ objects with ids ]"] as string);
    const b = formatFromChatTemplate(UNSEEN["[TOOL_CALLS] [ objects with ids ]"] as string);
    expect(b.description).toBe(a.description);
    expect(b.format).toBe(a.format);
  });

  it("reads the parts: markers, key names and order, ids, separators", () => {
    const nemo = formatFromChatTemplate(UNSEEN["[TOOL_CALLS] [ objects with ids ]"] as string).description;
    expect(nemo).toMatchObject({ grouping: "list", open: "[TOOL_CALLS] ", close: null });
    expect(nemo.unit).toMatchObject({ nameKey: "name", argumentsKey: "arguments", idKey: "id", idPosition: "last" });
    const line = formatFromChatTemplate(UNSEEN["<|tool_call|> before each object, one a line"] as string).description;
    expect(line).toMatchObject({ grouping: "block", open: "<|tool_call|>", close: null, blockSeparator: "\n" });
    const py = formatFromChatTemplate(UNSEEN["a pythonic list in markers of its own"] as string).description;
    expect(py).toMatchObject({ grouping: "list", open: "<|tool_calls|>", close: "<|/tool_calls|>" });
    expect(py.unit).toEqual({ kind: "python-call", literals: "json" });
    const one = formatFromChatTemplate(UNSEEN["<|python_start|> and parameters, one call"] as string).description;
    expect(one).toMatchObject({ open: "<|python_start|>", close: "<|python_end|>", maxCalls: 1 });
    expect(one.unit).toMatchObject({ argumentsKey: "parameters", argumentsAliases: ["arguments"] });
  });

  it("compileTools, parseToolCalls and the stream take the description or its name", () => {
    const t = formatFromChatTemplate(UNSEEN["InternLM's <|action_start|><|plugin|>"] as string);
    const text = '<|action_start|><|plugin|>\n{"name": "get_weather", "arguments": {"city": "Paris"}}<|action_end|>';
    expect(compileTools(TOOLS, { format: t.description }).accepts(text)).toBe(true);
    expect(compileTools(TOOLS, { format: t.format }).accepts(text)).toBe(true);
    const r = parseToolCalls(text, { tools: TOOLS, format: t.description, mode: "strict" });
    expect(r.issues).toEqual([]);
    expect(r.calls.map((c) => [c.name, c.arguments])).toEqual([["get_weather", { city: "Paris" }]]);
  });

  it("names a derived description with a described format's wire parts by that format", () => {
    // a bare JSON list of call objects is xLAM's
    expect(formatFromChatTemplate(template(JSON_CALL, ", ", "[", "]")).format).toBe("xlam");
    expect(
      sameAsDescribed(formatFromChatTemplate(UNSEEN["InternLM's <|action_start|><|plugin|>"] as string).description),
    ).toBeUndefined();
  });

  it("toolOptionsFromTemplate (compile --gguf) passes the derived description as the format", () => {
    const source = UNSEEN["InternLM's <|action_start|><|plugin|>"] as string;
    expect(toolOptionsFromTemplate(source)).toEqual({
      format: formatFromChatTemplate(source).description,
      reasoning: "none",
    });
  });

  it("a model's chat (generateToolCalls' prompt and format) takes the derived format from its template", () => {
    const source = UNSEEN["<function_call> and a space"] as string;
    const chat = modelChatFor(source);
    expect(chat.format).toBe(formatFromChatTemplate(source).format);
    const text = '<function_call> {"name": "get_weather", "arguments": {"city": "Paris"}}';
    expect(compileTools(TOOLS, { format: chat.format, reasoning: chat.reasoning }).accepts(text)).toBe(true);
  });

  it("reads JSON objects with nothing around them as a list without brackets, the whole reply", () => {
    for (const sep of [",", ""]) {
      const t = formatFromChatTemplate(template(JSON_CALL, sep));
      expect(t.description).toMatchObject({ grouping: "list", open: null, close: null, maxCalls: Infinity });
      expect(t.description.list).toEqual({ open: "", separator: sep, close: "" });
      expect(checkTemplateFormat("unmarked", t).reason).toBe("");
      expectStreamEqualsBatch(t);
      // text after the list is text after the calls; a reply starting with anything but `{` is text
      const r = parseToolCalls('{"name": "get_weather", "arguments": {}} ok', {
        format: t.description,
        mode: "strict",
      });
      expect(r.issues.map((i) => i.code)).toEqual(["TEXT_AFTER_CALLS"]);
      expect(parseToolCalls("Hello {", { format: t.description, mode: "strict" }).content).toBe("Hello {");
    }
  });

  it("reads Python calls whose strings the template leaves unquoted as Python calls (strings quoted)", () => {
    const raw = "{% for k in c.arguments %}{{ k }}={{ c.arguments[k] }}{% if not loop.last %}, {% endif %}{% endfor %}";
    const t = formatFromChatTemplate(template(`{{ c.name }}(${raw})`, ", ", "[", "]"));
    expect(t.description).toMatchObject({ grouping: "list", open: null, unit: { kind: "python-call" } });
    // the template's own `f(city=Paris)` is no Python: the grammar writes `f(city="Paris")`
    expect(checkTemplateFormat("unquoted", t).status).toBe("fail");
  });

  it("refuses a layout that does not say where a call starts, naming the part", () => {
    // Python calls joined by a newline with no marker and no section: a line of text could be a call
    const bare = template(`{{ c.name }}(${PY_ARGS})`, "\n");
    expect(() => formatFromChatTemplate(bare)).toThrow(/cannot be derived: no marker opens a call/);
    expect(() => formatFromChatTemplate(bare)).toThrow(expect.objectContaining({ code: "UNRECOGNIZED_TEMPLATE" }));
  });

  it("refuses a description-shaped object that is not one", () => {
    expect(() => compileTools(TOOLS, { format: { name: "x" } as unknown as FormatDescription })).toThrow(
      /not a format description: grouping, unit.kind/,
    );
  });
});

/** Strict parsing in chunks of 1, 2 and 7 characters gives the batch's result, on each probe turn. */
function expectStreamEqualsBatch(t: TemplateFormat): void {
  for (const turn of [t.probe.oneCall, t.singleCall ? undefined : t.probe.twoCalls]) {
    if (turn === undefined) continue;
    const text = turn.body.slice(t.markers.beforeCalls.length);
    const options = { tools: PROBE_TOOLS, format: t.description, mode: "strict" as const, reasoning: "none" as const };
    const batch = parseToolCalls(text, options);
    for (const size of [1, 2, 7]) {
      const s = new ToolCallStream(options);
      for (let i = 0; i < text.length; i += size) s.push(text.slice(i, i + size));
      s.flush();
      expect(s.end()).toEqual(batch);
    }
  }
}

/** The wire parts of a description but the turn's end (compared apart: derivation reads it from the template). */
const WIRE = WIRE_PARTS.filter((k) => k !== "callTurnEnd");

/**
 * Where a described format's wire parts differ from what derivation reads off its own template, and why. Everything
 * else of the JSON-object, named-JSON and Python-call families is equal. Beyond the wire parts, derivation never
 * produces aliases, special tokens (the template shows text, not the vocabulary's tokens), start prefixes (Llama 3's
 * `<|python_tag|>` is a drift models make, not what the template writes) and reasoning defaults (a described format's
 * default is the family's; a derived one's is its template's mode).
 */
const KNOWN_DIFFERENCES: Record<string, { parts: string[]; why: string }> = {
  "Apriel-1.6-15b-Thinker-fixed.jinja": {
    parts: ["open"],
    why: "the template writes a newline before the calls; hunyuan-a13b reads it as text, derivation keeps it in the marker",
  },
  "unsloth-Apriel-1.5.jinja": { parts: ["open"], why: "as Apriel 1.6: the newline before `<tool_calls>`" },
  "Bielik-11B-v3.0-Instruct.jinja": {
    parts: ["open", "blockSeparator"],
    why: "the template writes a newline before each block where qwen3 joins blocks with one; derivation keeps it in the marker",
  },
  "meetkai-functionary-medium-v3.1.jinja": {
    parts: ["afterCalls", "callTurnEnd"],
    why: "`<|eom_id|>` after the calls is the call turn's end token (callTurnEnd); the layout cannot tell a token that ends generation from text after the calls",
  },
  "mistralai-Mistral-Nemo-Instruct-2407.jinja": {
    parts: ["unit"],
    why: "the 9-alphanumeric id form is the tokenizer's, which the template does not render (it writes the given id)",
  },
  "Mistral-Small-3.2-24B-Instruct-2506.jinja": { parts: ["unit"], why: "as Mistral Nemo: the 9-alphanumeric id form" },
  "mistralai-Ministral-3-14B-Reasoning-2512.jinja": {
    parts: ["unit"],
    why: "`NAME[ARGS]{…}` is read both as named-json (the exact tool name) and as Mistral's name-then-json (the name up to the marker); both write and read the same text",
  },
  "unsloth-mistral-Devstral-Small-2507.jinja": {
    parts: ["unit"],
    why: "as Ministral 3: named-json for name-then-json",
  },
  "ByteDance-Seed-OSS.jinja": {
    parts: ["beforeClose", "unit"],
    why: "the newline after `</function>` is the call's (callClose) in seed-oss and the block's padding (beforeClose) when derived: the same text",
  },
  "NVIDIA-Nemotron-3-Nano-30B-A3B-BF16.jinja": {
    parts: ["close", "blockSeparator", "afterCalls"],
    why: "the newline after every block is the separator plus afterCalls in nemotron-3-nano and part of the closing marker when derived: the same text",
  },
  "tencent-Hy3.jinja": {
    parts: ["close", "blockSeparator", "section", "callTurnEnd"],
    why: "hy3's `<｜hy_eos:opensource｜>` after the section is its call turn's end token, and its newline after each block the separator; derived, the token closes the section and the newline the block: the same text",
  },
};

describe("described formats are names for what derivation produces (llama.cpp's templates)", () => {
  let src: LlamaCppSource | undefined;
  beforeAll(async () => {
    src = await llamaCppSource();
    if (src === undefined) console.warn("skipped: llama.cpp's source is not available");
  }, 300_000);

  const FILES = [
    "Apertus-8B-Instruct.jinja",
    "Apriel-1.6-15b-Thinker-fixed.jinja",
    "Bielik-11B-v3.0-Instruct.jinja",
    "Cohere2MoE.jinja",
    "CohereForAI-c4ai-command-r7b-12-2024-tool_use.jinja",
    "GigaChat3-10B-A1.8B.jinja",
    "GigaChat3.1-10B-A1.8B.jinja",
    "Kimi-K2-Instruct.jinja",
    "Kimi-K2-Thinking.jinja",
    "LFM2.5-8B-A1B.jinja",
    "MiMo-VL.jinja",
    "MiniMax-M1.jinja",
    "Mistral-Small-3.2-24B-Instruct-2506.jinja",
    "NVIDIA-Nemotron-Nano-v2.jinja",
    "NousResearch-Hermes-2-Pro-Llama-3-8B-tool_use.jinja",
    "Qwen-QwQ-32B.jinja",
    "Qwen-Qwen2.5-7B-Instruct.jinja",
    "Qwen-Qwen3-0.6B.jinja",
    "Reka-Edge.jinja",
    "deepseek-ai-DeepSeek-R1-Distill-Qwen-32B.jinja",
    "deepseek-ai-DeepSeek-V3.1.jinja",
    "fireworks-ai-llama-3-firefunction-v2.jinja",
    "ibm-granite-granite-4.0.jinja",
    "llama-cpp-deepseek-r1.jinja",
    "meetkai-functionary-medium-v3.1.jinja",
    "meta-llama-Llama-3.1-8B-Instruct.jinja",
    "mistralai-Ministral-3-14B-Reasoning-2512.jinja",
    "mistralai-Mistral-Nemo-Instruct-2407.jinja",
    "moonshotai-Kimi-K2.jinja",
    "openai-gpt-oss-120b.jinja",
    "unsloth-Apriel-1.5.jinja",
    "unsloth-mistral-Devstral-Small-2507.jinja",
    "upstage-Solar-Open-100B.jinja",
    // tagged parameters
    "ByteDance-Seed-OSS.jinja",
    "GLM-4.6.jinja",
    "GLM-4.7-Flash.jinja",
    "MiniMax-M2.jinja",
    "NVIDIA-Nemotron-3-Nano-30B-A3B-BF16.jinja",
    "Qwen3-Coder.jinja",
    "Qwen3.5-4B.jinja",
    "StepFun3.5-Flash.jinja",
    "openbmb-MiniCPM5-1B.jinja",
    "poolside-Laguna-S-2.1.jinja",
    "poolside-Laguna-XS-2.1.jinja",
    "tencent-Hy3.jinja",
  ];

  /** The template's reading with its description derived (as if no described format matched). */
  const derivedReading = (file: string): { known: TemplateFormat; derived: TemplateFormat } => {
    const probe = probeTemplate(readFileSync(join((src as LlamaCppSource).dir, "models", "templates", file), "utf8"));
    const known = formatFromProbe(probe);
    const layout = readCallLayout(probe);
    if (layout === undefined || recognizeFormat(layout) === undefined) throw new Error(`${file}: not a known layout`);
    const d = deriveFormat(layout, readReasoning(probe, layout), probe.typedCall?.body);
    return { known, derived: { ...known, format: d.name, description: d, derived: true, implemented: true } };
  };

  for (const file of FILES)
    it(file, ({ skip }) => {
      if (src === undefined) skip();
      const { known, derived } = derivedReading(file);
      const hand = FORMAT_DESCRIPTIONS[known.format as keyof typeof FORMAT_DESCRIPTIONS];
      const d = derived.description;
      const parts = [...WIRE, "callTurnEnd"].filter(
        (k) => JSON.stringify(hand[k as keyof FormatDescription]) !== JSON.stringify(d[k as keyof FormatDescription]),
      );
      expect(parts, `${file} (${known.format})`).toEqual(KNOWN_DIFFERENCES[file]?.parts ?? []);
      const formats = parts.length === 0 ? equalFormats : differingFormats;
      formats.add(known.format);
      // the derived description passes the template acceptance check on its own (where the described one is exact)
      if (known.implemented && !parts.includes("afterCalls")) {
        const verdict = checkTemplateFormat(file, derived);
        expect(verdict.reason).toBe("");
        expectStreamEqualsBatch(derived);
      }
    });

  for (const [file, expected] of Object.entries(NOT_DERIVED))
    it(`${file}: ${expected.format} is not derived (${expected.why})`, ({ skip }) => {
      if (src === undefined) skip();
      const probe = probeTemplate(readFileSync(join((src as LlamaCppSource).dir, "models", "templates", file), "utf8"));
      expect(formatFromProbe(probe).format).toBe(expected.format);
      const layout = readCallLayout(probe);
      if (layout === undefined) throw new Error(`${file}: no call layout`);
      let error: unknown;
      try {
        deriveFormat(layout, readReasoning(probe, layout), probe.typedCall?.body);
      } catch (e) {
        error = e;
      }
      // a ToolgramError that names the part of the layout derivation does not read
      expect(error).toMatchObject({ code: "UNRECOGNIZED_TEMPLATE" });
      expect((error as Error).message).toContain(`cannot be derived: ${expected.part}`);
      refusedFormats.add(expected.format);
    });

  it("counts the described formats derivation reproduces (docs/formats.md)", ({ skip }) => {
    if (src === undefined) skip();
    // a format is equal when one of its templates derives its wire parts exactly
    for (const f of equalFormats) differingFormats.delete(f);
    const counts = { equal: equalFormats.size, differing: differingFormats.size, refused: refusedFormats.size };
    console.log(
      `described formats with a llama.cpp template: ${counts.equal + counts.differing + counts.refused}; derivation ` +
        `reproduces ${counts.equal}, differs in listed parts for ${counts.differing} (${[...differingFormats].join(", ")}), ` +
        `does not derive ${counts.refused} (${[...refusedFormats].join(", ")})`,
    );
    expect(counts).toEqual({ equal: 22, differing: 8, refused: 8 });
  });
});

const equalFormats = new Set<string>();
const differingFormats = new Set<string>();
const refusedFormats = new Set<string>();

/**
 * Described formats whose call unit derivation does not read off a template (yet), each with the part its refusal
 * names: their templates are recognized by their matchers (src/templates/knownFormats.ts), never derived.
 */
const NOT_DERIVED: Record<string, { format: string; part: string; why: string }> = {
  "CohereForAI-c4ai-command-r-plus-tool_use.jinja": {
    format: "command-r-plus",
    part: "the opening of an argument's key",
    why: "JSON laid out by json.dumps(indent=4): the probe's compact arguments do not show",
  },
  "Kimi-K3.jinja": {
    format: "kimi-k3",
    part: "an argument's key is written with its value's type",
    why: "typed tagged values",
  },
  "deepseek-ai-DeepSeek-V3.2.jinja": {
    format: "deepseek-v3.2",
    part: "an argument's key is written with its value's type",
    why: "DSML's string flag",
  },
  "deepseek-ai-DeepSeek-V4.jinja": {
    format: "deepseek-v4",
    part: "an argument's key is written with its value's type",
    why: "DSML's string flag",
  },
  "MiniMax-M3.jinja": {
    format: "minimax-m3",
    part: "the opening of an argument's key",
    why: "one element per argument, the argument's name as the tag",
  },
  "google-gemma-4-31B-it.jinja": {
    format: "gemma4",
    part: "the opening of an argument's key",
    why: "Gemma 4's own value syntax",
  },
  "meetkai-functionary-medium-v3.2.jinja": {
    format: "functionary-v3.2",
    part: "no marker opens a call",
    why: "a turn of messages whose first `>>>` the generation prompt writes",
  },
  "muse-glimmer.jinja": {
    format: "muse-glimmer",
    part: "the tagged arguments do not follow the name one after another",
    why: "a turn of messages, the name written as recipient and again in the call",
  },
};

/**
 * The wider corpus (test/fixtures/templates-wider): templates written for a described format by others (vLLM's and
 * SGLang's examples), what derivation reads off them, and where that differs from the described format, why.
 */
const WIDER: Record<string, { format: string; parts: string[]; why: string }> = {
  "vllm-xlam_llama.jinja": { format: "xlam", parts: [], why: "" },
  "vllm-xlam_qwen.jinja": { format: "xlam", parts: [], why: "" },
  "vllm-llama3.2_pythonic.jinja": { format: "pythonic", parts: [], why: "" },
  "vllm-llama4_json.jinja": {
    format: "llama3-json",
    parts: ["grouping", "list", "maxCalls"],
    why: "vLLM's example writes several call objects one after another, `{…}{…}`, where Llama 3's JSON is one call",
  },
  "vllm-internlm2_tool.jinja": {
    format: "internlm2",
    parts: ["unit", "maxCalls"],
    why: "vLLM's example writes `arguments` and several calls, where InternLM2's own template writes `parameters`, one call",
  },
  "vllm-granite_20b_fc.jinja": {
    format: "granite-20b-fc",
    parts: ["open", "afterOpen", "blockSeparator", "afterCalls"],
    why: "vLLM's example writes a newline before and after each `<function_call> ` block",
  },
  "vllm-olmo3.jinja": {
    format: "olmo-3",
    parts: ["afterOpen", "beforeClose", "unit"],
    why: "vLLM's example pads the section with newlines and quotes strings with apostrophes",
  },
  "vllm-mistral_parallel.jinja": {
    format: "mistral",
    parts: ["open", "unit"],
    why: "vLLM's example writes a space after `[TOOL_CALLS]` and the id last (Mistral Nemo's order)",
  },
  "vllm-phi4_mini.jinja": {
    format: "phi4-mini",
    parts: ["open", "list"],
    why: "vLLM's example writes the call objects joined by `,` without `functools[…]`: a list without brackets",
  },
  "vllm-deepseekv3.jinja": {
    format: "deepseek-v3",
    parts: ["close", "blockSeparator", "section"],
    why: "vLLM's example keeps its template's indentation (eight spaces) around the markers",
  },
};

// the template files are other projects' code: read from $TOOLGRAM_WIDER_TEMPLATES (test/fixtures/templates-wider)
const widerDir = widerTemplatesDir();
describe.skipIf(widerDir === undefined)(
  "the wider corpus's templates, derived, against the formats they were written for",
  () => {
    const WIRE_AND_END = WIRE_PARTS;
    for (const [file, expected] of Object.entries(WIDER)) {
      it(`${file}: ${expected.format}${expected.why === "" ? "" : ` (${expected.why})`}`, () => {
        const source = readFileSync(join(widerDir as string, file), "utf8");
        const t = formatFromChatTemplate(source);
        const hand = FORMAT_DESCRIPTIONS[expected.format as keyof typeof FORMAT_DESCRIPTIONS];
        const parts = WIRE_AND_END.filter(
          (k) =>
            JSON.stringify(hand[k as keyof FormatDescription]) !==
            JSON.stringify(t.description[k as keyof FormatDescription]),
        );
        expect(parts).toEqual(expected.parts);
        if (parts.length === 0) expect(t.format).toBe(expected.format);
      });
    }
  },
);

describe(`strict parsing agrees with the grammar on derived formats (seed ${SEED})`, () => {
  for (const [name, source] of Object.entries(UNSEEN)) it(name, () => expectAgreement(formatFromChatTemplate(source)));

  // the wider corpus's templates whose format is derived (read from $TOOLGRAM_WIDER_TEMPLATES)
  const corpus = widerTemplatesDirs().length === 0 ? [] : listWiderTemplates(widerTemplatesDirs());
  for (const t of corpus) {
    it.skipIf(!derivedFrom(t.text))(`the wider corpus's ${t.file}`, () => {
      const f = formatFromChatTemplate(t.text);
      expectAgreement(f);
      expectStreamEqualsBatch(f);
    });
  }
});

/** Characters and markers the mutations insert. */
const ALPHABET = ["<", ">", "|", "[", "]", "{", "}", '"', ",", " ", "\n", ":", "a", "1", "\\", "(", ")", "="];

/** The template's format is derived (not a described one); false when it renders no calls or is refused. */
function derivedFrom(source: string): boolean {
  try {
    return formatFromChatTemplate(source).derived;
  } catch {
    return false;
  }
}

/**
 * Strict parsing (no issues, nothing dropped) ⇔ the grammar accepts, on grammar samples whose calls all validate and
 * their mutations (markers and structural characters inserted, deleted, replaced).
 */
function expectAgreement(t: TemplateFormat): void {
  {
    {
      const d = t.description;
      // Python calls take only declared keyword arguments: the tools that say so
      const tools = TOOLS.filter((t) => compiles(t, d));
      const g = compileTools(tools, { format: d, reasoning: "none" });
      const random = seededRandom(SEED);
      const markers = [d.open, d.close, d.section?.open, d.section?.close].filter(
        (m): m is string => typeof m === "string" && m !== "",
      );
      const problems: string[] = [];
      let samples = 0;
      let mutants = 0;
      for (let k = 0; k < 300 && (samples < 20 || mutants < 20); k++) {
        const sample = sampleGrammar(g.grammar, random, { maxLength: 500 });
        if (sample === undefined || !callsValidate(sample, d, tools)) continue;
        samples++;
        const p = disagreement(sample, d, tools, g.accepts(sample));
        if (p) problems.push(`sample: ${p}`);
        for (let m = 0; m < 6; m++) {
          const text = mutateText(sample, [...ALPHABET, ...markers], random, 1 + Math.floor(random() * 3));
          if (!callsValidate(text, d, tools)) continue;
          mutants++;
          const q = disagreement(text, d, tools, g.accepts(text));
          if (q) problems.push(`mutant: ${q}`);
        }
      }
      expect(samples, `seed ${SEED}`).toBeGreaterThan(10);
      expect(mutants, `seed ${SEED}`).toBeGreaterThan(5);
      expect(problems.slice(0, 5), `seed ${SEED}`).toEqual([]);
    }
  }
}

function compiles(tool: unknown, d: FormatDescription): boolean {
  try {
    compileTools([tool], { format: d });
    return true;
  } catch {
    return false;
  }
}

/**
 * The text holds calls, all declared and valid (so the grammar's verdict is about layout). A stray opening marker
 * (a list format's marker with no list after it) stays in: strict parsing reports it, as the grammar refuses it.
 */
function callsValidate(text: string, d: FormatDescription, tools: readonly unknown[]): boolean {
  const r = parseToolCalls(text, { tools, format: d, mode: "tolerant", reasoning: "none" });
  return r.dropped === 0 && r.calls.length > 0 && r.calls.every((c) => c.valid);
}

function disagreement(
  text: string,
  d: FormatDescription,
  tools: readonly unknown[],
  accepted: boolean,
): string | undefined {
  const r = parseToolCalls(text, { tools, format: d, mode: "strict", reasoning: "none" });
  const clean = r.issues.length === 0 && r.dropped === 0;
  if (accepted === clean) return undefined;
  return `accepts=${accepted} strict=${clean} ${JSON.stringify(r.issues.map((i) => i.code))} :: ${JSON.stringify(text)}`;
}
