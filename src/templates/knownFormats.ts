import type { FormatName } from "../formats/FormatName.js";
import type { CallLayout } from "./readCallLayout.js";

/**
 * Which of toolgram's formats a chat template's call layout is, read from the markers the template renders (never
 * from its source text). A matcher holds only the layout tests: the format's aliases, family and everything else are
 * its description's (FORMAT_DESCRIPTIONS), so no format is named or described twice.
 */
export interface KnownFormat {
  /** The layout is this format's, exactly or with whitespace of its own (the first matching entry names it). */
  readonly matches: (l: CallLayout) => boolean;
  /**
   * Of a layout `matches` accepts: toolgram renders exactly this layout under the format (byte for byte, checked in
   * test/templates against renderToolCalls); one that is not exact differs in text around the calls (see the comments).
   */
  readonly exact: (l: CallLayout) => boolean;
}

const HERMES_UNIT = '<tool_call>\n{"name": "⟨NAME⟩", "arguments": ⟨ARGS⟩}\n</tool_call>';
const QWEN3_CODER_UNIT =
  "<tool_call>\n<function=⟨NAME⟩>\n<parameter=⟨K1⟩>\n⟨V1⟩\n</parameter>\n<parameter=⟨K2⟩>\n⟨V2⟩\n</parameter>\n</function>\n</tool_call>";

/** A DSML call with the probe's two string arguments (DeepSeek V3.2 / V4), after the section's opening line. */
const DSML_UNIT =
  '\n<｜DSML｜invoke name="⟨NAME⟩">\n<｜DSML｜parameter name="⟨K1⟩" string="true">⟨V1⟩</｜DSML｜parameter>\n<｜DSML｜parameter name="⟨K2⟩" string="true">⟨V2⟩</｜DSML｜parameter>\n</｜DSML｜invoke>';
const GEMMA4_UNIT = '<|tool_call>call:⟨NAME⟩{⟨K1⟩:<|"|>⟨V1⟩<|"|>,⟨K2⟩:<|"|>⟨V2⟩<|"|>}<tool_call|>';

const MM = "]<]minimax[>[";
const MINIMAX_M3_TURN = `${MM}<tool_call>\n${MM}<invoke name="⟨NAME⟩">${MM}<⟨K1⟩>⟨V1⟩${MM}</⟨K1⟩>${MM}<⟨K2⟩>⟨V2⟩${MM}</⟨K2⟩>${MM}</invoke>\n${MM}</tool_call>`;

/**
 * The template matchers, keyed by format name (so each is one described format's, checked by the compiler). Ordered:
 * the first match names the format (a narrower layout before the one it is a variant of).
 */
