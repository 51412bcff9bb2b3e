import type { FormatDescription } from "../FormatDescription.js";
import { PLAIN_FIELDS } from "./plainFields.js";

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
