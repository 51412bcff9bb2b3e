import { ToolgramError } from "../errors.js";
import { nameDerived } from "../formats/derivedFormats.js";
import type {
  CallUnitDescription,
  FormatDescription,
  JsonObjectUnit,
  ReasoningDescription,
} from "../formats/FormatDescription.js";
import type { CallLayout } from "./readCallLayout.js";
import type { ReasoningLayout } from "./readReasoning.js";

/**
 * A format description built from what a chat template renders, for a layout no described format has (llama.cpp's
 * autoparser does the same): the call unit is found in the layout's skeleton (a JSON object with the name and the
 * arguments, the name then a JSON object, or a Python call), the text before and after it becomes the block's
 * markers and padding, and the section, separator and reasoning markers are the layout's. The parts are the ones the
 * hand-written descriptions are made of, so the grammar, the parsers, the renderer and the prompt use a derived
 * description as they use a described one. `typedCall` (the probe's render of a call with a number argument) shows
 * whether a tagged parameter writes its value's type. Throws UNRECOGNIZED_TEMPLATE naming the part of the layout that does not
 * say one format.
 */
export function deriveFormat(layout: CallLayout, reasoning: ReasoningLayout, typedCall?: string): FormatDescription {
  const found = findUnit(layout, typedCall);
  const frame = frameOf(layout, found);
  // a placeholder left in a marker (a counter, a second name) is a part of the call derivation did not read
  const left = /⟨[A-Z0-9]+⟩/.exec(JSON.stringify([found.unit, frame]));
  if (left !== null) refuse(`the call's markers hold ${left[0]}, which derivation does not read there`, layout);
  return nameDerived({
    family: `derived from a chat template (${found.unit.kind} calls)`,
    aliases: [],
    startPrefixes: [],
    specialTokens: [],
    ...frame,
    unit: found.unit,
    maxCalls: layout.separator === undefined || unmarked(frame) ? 1 : Infinity,
    reasoning: reasoningOf(reasoning),
  });
}

/**
 * JSON call objects with nothing around or between them but a separator (vLLM's Llama 4 JSON and Phi-4-mini
 * examples: `{…}{…}`, `{…},{…}`): the reply is one call, as Llama 3's JSON (llama3-json). A block without an opening
 * marker can only start the reply, so a later object would be text after the calls; the template's turns of several
 * calls are not accepted.
 */
function unmarked(frame: Frame): boolean {
  return frame.grouping === "block" && frame.open === null && frame.section === undefined;
}

/** The call unit inside the skeleton, with the skeleton's text before and after it. */
interface FoundUnit {
  unit: CallUnitDescription;
  prefix: string;
  suffix: string;
}

function refuse(part: string, layout: CallLayout): never {
  throw new ToolgramError(
    "UNRECOGNIZED_TEMPLATE",
    `the chat template's tool-call layout is not a known format and cannot be derived: ${part}; a call renders as ` +
      `${JSON.stringify(layout.skeleton)} (section start ${JSON.stringify(layout.sectionStart)}, end ` +
      `${JSON.stringify(layout.sectionEnd)}, separator ${JSON.stringify(layout.separator ?? null)})`,
  );
}