export const KNOWN_FORMATS: { readonly [F in FormatName]?: KnownFormat } = {
  "reka-edge": {
    matches: (l) => l.skeleton === HERMES_UNIT && l.separator === "",
    exact: (l) => l.sectionStart === "" && l.sectionEnd === "",
  },
  // Bielik's template writes a newline before the first call: toolgram reads it as text before the calls, so that
  // template is qwen3's but not `exact`
  qwen3: {
    matches: (l) => l.skeleton.trim() === HERMES_UNIT && l.sectionStart.trim() === "" && l.sectionEnd.trim() === "",
    exact: (l) => l.skeleton === HERMES_UNIT && l.sectionStart === "" && l.sectionEnd === "" && l.separator === "\n",
  },
  "minimax-m1": {
    matches: (l) => l.sectionStart === "<tool_calls>" && l.skeleton === '\n{"name": "⟨NAME⟩", "arguments": ⟨ARGS⟩}',
    exact: (l) => l.sectionEnd === "\n</tool_calls>" && l.separator === "",
  },
  "llama3-json": {
    matches: (l) =>
      l.skeleton === '{"name": "⟨NAME⟩", "parameters": ⟨ARGS⟩}' && l.sectionStart === "" && l.separator === undefined,
    exact: (l) => l.sectionEnd === "",
  },
  "mistral-nemo": {
    matches: (l) =>
      l.sectionStart === "[TOOL_CALLS][" && l.skeleton.startsWith('{"name": "⟨NAME⟩", "arguments": ⟨ARGS⟩'),
    exact: (l) =>
      l.sectionStart === "[TOOL_CALLS][" &&
      l.skeleton === '{"name": "⟨NAME⟩", "arguments": ⟨ARGS⟩, "id": "⟨ID⟩"}' &&
      l.separator === ", " &&
      l.sectionEnd === "]",
  },
  "mistral-v11-call-id": {
    matches: (l) => l.skeleton === "[TOOL_CALLS]⟨NAME⟩[CALL_ID]⟨ID⟩[ARGS]⟨ARGS⟩",
    exact: (l) => l.sectionStart === "" && l.sectionEnd === "" && l.separator === "",
  },
  "mistral-v11": {
    matches: (l) => l.skeleton === "[TOOL_CALLS]⟨NAME⟩[ARGS]⟨ARGS⟩",
    exact: (l) => l.sectionStart === "" && l.sectionEnd === "" && l.separator === "",
  },
  "nemotron-3-nano": {
    matches: (l) => l.skeleton === `${QWEN3_CODER_UNIT}\n` && l.separator === "",
    exact: (l) => l.sectionStart === "" && l.sectionEnd === "",
  },
  "step-3.5": {
    matches: (l) => l.skeleton === QWEN3_CODER_UNIT && l.separator === "",
    exact: (l) => l.sectionStart === "" && l.sectionEnd === "",
  },
  "qwen3-coder": {
    matches: (l) => l.skeleton.trim() === QWEN3_CODER_UNIT,
    exact: (l) =>
      l.skeleton === QWEN3_CODER_UNIT && l.sectionStart === "" && l.sectionEnd === "" && l.separator === "\n",
  },
  "glm-4.5": {
    matches: (l) =>
      l.skeleton ===
      "<tool_call>⟨NAME⟩\n<arg_key>⟨K1⟩</arg_key>\n<arg_value>⟨V1⟩</arg_value>\n<arg_key>⟨K2⟩</arg_key>\n<arg_value>⟨V2⟩</arg_value>\n</tool_call>",
    exact: (l) => l.sectionStart === "" && l.sectionEnd === "" && l.separator === "\n",
  },
  "glm-4.7": {
    matches: (l) =>
      l.skeleton ===
      "<tool_call>⟨NAME⟩<arg_key>⟨K1⟩</arg_key><arg_value>⟨V1⟩</arg_value><arg_key>⟨K2⟩</arg_key><arg_value>⟨V2⟩</arg_value></tool_call>",
    exact: (l) => l.sectionStart === "" && l.sectionEnd === "" && l.separator === "",
  },
  "deepseek-v3": {
    matches: (l) =>
      l.sectionStart === "<｜tool▁calls▁begin｜>" &&
      l.skeleton === "<｜tool▁call▁begin｜>function<｜tool▁sep｜>⟨NAME⟩\n```json\n⟨ARGS⟩\n```<｜tool▁call▁end｜>",
    exact: (l) => l.sectionEnd === "<｜tool▁calls▁end｜>" && l.separator === "\n",
  },
  "deepseek-v3.1": {
    matches: (l) =>
      l.sectionStart === "<｜tool▁calls▁begin｜>" &&
      l.skeleton === "<｜tool▁call▁begin｜>⟨NAME⟩<｜tool▁sep｜>⟨ARGS⟩<｜tool▁call▁end｜>",
    exact: (l) => l.sectionEnd === "<｜tool▁calls▁end｜>" && l.separator === "",
  },
  // the DSML templates (V3.2, V4) write `\n\n` before the section: toolgram reads it as text before the calls (as for
  // Bielik), so its renderer writes the section alone and these templates are not `exact`
  "deepseek-v3.2": {
    matches: (l) =>
      l.sectionStart.trim() === "<｜DSML｜function_calls>" && l.callOpen.trim() === '<｜DSML｜invoke name="',
    exact: (l) =>
      l.sectionStart === "<｜DSML｜function_calls>" &&
      l.sectionEnd === "\n</｜DSML｜function_calls>" &&
      l.separator === "" &&
      l.skeleton === DSML_UNIT,
  },
  "deepseek-v4": {
    matches: (l) => l.sectionStart.trim() === "<｜DSML｜tool_calls>" && l.callOpen.trim() === '<｜DSML｜invoke name="',
    exact: (l) =>
      l.sectionStart === "<｜DSML｜tool_calls>" &&
      l.sectionEnd === "\n</｜DSML｜tool_calls>" &&
      l.separator === "" &&
      l.skeleton === DSML_UNIT,
  },
  "kimi-k2": {
    matches: (l) =>
      l.sectionStart === "<|tool_calls_section_begin|>" &&
      l.skeleton.startsWith("<|tool_call_begin|>functions.⟨NAME⟩:⟨INDEX0⟩<|tool_call_argument_begin|>⟨ARGS⟩"),
    exact: (l) => l.sectionEnd === "<|tool_calls_section_end|>" && l.separator === "",
  },
  "kimi-k3": {
    matches: (l) => l.skeleton.includes('<|open|>call tool="⟨NAME⟩"') && l.arguments === "tagged",
    exact: (l) =>
      l.sectionStart === "<|close|>response<|sep|><|open|>tools" &&
      l.sectionEnd === "<|sep|><|close|>tools<|sep|>" &&
      l.separator === "",
  },
  openai: {
    matches: (l) =>
      l.skeleton.startsWith(" to=functions.⟨NAME⟩<|channel|>commentary") && l.skeleton.endsWith("<|call|>"),
    exact: (l) =>
      l.skeleton === " to=functions.⟨NAME⟩<|channel|>commentary json<|message|>⟨ARGS⟩<|call|>" &&
      l.sectionStart === "" &&
      l.sectionEnd === "",
  },
  "minimax-m2": {
    matches: (l) => l.sectionStart.trim() === "<minimax:tool_call>" && l.callOpen.trim() === '<invoke name="',
    exact: (l) =>
      l.sectionStart === "\n<minimax:tool_call>" &&
      l.callOpen === '\n<invoke name="' &&
      l.separator === "" &&
      l.sectionEnd === "\n</minimax:tool_call>",
  },
  "minimax-m3": {
    matches: (l) => l.skeleton.includes("]<]minimax[>[") && l.skeleton.includes('<invoke name="⟨NAME⟩">'),
    // the one-call turn, however the layout reader splits it between the section's markers and the call
    exact: (l) => l.sectionStart + l.skeleton + l.sectionEnd === MINIMAX_M3_TURN && l.separator === "",
  },
  "functionary-v3.1": {
    matches: (l) => l.skeleton === "<function=⟨NAME⟩>⟨ARGS⟩</function>",
    exact: (l) => l.sectionStart === "" && l.separator === "" && l.sectionEnd === "<|eom_id|>",
  },
  "functionary-v3.2": {
    matches: (l) => l.skeleton === "⟨NAME⟩\n⟨ARGS⟩" && l.separator === ">>>",
    // the generation prompt writes the first `>>>`, so the turn starts with the first call's name
    exact: (l) => l.sectionStart === "" && l.callOpen === "" && l.callClose === "" && l.sectionEnd === "",
  },
  gemma4: {
    matches: (l) => l.skeleton.startsWith("<|tool_call>call:⟨NAME⟩{") && l.skeleton.endsWith("}<tool_call|>"),
    // the main template writes `<|tool_response>` after the calls (the call turn's end), the interleaved one nothing
    exact: (l) =>
      l.skeleton === GEMMA4_UNIT &&
      l.sectionStart === "" &&
      l.separator === "" &&
      (l.sectionEnd === "" || l.sectionEnd === "<|tool_response>"),
  },
  lfm2: {
    matches: (l) => l.sectionStart === "<|tool_call_start|>[" && l.arguments === "python",
    exact: (l) => l.sectionEnd === "]<|tool_call_end|>",
  },
  "nemotron-v2": {
    matches: (l) => l.sectionStart === "<TOOLCALL>[" && l.skeleton === '{"name": "⟨NAME⟩", "arguments": ⟨ARGS⟩}',
    exact: (l) => l.sectionEnd === "]</TOOLCALL>" && l.separator === ", ",
  },
  apertus: {
    matches: (l) => l.sectionStart === "<|tools_prefix|>[" && l.skeleton === '{"⟨NAME⟩": ⟨ARGS⟩}',
    exact: (l) => l.sectionEnd === "]<|tools_suffix|>" && l.separator === ", ",
  },
  "command-r7b": {
    matches: (l) =>
      l.sectionStart.startsWith("<|START_ACTION|>[") &&
      l.skeleton.includes('"tool_name": "⟨NAME⟩", "parameters": ⟨ARGS⟩'),
    exact: (l) =>
      l.sectionStart === "<|START_ACTION|>[" &&
      l.skeleton === '\n    {"tool_call_id": "⟨INDEX0⟩", "tool_name": "⟨NAME⟩", "parameters": ⟨ARGS⟩}' &&
      l.separator === "," &&
      l.sectionEnd.startsWith("\n]<|END_ACTION|>"),
  },
  "command-r-plus": {
    matches: (l) => l.sectionStart.includes("Action:\n```json\n[") && l.skeleton.includes('"tool_name": "⟨NAME⟩"'),
    exact: (l) => l.sectionStart === "\nAction:\n```json\n[" && l.separator === "," && l.sectionEnd === "\n]```\n",
  },
  "seed-oss": {
    matches: (l) =>
      l.skeleton ===
      "<seed:tool_call>\n<function=⟨NAME⟩>\n<parameter=⟨K1⟩>⟨V1⟩</parameter>\n<parameter=⟨K2⟩>⟨V2⟩</parameter>\n</function>\n</seed:tool_call>",
    exact: (l) => l.sectionStart === "" && l.sectionEnd === "" && l.separator === "\n",
  },
  gigachat3: {
    matches: (l) =>
      l.skeleton.includes("function call<|role_sep|>\n") &&
      l.skeleton.endsWith('{"name": "⟨NAME⟩", "arguments": ⟨ARGS⟩}'),
    exact: (l) =>
      l.skeleton === '<|message_sep|>\n\nfunction call<|role_sep|>\n{"name": "⟨NAME⟩", "arguments": ⟨ARGS⟩}' &&
      l.sectionStart === "" &&
      l.sectionEnd === "",
  },
  "gigachat3-1": {
    matches: (l) => l.skeleton === '<|function_call|>{"name": "⟨NAME⟩", "arguments": ⟨ARGS⟩}',
    exact: (l) => l.sectionStart === "" && l.sectionEnd === "",
  },
  // Apriel 1.5 / 1.6's templates write a newline before the list (text before the calls, so not `exact`)
  "hunyuan-a13b": {
    matches: (l) =>
      l.sectionStart.trim() === "<tool_calls>[" &&
      l.sectionEnd === "]</tool_calls>" &&
      l.skeleton === '{"name": "⟨NAME⟩", "arguments": ⟨ARGS⟩}',
    exact: (l) => l.sectionStart === "<tool_calls>[",
  },
  minicpm5: {
    matches: (l) =>
      l.skeleton ===
      '<function name="⟨NAME⟩"><param name="⟨K1⟩">⟨V1⟩</param><param name="⟨K2⟩">⟨V2⟩</param></function>',
    exact: (l) => l.sectionStart === "" && l.sectionEnd === "" && l.separator === "\n",
  },
  hy3: {
    matches: (l) =>
      l.sectionStart === "<tool_calls:opensource>" &&
      l.skeleton.includes("<arg_key:opensource>⟨K1⟩</arg_key:opensource>"),
    exact: (l) => l.sectionEnd === "\n</tool_calls:opensource><｜hy_eos:opensource｜>" && l.separator === "",
  },
  "solar-open": {
    matches: (l) =>
      l.skeleton === "<|tool_call:begin|>⟨ID⟩<|tool_call:name|>⟨NAME⟩<|tool_call:args|>⟨ARGS⟩<|tool_call:end|>",
    exact: (l) => l.sectionStart === "<|tool_calls|>" && l.sectionEnd === "<|calls|>" && l.separator === "",
  },
  "firefunction-v2": {
    matches: (l) => l.sectionStart.trim() === "functools[" && l.skeleton === '{"name": "⟨NAME⟩", "arguments": ⟨ARGS⟩}',
    exact: (l) => l.sectionStart === " functools[" && l.separator === ", " && l.sectionEnd === "]",
  },
  "muse-glimmer": {
    matches: (l) => l.skeleton.includes('<atem:invoke name="⟨NAME⟩">'),
    // each call is a message of its own (` to=NAME<|message|>…`), the turn's first ` to=` written by the turn itself
    exact: (l) =>
      l.sectionStart === "" &&
      l.callOpen === "" &&
      l.sectionEnd === "" &&
      l.separator === "<|eom|><|start|>assistant to=",
  },
};

/** The first format whose matcher accepts `layout`, and whether toolgram renders that layout exactly. */
export function recognizeFormat(layout: CallLayout): { format: FormatName; exact: boolean } | undefined {
  for (const [format, m] of Object.entries(KNOWN_FORMATS) as [FormatName, KnownFormat][])
    if (m.matches(layout)) return { format, exact: m.exact(layout) };
  return undefined;
}
