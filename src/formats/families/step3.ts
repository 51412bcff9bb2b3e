import type { FormatDescription } from "../FormatDescription.js";
import { PLAIN_FIELDS } from "./plainFields.js";

/** Step-3's tool-call markers (full-width bars, as DeepSeek's but with `_` where DeepSeek writes `▁`). */
const STEP3_TOKENS = [
  "<｜tool_calls_begin｜>",
  "<｜tool_calls_end｜>",
  "<｜tool_call_begin｜>",
  "<｜tool_call_end｜>",
  "<｜tool_sep｜>",
];

/**
 * StepFun Step-3, as vLLM's `step3` parser reads calls (and SGLang's Step3Detector documents them):
 * `<｜tool_calls_begin｜><｜tool_call_begin｜>function<｜tool_sep｜><steptml:invoke name="NAME">` then
 * `<steptml:parameter name="K">V</steptml:parameter>` per argument, `</steptml:invoke><｜tool_call_end｜>`, one block
 * per call, then `<｜tool_calls_end｜>`. vLLM's non-streaming reader requires the `function<｜tool_sep｜>` type prefix;
 * values are raw strings, other types as their JSON text (vLLM casts them by the parameter's schema type). No chat
 * template of Step-3 is stored with its weights' provenance here, so the canonical layout is the compact one those
 * parsers document (no newlines between markers); tolerant reading takes whitespace around the markers.
 */
export const step3: FormatDescription = {
  ...PLAIN_FIELDS,
  name: "step-3",
  family: "StepFun Step-3 (`<steptml:invoke>` calls in DeepSeek-style sections)",
  // vLLM: step3
  aliases: ["step3"],
  // vLLM's parser asks for these not to be skipped as special tokens (adjust_request: skip_special_tokens = False)
  specialTokens: STEP3_TOKENS,
  grouping: "block",
  section: { open: "<｜tool_calls_begin｜>", close: "<｜tool_calls_end｜>" },
  open: "<｜tool_call_begin｜>function<｜tool_sep｜>",
  close: "<｜tool_call_end｜>",
  unit: {
    kind: "xml-parameters",
    nameOpen: '<steptml:invoke name="',
    nameClose: '">',
    keyOpen: '<steptml:parameter name="',
    keyClose: '">',
    valueClose: "</steptml:parameter>",
    callClose: "</steptml:invoke>",
  },
};