function findUnit(layout: CallLayout, typedCall: string | undefined): FoundUnit {
  const k = layout.skeleton;
  if (!k.includes("⟨NAME⟩")) refuse("the call does not show the tool's name", layout);
  if (layout.arguments === "json") return jsonObjectUnit(layout) ?? namedJsonUnit(layout);
  // a template that writes string values unquoted (`city=Paris`) still shows Python keyword arguments
  if (layout.arguments === "python" || /⟨NAME⟩[^(⟨⟩]*\(⟨K1⟩=⟨V1⟩, ⟨K2⟩=⟨V2⟩\)/.test(k))
    return pythonUnit(layout, typedCall);
  if (layout.arguments === "tagged") return xmlParametersUnit(layout, typedCall);
  return refuse("the arguments are neither one JSON object nor Python keyword arguments", layout);
}

/** A value the probe wrote into a JSON call object, as the skeleton shows it. */
const MEMBER_VALUE = '"⟨NAME⟩"|⟨ARGS⟩|"⟨ID⟩"|"⟨INDEX0⟩"|"⟨INDEX1⟩"';
const MEMBER = `"[^"\\\\⟨⟩]+": (?:${MEMBER_VALUE})`;
const JSON_UNIT = new RegExp(`\\{${MEMBER}(?:, ${MEMBER})*\\}|\\{"⟨NAME⟩": ⟨ARGS⟩\\}`);

/** `{"name": "⟨NAME⟩", "arguments": ⟨ARGS⟩[, "id": "⟨ID⟩"]}` in canonicalJson's spelling, any key names. */
function jsonObjectUnit(layout: CallLayout): FoundUnit | undefined {
  const m = JSON_UNIT.exec(layout.skeleton);
  if (m === null || !m[0].includes("⟨ARGS⟩")) return undefined;
  const text = m[0];
  const prefix = layout.skeleton.slice(0, m.index);
  const suffix = layout.skeleton.slice(m.index + text.length);
  if (text === '{"⟨NAME⟩": ⟨ARGS⟩}') {
    const unit: JsonObjectUnit = {
      kind: "json-object",
      nameKey: null,
      argumentsKey: "arguments",
      argumentsAliases: [],
      idKey: null,
      argumentsEncoding: "object",
    };
    return { unit, prefix, suffix };
  }
  const members = [...text.matchAll(new RegExp(`"([^"\\\\⟨⟩]+)": (${MEMBER_VALUE})`, "g"))].map((x) => ({
    key: x[1] as string,
    value: (x[2] as string).replaceAll('"', ""),
  }));
  const key = (value: string): string | undefined => members.find((x) => x.value === value)?.key;
  const nameKey = key("⟨NAME⟩");
  const argumentsKey = key("⟨ARGS⟩");
  if (nameKey === undefined || argumentsKey === undefined)
    refuse("the call object holds the name or the arguments twice", layout);
  if (members.some((x) => x.value === "⟨INDEX1⟩"))
    refuse("the call object numbers the calls from 1, which no call id can say", layout);
  const idKey = key("⟨ID⟩") ?? key("⟨INDEX0⟩") ?? null;
  const order = members.map((x) => (x.key === nameKey ? "n" : x.key === argumentsKey ? "a" : "i")).join("");
  const idPosition = { na: undefined, nia: undefined, ina: "first", nai: "last" }[
    order
  ] as JsonObjectUnit["idPosition"];
  if (!(order in { na: 1, nia: 1, ina: 1, nai: 1 })) refuse(`the call object's key order (${order})`, layout);
  const unit: JsonObjectUnit = {
    kind: "json-object",
    nameKey,
    argumentsKey,
    argumentsAliases:
      argumentsKey === "arguments" ? ["parameters"] : argumentsKey === "parameters" ? ["arguments"] : [],
    idKey,
    ...(idKey !== null && idPosition !== undefined ? { idPosition } : {}),
    ...(key("⟨INDEX0⟩") !== undefined ? { idForm: { alphabet: "digits", minLength: 1, maxLength: 6 } as const } : {}),
    argumentsEncoding: "object",
  };
  return { unit, prefix, suffix };
}

/**
 * One tagged element per argument (Qwen3-Coder's `<function=NAME>\n<parameter=K>\nV\n</parameter>\n</function>`,
 * GLM's `NAME<arg_key>K</arg_key><arg_value>V</arg_value>`, MiniCPM5's `<param name="K">V</param>`): the text between
 * a key and its value, after a value (up to the next key's opening marker, which the second value's end does not
 * share), before the first key (the name's close) and after the last value. The call's own opening marker is what
 * follows the block's last complete marker (`<function=` after `<tool_call>\n`), and then its first closing marker
 * closes the call, when a closing marker of the block follows it; else the block's markers are the call's.
 */
function xmlParametersUnit(layout: CallLayout, typedCall: string | undefined): FoundUnit {
  const k = layout.skeleton;
  const at = (p: string): number => k.indexOf(p);
  const [n, k1, v1, k2, v2] = ["⟨NAME⟩", "⟨K1⟩", "⟨V1⟩", "⟨K2⟩", "⟨V2⟩"].map(at) as [
    number,
    number,
    number,
    number,
    number,
  ];
  if (!(n < k1 && k1 < v1 && v1 < k2 && k2 < v2) || k.indexOf("⟨NAME⟩", n + 1) >= 0)
    refuse("the tagged arguments do not follow the name one after another", layout);
  const keyClose = k.slice(k1 + 4, v1);
  if (k.slice(k2 + 4, v2) !== keyClose) refuse("the two arguments' keys are closed differently", layout);
  const mid = k.slice(v1 + 4, k2);
  const end = k.slice(v2 + 4);
  const valueClose = markerCut(commonPrefix(mid, end));
  const keyOpen = mid.slice(valueClose.length);
  if (keyOpen === "" || !k.slice(0, k1).endsWith(keyOpen)) refuse("the opening of an argument's key", layout);
  // a key closed by text naming a type (`string="true"`, `type="string"`) writes each value's type with it
  const typed =
    typedCall === undefined ? /string|type/i.test(keyClose) : !typedCall.includes(`${keyOpen}NN_ARG_NUM_NN${keyClose}`);
  if (typed) refuse("an argument's key is written with its value's type", layout);
  const pre = k.slice(0, n);
  const nameClose = k.slice(n + "⟨NAME⟩".length, k1 - keyOpen.length);
  const tail = end.slice(valueClose.length);
  const own = /^([\s\S]*(?:>|\])\s*)(\S[\s\S]*)$/.exec(pre);
  const ownClose = /^(?:<[^<>]*>|\[[^[\]]*\])/.exec(tail)?.[0] ?? "";
  // the call has markers of its own only inside a block that has its own closing marker; else the call's are the block's
  const split = own !== null && ownClose !== "" && tail.slice(ownClose.length).trim() !== "";
  const nameOpen = split ? (own[2] as string) : "";
  const callClose = split ? ownClose : "";
  return {
    unit: { kind: "xml-parameters", nameOpen, nameClose, keyOpen, keyClose, valueClose, callClose },
    prefix: pre.slice(0, pre.length - nameOpen.length),
    suffix: tail.slice(callClose.length),
  };
}

