import type { CallLayout } from "./readCallLayout.js";

/**
 * Tool-call wire formats recognised from the markers a template renders (never from the template's source text).
 * `name` is toolgram's format name when toolgram implements the format today, else a stable proposed name (vLLM's
 * tool-parser name where vLLM has one); `aliases` are the other names configurations use for it.
 */
export interface KnownFormat {
  readonly name: string;
  /**
   * toolgram renders exactly this layout today under `name` (byte for byte, checked in test/templates against
   * renderToolCalls); absent for formats toolgram does not implement yet.
   */
  readonly exact?: (l: CallLayout) => boolean;
  readonly aliases: readonly string[];
  /** The model families whose templates render it (documentation only). */
  readonly families: string;
  readonly matches: (l: CallLayout) => boolean;
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

/** Ordered: the first match names the format. */
export const KNOWN_FORMATS: readonly KnownFormat[] = [
  {
    name: "reka-edge",
    exact: (l) => l.sectionStart === "" && l.sectionEnd === "",
    aliases: [],
    families: "Reka Edge (Qwen3's calls, blocks not separated)",
    matches: (l) => l.skeleton === HERMES_UNIT && l.separator === "",
  },
  {
    name: "qwen3",
    exact: (l) => l.skeleton === HERMES_UNIT && l.sectionStart === "" && l.sectionEnd === "" && l.separator === "\n",
    aliases: ["hermes", "granite4"],
    families:
      "Qwen2.5, Qwen3, QwQ, Hermes 2 Pro / 3, Granite 4, MiMo-VL; Bielik (a newline before the first call, read as text before the calls)",
    matches: (l) => l.skeleton.trim() === HERMES_UNIT && l.sectionStart.trim() === "" && l.sectionEnd.trim() === "",
  },
  {
    name: "minimax-m1",
    exact: (l) => l.sectionEnd === "\n</tool_calls>" && l.separator === "",
    aliases: ["minimax", "minimax_m1"],
    families: "MiniMax-M1",
    matches: (l) => l.sectionStart === "<tool_calls>" && l.skeleton === '\n{"name": "⟨NAME⟩", "arguments": ⟨ARGS⟩}',
  },
  {
    name: "llama3-json",
    exact: (l) => l.sectionEnd === "",
    aliases: ["llama3_json"],
    families: "Llama 3.1 / 3.2 / 3.3",
    matches: (l) =>
      l.skeleton === '{"name": "⟨NAME⟩", "parameters": ⟨ARGS⟩}' && l.sectionStart === "" && l.separator === undefined,
  },
  {
    name: "mistral-nemo",
    exact: (l) =>
      l.sectionStart === "[TOOL_CALLS][" &&
      l.skeleton === '{"name": "⟨NAME⟩", "arguments": ⟨ARGS⟩, "id": "⟨ID⟩"}' &&
      l.separator === ", " &&
      l.sectionEnd === "]",
    aliases: ["mistral_nemo"],
    families: "Mistral Nemo (keys name, arguments, id: the id last)",
    matches: (l) =>
      l.sectionStart === "[TOOL_CALLS][" && l.skeleton.startsWith('{"name": "⟨NAME⟩", "arguments": ⟨ARGS⟩'),
  },
  {
    name: "mistral-v11-call-id",
    exact: (l) => l.sectionStart === "" && l.sectionEnd === "" && l.separator === "",
    aliases: ["mistral_args_call_id"],
    families: "Mistral Small 3.2 (`[TOOL_CALLS]NAME[CALL_ID]ID[ARGS]{…}`)",
    matches: (l) => l.skeleton === "[TOOL_CALLS]⟨NAME⟩[CALL_ID]⟨ID⟩[ARGS]⟨ARGS⟩",
  },
  {
    name: "mistral-v11",
    exact: (l) => l.sectionStart === "" && l.sectionEnd === "" && l.separator === "",
    aliases: ["mistral_args"],
    families: "Devstral, Ministral 3 / Magistral (`[TOOL_CALLS]NAME[ARGS]{…}`)",
    matches: (l) => l.skeleton === "[TOOL_CALLS]⟨NAME⟩[ARGS]⟨ARGS⟩",
  },
  {
    name: "nemotron-3-nano",
    exact: (l) => l.sectionStart === "" && l.sectionEnd === "",
    aliases: [],
    families: "NVIDIA Nemotron 3 Nano (Qwen3-Coder's calls, a newline after each block)",
    matches: (l) => l.skeleton === `${QWEN3_CODER_UNIT}\n` && l.separator === "",
  },
  {
    name: "step-3.5",
    exact: (l) => l.sectionStart === "" && l.sectionEnd === "",
    aliases: [],
    families: "StepFun Step 3.5 Flash (Qwen3-Coder's calls, blocks not separated)",
    matches: (l) => l.skeleton === QWEN3_CODER_UNIT && l.separator === "",
  },
  {
    name: "qwen3_coder",
    aliases: ["qwen3_xml"],
    families: "Qwen3-Coder, Qwen3.5",
    matches: (l) => l.skeleton.trim() === QWEN3_CODER_UNIT,
  },
  {
    name: "glm-4.5",
    exact: (l) => l.sectionStart === "" && l.sectionEnd === "" && l.separator === "\n",
    aliases: ["glm45"],
    families: "GLM-4.5 / 4.6, Laguna XS (newlines between the tags)",
    matches: (l) =>
      l.skeleton ===
      "<tool_call>⟨NAME⟩\n<arg_key>⟨K1⟩</arg_key>\n<arg_value>⟨V1⟩</arg_value>\n<arg_key>⟨K2⟩</arg_key>\n<arg_value>⟨V2⟩</arg_value>\n</tool_call>",
  },
  {
    name: "glm-4.7",
    exact: (l) => l.sectionStart === "" && l.sectionEnd === "" && l.separator === "",
    aliases: ["glm47"],
    families: "GLM-4.7, Laguna S (no newlines)",
    matches: (l) =>
      l.skeleton ===
      "<tool_call>⟨NAME⟩<arg_key>⟨K1⟩</arg_key><arg_value>⟨V1⟩</arg_value><arg_key>⟨K2⟩</arg_key><arg_value>⟨V2⟩</arg_value></tool_call>",
  },
  {
    name: "deepseek-v3",
    exact: (l) => l.sectionEnd === "<｜tool▁calls▁end｜>" && l.separator === "\n",
    aliases: ["deepseek_v3", "deepseek_r1"],
    families: "DeepSeek V3 / R1 and its distills",
    matches: (l) =>
      l.sectionStart === "<｜tool▁calls▁begin｜>" &&
      l.skeleton === "<｜tool▁call▁begin｜>function<｜tool▁sep｜>⟨NAME⟩\n```json\n⟨ARGS⟩\n```<｜tool▁call▁end｜>",
  },
  {
    name: "deepseek-v3.1",
    exact: (l) => l.sectionEnd === "<｜tool▁calls▁end｜>" && l.separator === "",
    aliases: ["deepseek_v31"],
    families: "DeepSeek V3.1",
    matches: (l) =>
      l.sectionStart === "<｜tool▁calls▁begin｜>" &&
      l.skeleton === "<｜tool▁call▁begin｜>⟨NAME⟩<｜tool▁sep｜>⟨ARGS⟩<｜tool▁call▁end｜>",
  },
  {
    name: "deepseek-v3.2",
    exact: (l) =>
      l.sectionStart === "<｜DSML｜function_calls>" &&
      l.sectionEnd === "\n</｜DSML｜function_calls>" &&
      l.separator === "" &&
      l.skeleton === DSML_UNIT,
    aliases: ["deepseek_v32"],
    // the templates write `\n\n` before the section: toolgram reads it as text before the calls (as for Bielik), so
    // its renderer writes the section alone and these templates are not `exact`
    families:
      "DeepSeek V3.2 (DSML `function_calls`; the two newlines before the section are read as text before the calls)",
    matches: (l) =>
      l.sectionStart.trim() === "<｜DSML｜function_calls>" && l.callOpen.trim() === '<｜DSML｜invoke name="',
  },
  {
    name: "deepseek-v4",
    exact: (l) =>
      l.sectionStart === "<｜DSML｜tool_calls>" &&
      l.sectionEnd === "\n</｜DSML｜tool_calls>" &&
      l.separator === "" &&
      l.skeleton === DSML_UNIT,
    aliases: ["deepseek_v4"],
    families:
      "DeepSeek V4, V4 Flash (DSML `tool_calls`; the two newlines before the section are read as text before the calls)",
    matches: (l) => l.sectionStart.trim() === "<｜DSML｜tool_calls>" && l.callOpen.trim() === '<｜DSML｜invoke name="',
  },
  {
    name: "kimi-k2",
    exact: (l) => l.sectionEnd === "<|tool_calls_section_end|>" && l.separator === "",
    aliases: ["kimi_k2"],
    families: "Kimi K2",
    matches: (l) =>
      l.sectionStart === "<|tool_calls_section_begin|>" &&
      l.skeleton.startsWith("<|tool_call_begin|>functions.⟨NAME⟩:⟨INDEX0⟩<|tool_call_argument_begin|>⟨ARGS⟩"),
  },
  {
    name: "kimi-k3",
    exact: (l) =>
      l.sectionStart === "<|close|>response<|sep|><|open|>tools" &&
      l.sectionEnd === "<|sep|><|close|>tools<|sep|>" &&
      l.separator === "",
    aliases: ["kimi_k3"],
    families: "Kimi K3 (`<|open|>call tool=…` with typed arguments)",
    matches: (l) => l.skeleton.includes('<|open|>call tool="⟨NAME⟩"') && l.arguments === "tagged",
  },
  {
    name: "openai",
    exact: (l) =>
      l.skeleton === " to=functions.⟨NAME⟩<|channel|>commentary json<|message|>⟨ARGS⟩<|call|>" &&
      l.sectionStart === "" &&
      l.sectionEnd === "",
    aliases: ["harmony", "gpt-oss", "gpt_oss"],
    families: "gpt-oss (harmony)",
    matches: (l) =>
      l.skeleton.startsWith(" to=functions.⟨NAME⟩<|channel|>commentary") && l.skeleton.endsWith("<|call|>"),
  },
  {
    name: "minimax-m2",
    exact: (l) =>
      l.sectionStart === "\n<minimax:tool_call>" &&
      l.callOpen === '\n<invoke name="' &&
      l.separator === "" &&
      l.sectionEnd === "\n</minimax:tool_call>",
    aliases: ["minimax_m2", "MiniMax-M2"],
    families: "MiniMax-M2",
    matches: (l) => l.sectionStart.trim() === "<minimax:tool_call>" && l.callOpen.trim() === '<invoke name="',
  },
  {
    name: "minimax-m3",
    // the one-call turn, however the layout reader splits it between the section's markers and the call
    exact: (l) => l.sectionStart + l.skeleton + l.sectionEnd === MINIMAX_M3_TURN && l.separator === "",
    aliases: ["minimax_m3"],
    families: "MiniMax-M3 (`]<]minimax[>[` separators, arguments as XML elements)",
    matches: (l) => l.skeleton.includes("]<]minimax[>[") && l.skeleton.includes('<invoke name="⟨NAME⟩">'),
  },
  {
    name: "functionary-v3.1",
    exact: (l) => l.sectionStart === "" && l.separator === "" && l.sectionEnd === "<|eom_id|>",
    aliases: ["functionary_v3_1"],
    families: "Functionary v3.1 (Llama 3.1)",
    matches: (l) => l.skeleton === "<function=⟨NAME⟩>⟨ARGS⟩</function>",
  },
  {
    name: "functionary-v3.2",
    // the generation prompt writes the first `>>>`, so the turn starts with the first call's name
    exact: (l) => l.sectionStart === "" && l.callOpen === "" && l.callClose === "" && l.sectionEnd === "",
    aliases: ["functionary_v3_2"],
    families: "Functionary v3.2 (`NAME\\n{…}` messages joined by `>>>`, the first `>>>` in the generation prompt)",
    matches: (l) => l.skeleton === "⟨NAME⟩\n⟨ARGS⟩" && l.separator === ">>>",
  },
  {
    name: "gemma4",
    // the main template writes `<|tool_response>` after the calls (the call turn's end), the interleaved one nothing
    exact: (l) =>
      l.skeleton === GEMMA4_UNIT &&
      l.sectionStart === "" &&
      l.separator === "" &&
      (l.sectionEnd === "" || l.sectionEnd === "<|tool_response>"),
    aliases: ["peg-gemma4"],
    families: "Gemma 4",
    matches: (l) => l.skeleton.startsWith("<|tool_call>call:⟨NAME⟩{") && l.skeleton.endsWith("}<tool_call|>"),
  },
  {
    name: "lfm2",
    exact: (l) => l.sectionEnd === "]<|tool_call_end|>",
    aliases: [],
    families: "LFM2.5 (`<|tool_call_start|>[f(a='x')]<|tool_call_end|>`, Python repr literals)",
    matches: (l) => l.sectionStart === "<|tool_call_start|>[" && l.arguments === "python",
  },
  {
    name: "nemotron-v2",
    exact: (l) => l.sectionEnd === "]</TOOLCALL>" && l.separator === ", ",
    aliases: [],
    families: "Nemotron Nano v2 (`<TOOLCALL>[…]</TOOLCALL>`)",
    matches: (l) => l.sectionStart === "<TOOLCALL>[" && l.skeleton === '{"name": "⟨NAME⟩", "arguments": ⟨ARGS⟩}',
  },
  {
    name: "apertus",
    exact: (l) => l.sectionEnd === "]<|tools_suffix|>" && l.separator === ", ",
    aliases: ["Apertus"],
    families: 'Apertus (`<|tools_prefix|>[{"NAME": {…}}]<|tools_suffix|>`)',
    matches: (l) => l.sectionStart === "<|tools_prefix|>[" && l.skeleton === '{"⟨NAME⟩": ⟨ARGS⟩}',
  },
  {
    name: "command-r7b",
    exact: (l) =>
      l.sectionStart === "<|START_ACTION|>[" &&
      l.skeleton === '\n    {"tool_call_id": "⟨INDEX0⟩", "tool_name": "⟨NAME⟩", "parameters": ⟨ARGS⟩}' &&
      l.separator === "," &&
      l.sectionEnd.startsWith("\n]<|END_ACTION|>"),
    aliases: ["command_r7b", "Command R7B"],
    families: "Command R7B, Cohere2 MoE (`<|START_ACTION|>[…]<|END_ACTION|>`)",
    matches: (l) =>
      l.sectionStart.startsWith("<|START_ACTION|>[") &&
      l.skeleton.includes('"tool_name": "⟨NAME⟩", "parameters": ⟨ARGS⟩'),
  },
  {
    name: "command-r-plus",
    exact: (l) => l.sectionStart === "\nAction:\n```json\n[" && l.separator === "," && l.sectionEnd === "\n]```\n",
    aliases: ["command_r_plus"],
    families: "Command R+ (`Action:\n```json\n[…]```` with each call and its arguments as indented JSON)",
    matches: (l) => l.sectionStart.includes("Action:\n```json\n[") && l.skeleton.includes('"tool_name": "⟨NAME⟩"'),
  },
  {
    name: "seed-oss",
    exact: (l) => l.sectionStart === "" && l.sectionEnd === "" && l.separator === "\n",
    aliases: ["seed_oss"],
    families: "ByteDance Seed-OSS (`<seed:tool_call>` around Qwen3-Coder-like `<function=…>` calls)",
    matches: (l) =>
      l.skeleton ===
      "<seed:tool_call>\n<function=⟨NAME⟩>\n<parameter=⟨K1⟩>⟨V1⟩</parameter>\n<parameter=⟨K2⟩>⟨V2⟩</parameter>\n</function>\n</seed:tool_call>",
  },
  {
    name: "gigachat3",
    exact: (l) =>
      l.skeleton === '<|message_sep|>\n\nfunction call<|role_sep|>\n{"name": "⟨NAME⟩", "arguments": ⟨ARGS⟩}' &&
      l.sectionStart === "" &&
      l.sectionEnd === "",
    aliases: [],
    families: "GigaChat 3 (`function call<|role_sep|>` message)",
    matches: (l) =>
      l.skeleton.includes("function call<|role_sep|>\n") &&
      l.skeleton.endsWith('{"name": "⟨NAME⟩", "arguments": ⟨ARGS⟩}'),
  },
  {
    name: "gigachat3-1",
    exact: (l) => l.sectionStart === "" && l.sectionEnd === "",
    aliases: ["gigachat3_1"],
    families: "GigaChat 3.1 (`<|function_call|>{…}`)",
    matches: (l) => l.skeleton === '<|function_call|>{"name": "⟨NAME⟩", "arguments": ⟨ARGS⟩}',
  },
  {
    name: "hunyuan-a13b",
    exact: (l) => l.sectionStart === "<tool_calls>[",
    aliases: ["hunyuan_a13b", "jamba"],
    families: "Hunyuan A13B, Jamba, Apriel 1.5 / 1.6 (Apriel's template writes a newline before the list)",
    matches: (l) =>
      l.sectionStart.trim() === "<tool_calls>[" &&
      l.sectionEnd === "]</tool_calls>" &&
      l.skeleton === '{"name": "⟨NAME⟩", "arguments": ⟨ARGS⟩}',
  },
  {
    name: "minicpm5",
    exact: (l) => l.sectionStart === "" && l.sectionEnd === "" && l.separator === "\n",
    aliases: [],
    families: "MiniCPM 5",
    matches: (l) =>
      l.skeleton ===
      '<function name="⟨NAME⟩"><param name="⟨K1⟩">⟨V1⟩</param><param name="⟨K2⟩">⟨V2⟩</param></function>',
  },
  {
    name: "hy3",
    exact: (l) => l.sectionEnd === "\n</tool_calls:opensource><｜hy_eos:opensource｜>" && l.separator === "",
    aliases: [],
    families: "Hunyuan 3 (GLM-style `<arg_key:opensource>` calls inside a `<tool_calls:opensource>` section)",
    matches: (l) =>
      l.sectionStart === "<tool_calls:opensource>" &&
      l.skeleton.includes("<arg_key:opensource>⟨K1⟩</arg_key:opensource>"),
  },
  {
    name: "solar-open",
    exact: (l) => l.sectionStart === "<|tool_calls|>" && l.sectionEnd === "<|calls|>" && l.separator === "",
    aliases: ["solar_open"],
    families: "Solar Open (`<|tool_call:begin|>ID<|tool_call:name|>NAME<|tool_call:args|>{…}`)",
    matches: (l) =>
      l.skeleton === "<|tool_call:begin|>⟨ID⟩<|tool_call:name|>⟨NAME⟩<|tool_call:args|>⟨ARGS⟩<|tool_call:end|>",
  },
  {
    name: "firefunction-v2",
    exact: (l) => l.sectionStart === " functools[" && l.separator === ", " && l.sectionEnd === "]",
    aliases: ["FireFunction v2"],
    families: "FireFunction v2 (` functools[…]` after the text)",
    matches: (l) => l.sectionStart.trim() === "functools[" && l.skeleton === '{"name": "⟨NAME⟩", "arguments": ⟨ARGS⟩}',
  },
  {
    name: "muse-glimmer",
    // each call is a message of its own (` to=NAME<|message|>…`), the turn's first ` to=` written by the turn itself
    exact: (l) =>
      l.sectionStart === "" &&
      l.callOpen === "" &&
      l.sectionEnd === "" &&
      l.separator === "<|eom|><|start|>assistant to=",
    aliases: ["muse_glimmer"],
    families: "Muse Glimmer (` to=NAME<|message|><atem:function_calls>…`)",
    matches: (l) => l.skeleton.includes('<atem:invoke name="⟨NAME⟩">'),
  },
];

export function recognizeFormat(layout: CallLayout): KnownFormat | undefined {
  return KNOWN_FORMATS.find((f) => f.matches(layout));
}
