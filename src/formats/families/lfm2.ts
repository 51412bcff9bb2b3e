import type { FormatDescription } from "../FormatDescription.js";
import { jsonCallUnit, PLAIN_FIELDS } from "./plainFields.js";

/**
 * LFM2.5 (Liquid): `<|tool_call_start|>[get_weather(city='Paris'), …]<|tool_call_end|>`, Python calls with strings
 * between apostrophes (PythonCallUnit.quote), as its chat template renders them; reasoning `<think>…</think>`
 * before the calls. The template writes a string raw between apostrophes and a dict as JSON: the canonical form
 * spells an apostrophe inside a string `\u0027` and dicts as Python literals (tolerant parsing reads both).
 */
export const lfm2: FormatDescription = {
  ...PLAIN_FIELDS,
  name: "lfm2",
  family: "LFM2 / LFM2.5 (Python calls, strings between apostrophes)",
  aliases: ["LFM2"],
  open: "<|tool_call_start|>",
  close: "<|tool_call_end|>",
  specialTokens: ["<|tool_call_start|>", "<|tool_call_end|>"],
  grouping: "list",
  unit: { kind: "python-call", quote: "single" },
  reasoning: { open: "<think>", close: "</think>", defaultMode: "optional" },
};

/**
 * LFM2 with JSON tools (llama.cpp's former chat format of that name, chosen when the system message asks for it with
 * `force json schema.`): `<|tool_call_start|>[{"name": "get_weather", "arguments": {"city": "Paris"}}, …]<|tool_call_end|>`,
 * the calls as one JSON list between LFM2's tool-call tokens. llama.cpp's own LFM2 template (llama-cpp-lfm2.jinja)
 * does not render a turn's calls, so its parser's tests show the layout; they read no reasoning.
 */
export const lfm2Json: FormatDescription = {
  ...PLAIN_FIELDS,
  name: "lfm2-json",
  family: "LFM2 with JSON tools (llama.cpp's `force json schema.` mode: a JSON list between LFM2's tool-call tokens)",
  aliases: ["LFM2 with JSON tools"],
  open: "<|tool_call_start|>",
  close: "<|tool_call_end|>",
  specialTokens: ["<|tool_call_start|>", "<|tool_call_end|>"],
  grouping: "list",
  unit: jsonCallUnit("arguments"),
};