function commonPrefix(a: string, b: string): string {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return a.slice(0, i);
}

/** A prefix cut before a marker it holds only the start of (`</parameter>\n<` → `</parameter>\n`). */
function markerCut(text: string): string {
  const open = Math.max(text.lastIndexOf("<"), text.lastIndexOf("["));
  if (open < 0) return text;
  return /[>\]]/.test(text.slice(open)) ? text : text.slice(0, open);
}

/** A marker at the end of a text: `<…>`, `[…]` (special tokens of most families are spelled so). */
const TRAILING_MARKER = /(?:<[^<>\s]+>|\[[^[\]\s]+\])$/;

/** `⟨NAME⟩ + nameClose + ⟨ARGS⟩ + argumentsClose`: DeepSeek's, Kimi's, harmony's and Functionary's calls. */
function namedJsonUnit(layout: CallLayout): FoundUnit {
  const k = layout.skeleton;
  const n = k.indexOf("⟨NAME⟩");
  const a = k.indexOf("⟨ARGS⟩");
  if (a < n) refuse("the arguments come before the tool's name outside a JSON object", layout);
  let prefix = k.slice(0, n);
  let between = k.slice(n + "⟨NAME⟩".length, a);
  const withId = nameThenJson(layout, prefix, between, k.slice(a + "⟨ARGS⟩".length));
  if (withId !== undefined) return withId;
  let callIndex: { namePrefix: string; indexSeparator: string } | undefined;
  const index = /^([^⟨⟩]*)⟨INDEX0⟩/.exec(between);
  if (index !== null) {
    // Kimi K2's `functions.NAME:0`: the text after the block's last marker prefixes the name
    const marker = /(?:<[^<>]*>|\[[^[\]]*\])(?=[^<>[\]]*$)/.exec(prefix);
    const cut = marker === null ? 0 : marker.index + marker[0].length;
    callIndex = { namePrefix: prefix.slice(cut), indexSeparator: index[1] as string };
    prefix = prefix.slice(0, cut);
    between = between.slice(index[0].length);
  }
  if (/⟨[A-Z0-9]+⟩/.test(between)) refuse(`the text between the name and the arguments (${between})`, layout);
  const rest = k.slice(a + "⟨ARGS⟩".length);
  const core = rest.trimEnd();
  const close = TRAILING_MARKER.exec(core)?.[0] ?? "";
  const argumentsClose = core.slice(0, core.length - close.length);
  return {
    unit: {
      kind: "named-json",
      nameClose: between,
      argumentsClose,
      ...(callIndex === undefined ? {} : { callIndex }),
    },
    prefix,
    suffix: rest.slice(argumentsClose.length),
  };
}

/** Names Mistral's tokenizers write: what the parser reads up to the marker. */
const NAME_PATTERN = /^[A-Za-z0-9_.-]{1,64}$/;

/**
 * A call whose id sits between markers next to the name: Mistral Small 3.2's `NAME[CALL_ID]ID[ARGS]{…}` (the id
 * after the name) or Solar Open's `ID<|tool_call:name|>NAME<|tool_call:args|>{…}` (before it).
 */
function nameThenJson(layout: CallLayout, prefix: string, between: string, rest: string): FoundUnit | undefined {
  const after = /^([^⟨⟩]+)⟨ID⟩([^⟨⟩]+)$/.exec(between);
  const before = /⟨ID⟩([^⟨⟩]+)$/.exec(prefix);
  if (after === null && before === null) return undefined;
  if (after !== null) {
    const unit = {
      kind: "name-then-json" as const,
      argumentsMarker: after[2] as string,
      namePattern: NAME_PATTERN,
      idMarker: after[1] as string,
    };
    return { unit, prefix, suffix: rest };
  }
  const b = before as RegExpExecArray;
  if (/⟨[A-Z0-9]+⟩/.test(between)) refuse(`the text between the name and the arguments (${between})`, layout);
  const unit = {
    kind: "name-then-json" as const,
    argumentsMarker: between,
    namePattern: NAME_PATTERN,
    idMarker: b[1] as string,
    idFirst: true,
  };
  return { unit, prefix: prefix.slice(0, b.index), suffix: rest };
}

/** `⟨NAME⟩(⟨K1⟩="⟨V1⟩", ⟨K2⟩="⟨V2⟩")`, strings between quotes or apostrophes, an optional `.call`-like suffix. */
function pythonUnit(layout: CallLayout, typedCall: string | undefined): FoundUnit {
  // unquoted strings are no Python: the unit quotes them as Python does (and as models trained on it write them)
  const m = /⟨NAME⟩([^(⟨⟩]*)\(⟨K1⟩=(["']?)⟨V1⟩\2(,[ \n]*)⟨K2⟩=\2⟨V2⟩\2\)/.exec(layout.skeleton);
  if (m === null) refuse("the Python call's spelling of its keyword arguments", layout);
  const callSuffix = m[1] as string;
  const separator = m[3] as string;
  // the probe's boolean argument: a template writing values with `tojson` (MiniCPM3) spells it `true`, as JSON does
  // (LFM2's writes a top-level value with `string`, Python's `True`, and only an object with `tojson`)
  const json = typedCall !== undefined && /TT_ARG_BOOL_TT=true\b/.test(typedCall);
  return {
    unit: {
      kind: "python-call",
      ...(m[2] === "'" ? { quote: "single" as const } : {}),
      ...(callSuffix === "" ? {} : { callSuffix }),
      ...(separator === ", " ? {} : { argumentSeparator: separator }),
      ...(json ? { literals: "json" as const } : {}),
    },
    prefix: layout.skeleton.slice(0, m.index),
    suffix: layout.skeleton.slice(m.index + m[0].length),
  };
}

type Frame = Pick<
  FormatDescription,
  "open" | "close" | "grouping" | "afterOpen" | "beforeClose" | "blockSeparator" | "section" | "afterCalls" | "list"
>;

/**
 * The markers around the unit: a bracketed list when the section is `…[` / `]…` and the units stand bare between
 * them; else blocks, opened by the skeleton's text before the unit (its trailing whitespace the padding, when a
 * closing marker pads back) and closed by the text after it, in the template's section when it writes one.
 */
function frameOf(layout: CallLayout, found: FoundUnit): Frame {
  const { prefix, suffix } = found;
  const s = layout.sectionStart;
  const e = layout.sectionEnd;
  const p = layout.separator;
  if (
    p !== undefined &&
    prefix === "" &&
    suffix === "" &&
    s.endsWith("[") &&
    e.startsWith("]") &&
    found.unit.kind !== "named-json"
  ) {
    return {
      grouping: "list",
      open: s.slice(0, -1) === "" ? null : s.slice(0, -1),
      close: e.slice(1) === "" ? null : e.slice(1),
      afterOpen: "",
      beforeClose: "",
      blockSeparator: "",
      ...(p === ", " ? {} : { list: { open: "[", separator: p, close: "]" } }),
    };
  }
  const openMarker = prefix.trimEnd();
  const closeMarker = suffix.trimStart();
  // padding after `open` pairs with padding before `close` (Qwen3's `<tool_call>\n…\n</tool_call>`); with no
  // closing marker the whitespace belongs to the markers and separators
  const padded = openMarker !== "" && closeMarker !== "";
  const open = padded ? openMarker : prefix;
  const close = padded ? closeMarker : suffix;
  const afterOpen = padded ? prefix.slice(openMarker.length) : "";
  const beforeClose = padded ? suffix.slice(0, suffix.length - closeMarker.length) : "";
  // a marker that is only whitespace is no marker: it joins the section's markers and the separator
  // in a section, whitespace before the call's marker belongs to the section and the separator (MiniMax M2's
  // `<minimax:tool_call>\n<invoke …`)
  const inSection = s !== "" ? (/^\s*/.exec(open)?.[0] ?? "") : "";
  const openText = open.trim() === "" ? "" : open.slice(inSection.length);
  const closeText = close.trim() === "" ? "" : close;
  const lead = openText === "" ? open : inSection;
  const trail = closeText === "" ? close : "";
  const sectionOpen = s + lead;
  const tail = trail + e;
  if (openText === "" && sectionOpen === "" && p !== undefined && found.unit.kind !== "json-object")
    refuse("no marker opens a call and no section holds the calls, so where a call starts is not written", layout);
  if (s === "" && lead !== "")
    refuse("only whitespace comes before the call, with no section around the calls", layout);
  if (found.unit.kind === "json-object" && openText === "" && closeText === "" && tail === "" && p !== undefined)
    return bracketlessJson(sectionOpen, blockSeparator(trail, p, lead));
  // beyond a JSON list without brackets, a section opened and never closed does not say where the calls end (Xinference's Qwen1.5 template writes
  // `<tool_call>\n` once, then each call's own `</tool_call>`)
  if (s !== "" && tail === "")
    refuse("the calls' section is opened but nothing closes it, so where the calls end is not written", layout);
  if (found.unit.kind === "python-call" && openText === "" && closeText === "" && s !== "")
    return bracketless(layout, sectionOpen, blockSeparator(trail, p, lead), tail);
  return {
    grouping: "block",
    open: openText === "" ? null : openText,
    close: closeText === "" ? null : closeText,
    afterOpen,
    beforeClose,
    blockSeparator: blockSeparator(trail, p, lead),
    ...(s !== "" ? { section: { open: sectionOpen, close: tail } } : tail === "" ? {} : { afterCalls: tail }),
  };
}

function blockSeparator(trail: string, p: string | undefined, lead: string): string {
  return trail + (p ?? "") + lead;
}

/**
 * Python calls one after another in a section, with no marker of their own (OLMo 3's `<function_calls>\nf(…)\ng(…)
 * \n</function_calls>`): a list without brackets, the section's markers its block's, their whitespace its padding.
 */
function bracketless(layout: CallLayout, open: string, separator: string, close: string): Frame {
  const openMarker = open.trimEnd();
  const closeMarker = close.trimStart();
  if (closeMarker === "") refuse("Python calls with no marker of their own and no marker closing them", layout);
  return {
    grouping: "list",
    open: openMarker,
    close: closeMarker,
    afterOpen: open.slice(openMarker.length),
    beforeClose: close.slice(0, close.length - closeMarker.length),
    blockSeparator: "",
    list: { open: "", separator, close: "" },
  };
}

/**
 * JSON call objects one after another with no marker of their own and nothing after the last (vLLM's Phi-4-mini and
 * Llama 4 JSON examples: `{…},{…}`, `{…}{…}`; Axolotl's Llama 4 after `<|python_start|><|python_end|>`): a list without
 * brackets, each object ending at its brace, the list where no separator and `{` follow. Without an opening marker
 * the list is the whole reply.
 */
function bracketlessJson(open: string, separator: string): Frame {
  const marker = open.trimEnd();
  return {
    grouping: "list",
    open: marker === "" ? null : marker,
    close: null,
    afterOpen: open.slice(marker.length),
    beforeClose: "",
    blockSeparator: "",
    list: { open: "", separator, close: "" },
  };
}

/** The template's reasoning block, expected by default as the template frames it. */
function reasoningOf(r: ReasoningLayout): ReasoningDescription | null {
  if (r.mode === "none" || r.end === "") return null;
  return { open: r.start, close: r.end, defaultMode: r.mode };
}
