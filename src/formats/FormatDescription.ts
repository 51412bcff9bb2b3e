import type { DerivedFormatName, FormatName } from "./FormatName.js";

/**
 * Everything a wire format is, as plain data: its markers, how its calls are grouped, how one call is written, and
 * its canonical layout. The envelope (src/envelope: the grammar of a turn), the parser (src/parser: scanning blocks,
 * reading call units) and the renderer (`renderToolCalls`) all read this one description, so they cannot drift apart.
 *
 * Canonical text of a reply with calls c1..cn (`unit(c)`: the call unit's canonical text, see CallUnitDescription):
 * - `grouping: "block"`: for each call, `open + afterOpen + unit(c) + beforeClose + close`, blocks joined by
 *   `blockSeparator`, then `afterCalls` (if any).
 * - `grouping: "list"`: `open + afterOpen + "[" + unit(c1) + ", " + … + "]" + beforeClose + close` (one block); `list`
 *   changes the brackets and the separator (OLMo 3's calls one per line, no brackets).
 * - With a `section` (`grouping: "block"` only): `section.open + blocks + section.close`, the blocks as above (DeepSeek's
 *   `<｜tool▁calls▁begin｜>…<｜tool▁calls▁end｜>`, Kimi K2's `<|tool_calls_section_begin|>…`, MiniMax-M1's
 *   `<tool_calls>\n…\n</tool_calls>`); one section holds every call, no calls is no section.
 * A missing marker (`null`) is the empty string. A grammar for the format emits exactly this text around the
 * per-tool argument grammars, after optional free text that never contains `open`; strict parsing accepts exactly
 * this text; `renderToolCalls` writes it.
 *
 * Extension points (a new model family is one more description, plus at most one small module per new unit kind):
 * - markers, padding and separators: `open`, `close`, `afterOpen`, `beforeClose`, `blockSeparator`, `startPrefixes`,
 *   and the `section` around all blocks;
 * - which markers are single special tokens of the family's vocabulary: `specialTokens`;
 * - the call unit: `unit`, one of the kinds of CallUnitDescription. A new kind (Qwen3-Coder's XML parameters,
 *   GLM's `<arg_key>`/`<arg_value>`, Mistral v11's `NAME[ARGS]{…}`) adds a member to that union, a reader/writer in
 *   src/parser/units/ (registered in `UNIT_CODECS`) and a grammar builder in src/envelope/units/ (registered in
 *   `UNIT_GRAMMARS`); the scanner, the call assembler, the stream and the turn grammar are shared;
 * - names users already know the format by (vLLM tool-parser names, llama.cpp chat formats): `aliases`.
 */
export interface FormatDescription {
  /** A described format's name, or `derived-…` for one derived from a chat template (src/templates/deriveFormat.ts). */
  readonly name: FormatName | DerivedFormatName;
  /** The model families that write this format (documentation: the formats table of docs/formats.md). */
  readonly family: string;
  /**
   * Other names accepted wherever a format is named (`format` options, CLI `--format`): vLLM's
   * `--tool-call-parser` names and llama.cpp's chat-format names, so configurations carry over. Unique across all
   * formats (a test checks it).
   */
  readonly aliases: readonly string[];
  /** Marker that opens a call block; null when the block can only be the start of the reply. */
  readonly open: string | null;
  /**
   * Other spellings of `open` that models write (Granite 3.1's `<tool_call>` for Granite 3.0's `<|tool_call|>`), or
   * absent. Tolerant parsing opens a block at one too (repair OPEN_MARKER_VARIANT); grammars and strict parsing know
   * only `open`, and free text may contain them.
   */
  readonly openVariants?: readonly string[];
  /** Marker that closes a block; null when the block ends where its call unit (or its list) ends. */
  readonly close: string | null;
  /** Optional markers the model may put before a start-of-reply block (e.g. Llama 3's `<|python_tag|>`). */
  readonly startPrefixes: readonly string[];
  /**
   * The marker that ends a start-of-reply block opened by a start prefix (Llama 4's `<|python_end|>` after
   * `<|python_start|>`), or absent. Like the prefix, a drift real models make and no grammar emits: tolerant parsing
   * consumes it right after such a block (neither content nor a call).
   */
  readonly startPrefixEnd?: string;
  /**
   * Markers that are one special token in the model family's vocabulary (Qwen3's `<tool_call>`, Mistral's
   * `[TOOL_CALLS]`). Compiled grammars write these as token nodes, the other markers as plain text.
   */
  readonly specialTokens: readonly string[];
  /** `"block"`: one call per block; `"list"`: one block holding the list of calls. */
  readonly grouping: "block" | "list";
  /** Canonical text between `open` and the block's value. */
  readonly afterOpen: string;
  /** Canonical text between the block's value and `close`. */
  readonly beforeClose: string;
  /** Canonical text between consecutive blocks (`grouping: "block"` only). */
  readonly blockSeparator: string;
  /**
   * The section that holds every call block of a turn (`grouping: "block"` only), or absent when blocks stand alone.
   * Free text comes before the section and never contains its opening marker (nor a block's); nothing follows it.
   */
  readonly section?: SectionDescription;
  /**
   * Canonical text after the last call (absent: none, the reply ends with its last call). Nemotron 3 Nano's template
   * ends every block with a newline, the last one too. It is part of the calls: the grammar emits it after them,
   * strict parsing expects exactly it there (else TEXT_AFTER_CALLS), `renderToolCalls` writes it.
   */
  readonly afterCalls?: string;
  /**
   * The end-of-turn token the family's template writes after a turn's calls where it differs from the end of a turn
   * of text (Functionary's `<|eom_id|>` where text ends `<|eot_id|>`; Hunyuan 3's `<｜hy_eos:opensource｜>`, which its
   * template leaves off a final turn of text; Kimi K3's `<|end_of_msg|>`). Not part of the calls: generation stops
   * there (an end-of-sequence token of the vocabulary), so grammars never emit it and the parser never reads it.
   * Template acceptance cuts it off the template's render of a call turn, as it cuts a text turn's end.
   */
  readonly callTurnEnd?: string;
  /**
   * A turn made of messages, each opened by `open` and its recipient (Functionary v3.2's `>>>RECIPIENT\nCONTENT`),
   * or absent. A call is the message to its tool (`open + unit(c)`, the unit starting with the tool's name); free text
   * is the message `open + messages.text + TEXT` (`>>>all\n…`), before the calls, TEXT non-empty and never containing
   * `open`. The generation prompt writes the first message's `open`, so the turn starts right after it: the canonical
   * turn is `messages.text + TEXT` followed by the call blocks (each `open + unit(c)`), or without text the blocks
   * with the first one's `open` left off. A tool whose message would start like the text's (its name and what ends
   * the recipient spelling `messages.text`) is refused. A call message starts with its recipient: a named-json unit
   * (`NAME\n{…}`) or an xml-parameters unit with a `recipient` (Muse Glimmer's `NAME<|message|><atem:…>`).
   * `messages.first` is what the turn writes before its first recipient when the prompt wrote only part of `open`
   * (Muse Glimmer's ` to=`). Requires `grouping: "block"`, an `open` marker and no section; each call message ends
   * with `close` when there is one. A reasoning block (the family's or `reasoningMarkers`) comes first, followed by
   * `messages.first` unless its closing marker already ends with it (Muse Glimmer's reasoning is the message
   * ` to=self<|message|>…`, closed by `<|eom|><|start|>assistant to=`, which opens the next message).
   */
  readonly messages?: MessagesDescription;
  /**
   * `grouping: "list"` only: the list's opening text, separator and closing text where they are not `[`, `, ` and
   * `]`. OLMo 3 writes its calls one per line inside its block, `{ open: "", separator: "\n", close: "" }`. A list
   * without brackets needs units that end on their own: Python calls (at their parenthesis) with a closing marker (the
   * block ends there), or JSON objects (at their brace), where without a closing marker the list ends where no
   * separator and `{` follow a unit (vLLM's Phi-4-mini example, `{…},{…}`).
   */
  readonly list?: ListLayout;
  /** How one call is written: the block's value (`"block"`), or one list element (`"list"`). */
  readonly unit: CallUnitDescription;
  /** How many calls the canonical form may hold (1 for Llama 3's single JSON object). */
  readonly maxCalls: number;
  /**
   * The family's reasoning block before the calls (`<think>…</think>`, or its own channel markers), or null when the
   * family has none. The canonical turn with reasoning R is `reasoning.open + R + reasoning.close` followed by the
   * turn without reasoning; R never contains `close` (nor the call's `open` marker: a call inside the reasoning is
   * not a call). Markers of `specialTokens` inside these texts are token nodes in grammars.
   */
  readonly reasoning: ReasoningDescription | null;
}

/**
 * The markers around all of a turn's call blocks. Text between `open` and the first block, and between the last block
 * and `close`, is canonically empty (put padding into the markers: MiniMax-M1's `"<tool_calls>\n"`); special tokens
 * of the description inside them are token nodes in grammars. Exported from `toolgram`, as every part of a
 * {@link FormatDescription} that is named by a field.
 */
export interface SectionDescription {
  /** Text that opens the section, before the first block. */
  readonly open: string;
  /** Text that closes the section, after the last block. */
  readonly close: string;
}

/** The text around and between a list's elements (FormatDescription.list). Exported from `toolgram`. */
export interface ListLayout {
  /** Text before the first element (a format without `list` writes `[`). */
  readonly open: string;
  /** Text between two elements (a format without `list` writes `, `). */
  readonly separator: string;
  /** Text after the last element (a format without `list` writes `]`). */
  readonly close: string;
}

/** A turn of messages (FormatDescription.messages). Exported from `toolgram`. */
export interface MessagesDescription {
  /** What opens a message of free text after `open`: its recipient and what ends it (Functionary v3.2's `all\n`). */
  readonly text: string;
  /**
   * The text before the turn's first recipient, when the generation prompt leaves it to the turn (Muse Glimmer's
   * prompt ends `<|start|>assistant`, and the turn starts ` to=`); absent: "" (Functionary v3.2's prompt writes the
   * whole first `>>>`). Canonical turns start with it, unless a reasoning block comes first.
   */
  readonly first?: string;
}

/**
 * The markers of a reasoning block and whether compiled grammars and the parser expect one by default. Exported
 * from `toolgram`.
 */
export interface ReasoningDescription {
  /**
   * Text that opens the block inside the turn (`"<think>\n"`); `""` when the generation prompt has already opened it
   * (the turn then starts inside the reasoning, and only `required` makes sense).
   */
  readonly open: string;
  /** Text that ends the block and leads to what follows it (`"\n</think>\n\n"` in Qwen3's template). */
  readonly close: string;
  /**
   * `compileTools`' and the parser's default `reasoning` option for this format (a model's chat template can say
   * otherwise: `formatFromChatTemplate(...).reasoning`).
   */
  readonly defaultMode: ReasoningMode;
  /**
   * The family closes the block even when it has no reasoning: a turn without a block starts with `close` alone
   * (MiniMax M3's template writes `</mm:think>` before a turn whose reasoning is empty or absent). Grammars then write
   * that lone `close` where a turn has no block (reasoning "none" or "optional"), the parser reads it there (its
   * absence is REASONING_MISSING) and reports no reasoning, and `renderToolCalls` writes it for a turn without
   * reasoning. (The template writes it for empty reasoning too; `renderToolCalls` writes reasoning "" as the empty
   * block `open + close`, which the model may write and which parses back to "".)
   */
  readonly closeAlone?: boolean;
  /**
   * A turn of messages only: the text after `close` that opens one more reasoning block, so a turn may hold any
   * number of them before its messages, `open + R1 + close + (again + Rk + close)*` (Muse Glimmer: `self<|message|>`
   * after `… to=`, another message to `self`; llama.cpp reads any number). The parser reads their texts as one
   * reasoning joined by `\n` (llama.cpp joins them with nothing, which could make the joined text hold `close`);
   * `renderToolCalls` writes one block. No tool may be named so that its message starts like `again`. Absent: one
   * block. Applies with the family's own markers (not with other `reasoningMarkers`).
   */
  readonly again?: string;
}

/**
 * `"none"`: no reasoning block; `"optional"`: the turn may start with one; `"required"`: the turn starts with one
 * (with `open: ""`, the prompt opened it and the turn starts inside it).
 */
export type ReasoningMode = "none" | "optional" | "required";

/**
 * How one call is written, by kind. Each kind has one reader/writer (src/parser/units/) and one grammar builder
 * (src/envelope/units/); everything else about a format is the FormatDescription's data.
 *
 * The member interfaces are not exported: a new unit kind is added to this union as formats are, and code reading a
 * description narrows by `kind` (`Extract<CallUnitDescription, { kind: "xml-parameters" }>`), which keeps working.
 */
export type CallUnitDescription =
  | JsonObjectUnit
  | PythonCallUnit
  | NamedJsonUnit
  | NameThenJsonUnit
  | XmlParametersUnit
  | Gemma4CallUnit
  | XmlElementsUnit;

/**
 * A JSON object: `{"name": "f", "arguments": {…}}` with the keys below, in that order (`name`, the id if any, the
 * arguments; `idPosition` moves the id), spelled as `canonicalJson` spells it.
 */
export interface JsonObjectUnit {
  readonly kind: "json-object";
  /**
   * The key holding the tool's name; null when the object's one key is the name itself and its value the arguments
   * (Apertus's `{"get_weather": {…}}`: `argumentsKey`, its aliases and the id do not apply).
   */
  readonly nameKey: string | null;
  /** The key holding the arguments in the canonical form. */
  readonly argumentsKey: string;
  /** Other keys tolerated for the arguments (tolerant mode, with the issue ARGUMENTS_KEY_ALIAS). */
  readonly argumentsAliases: readonly string[];
  /**
   * Key of the call id in the canonical form (written at `idPosition` when the call has one), or null when the
   * format has none. Grammars allow the id `idForm` describes (default: 1–64 characters of `[A-Za-z0-9_-]`),
   * optionally unless the unit names an `idForm`.
   */
  readonly idKey: string | null;
  /**
   * Where the id goes among the keys: `"after-name"` (default: `{"name", "id", "arguments"}`), `"first"` (Command
   * R7B's `{"tool_call_id", "tool_name", "parameters"}`) or `"last"` (Mistral Nemo's `{"name", "arguments", "id"}`).
   */
  readonly idPosition?: "after-name" | "first" | "last";
  /**
   * The ids a grammar lets the model write (default: `WORD_ID`, optional). Present: the fixed id shape the format's
   * templates write in every call, so every grammar requires it (a call without one would not re-render as written);
   * parsing stays tolerant of a missing id, strict parsing follows the grammar.
   */
  readonly idForm?: CallIdForm;
  /**
   * `"object"`: the arguments are a JSON object. `"single-quoted-json"` (Glaive): the arguments are
   * `'` + canonicalJson(arguments) + `'`, each `'` inside written `\u0027` (valid JSON, and the quoted text stays
   * free of its delimiter).
   */
  readonly argumentsEncoding: "object" | "single-quoted-json";
  /**
   * Absent: the unit is spelled as `canonicalJson` spells it. Present: as Python's `json.dumps(indent=width)` lays
   * out the unit as an element at nesting depth `depth` (Command R+'s template writes its list of calls so: each
   * member on a line of its own, indented `width` spaces per depth, the arguments one depth deeper than the unit).
   */
  readonly indent?: { readonly width: number; readonly depth: number };
}

/**
 * The spelling of a call id a grammar allows: `length` characters (inclusive bounds) from `alphabet`
 * (`"word"`: `[A-Za-z0-9_-]`, `"alphanumeric"`: `[A-Za-z0-9]`, `"digits"`: `[0-9]`).
 */
export interface CallIdForm {
  readonly alphabet: "word" | "alphanumeric" | "digits";
  readonly minLength: number;
  readonly maxLength: number;
}

/**
 * A Python call with keyword arguments and Python literal values: `get_weather(city="Paris", days=3)`; strings in
 * JSON's spelling, `True` / `False` / `None`. Tool names match `PYTHON_CALL_NAME`, argument names `PYTHON_IDENTIFIER`.
 */
export interface PythonCallUnit {
  readonly kind: "python-call";
  /**
   * How strings are quoted. `"double"` (the default): JSON's spelling. `"single"` (LFM2's templates write `'x'`): the
   * JSON spelling's content between apostrophes, each apostrophe inside written `\u0027` and `"` kept as `\"` (both
   * valid Python escapes), so every value keeps one spelling and a string never holds its delimiter.
   */
  readonly quote?: "double" | "single";
  /**
   * Text written between the tool's name and its parenthesis (Llama 3.1's built-in tools:
   * `brave_search.call(query="…")`, `callSuffix: ".call"`); absent: "". The call's name is the tool's, without it.
   */
  readonly callSuffix?: string;
  /** Text between two keyword arguments (MiniCPM3's template writes `,`); absent: `, `. */
  readonly argumentSeparator?: string;
  /**
   * `"json"`: true, false and null are spelled as JSON spells them (MiniCPM3's template writes each value with
   * `tojson`, OLMo 3's vLLM example writes `true`); absent: Python's `True` / `False` / `None`. Strings are quoted as
   * `quote` says either way.
   */
  readonly literals?: "json";
}

/**
 * The tool's name as plain text, then the arguments as a JSON object: `NAME + nameClose + canonicalJson(arguments) +
 * argumentsClose` (gpt-oss harmony's `NAME<|channel|>commentary json<|message|>{…}` after ` to=functions.`, DeepSeek
 * V3.1's `NAME<｜tool▁sep｜>{…}`). The name is exactly the declared tool's name; the arguments are spelled like every
 * JSON call unit's. Tolerant reading takes any text between the name and the first `{` in place of `nameClose`
 * (harmony models write `<|constrain|>json` or another channel there), with the repair NAME_SEPARATOR.
 */
export interface NamedJsonUnit {
  readonly kind: "named-json";
  /** Canonical text between the name and the arguments (special tokens of the description are token nodes). */
  readonly nameClose: string;
  /** Canonical text after the arguments, before the block's `close` (usually ""). */
  readonly argumentsClose: string;
  /**
   * Kimi K2: the name is written `namePrefix + NAME + indexSeparator + INDEX` (`functions.get_weather:0`), INDEX
   * counting the turn's calls from 0; that whole text is the call's id (a call's own id of that shape is written
   * as given). Grammars allow any index of up to 6 digits without leading zeros.
   */
  readonly callIndex?: { readonly namePrefix: string; readonly indexSeparator: string };
}

/**
 * A call written as tagged parameters, one per argument, in the tool's declaration order (Qwen3-Coder's
 * `<function=NAME>\n<parameter=K>\nV\n</parameter>\n</function>`, GLM's `NAME<arg_key>K</arg_key><arg_value>V</arg_value>`,
 * MiniMax's `<invoke name="NAME"><parameter name="K">V</parameter></invoke>`, DeepSeek's DSML
 * `<｜DSML｜parameter name="K" string="true">V</｜DSML｜parameter>`): the markers are data, one reader/writer and one
 * grammar builder serve every family. Canonical text of a call:
 * `nameOpen + NAME + nameClose + [INDEX + callIndex.close] + (keyOpen + K + keyClose + [T + valueType.close] + V +
 * valueClose)* + callClose`, T the value's written type (`valueType`), and with no parameters at all `emptyArguments`
 * (if any) standing in their place.
 *
 * A value is written raw (the text itself, no quotes, no escapes) when it is a string, and as canonical JSON
 * otherwise. Without `valueType` the parameter's own subschema decides how a value is read (see lowerXmlParameters):
 * a parameter admitting only strings is raw, one admitting no strings is JSON, one admitting both is refused
 * (UNSUPPORTED_KEYWORD), since the text `42` could be either; without a schema the reader takes a value as JSON when
 * it parses as a JSON value that is not a string, else as raw text. With `valueType` the text says which it is, so a
 * parameter admitting both is compiled with both forms (a raw string, or a non-string JSON value) and read exactly.
 * A raw value never contains `valueClose` (nor the block's or the section's markers): the grammar excludes those, so
 * the first `valueClose` ends the value.
 */
export interface XmlParametersUnit {
  readonly kind: "xml-parameters";
  readonly nameOpen: string;
  readonly nameClose: string;
  readonly keyOpen: string;
  readonly keyClose: string;
  readonly valueClose: string;
  readonly callClose: string;
  /**
   * Kimi K3: the call's position in the turn after `nameClose`, then `close`
   * (`<|open|>call tool="NAME" index="1"<|sep|>`), counting from `base`. As Kimi K2's `functions.NAME:IDX`, the index
   * is the call's id: the parser returns it as `id`, and `renderToolCalls` writes a call's own id when it is an index
   * (digits, no leading zero), else the call's position. Grammars allow any index of up to 6 digits.
   */
  readonly callIndex?: { readonly close: string; readonly base: number };
  /**
   * Each value's type, written after `keyClose` and followed by `close`, so the reader knows a value's form from the
   * text. `names: "json-type"` (the default; Kimi K3's `<|open|>argument key="K" type="number"<|sep|>42`): the JSON
   * type, `string` (the value raw), `number`, `boolean`, `null`, `object` or `array` (the value as JSON).
   * `names: "string-flag"` (DeepSeek's DSML `<｜DSML｜parameter name="K" string="false">42`): `true` before a raw
   * string, `false` before a JSON value. Grammars tie the type to the value the parameter's schema admits; a
   * parameter admitting both strings and other values gets both forms, each after its type.
   */
  readonly valueType?: { readonly close: string; readonly names?: "json-type" | "string-flag" };
  /** Text written in place of the parameters when a call has none (DeepSeek V4's template writes `\n`); absent: "". */
  readonly emptyArguments?: string;
  /**
   * A turn of messages (FormatDescription.messages) whose call message is addressed to its tool: the unit starts
   * with the tool's name as the message's recipient, then `recipient.close`, then `nameOpen + NAME …` (Muse
   * Glimmer's `NAME<|message|><atem:function_calls>\n<atem:invoke name="NAME">`): the name is written twice, the same
   * both times. Tolerant reading takes the invoked name where the two differ (RECIPIENT_MISMATCH).
   */
  readonly recipient?: { readonly close: string };
}

/**
 * The tool's name, a marker, then the arguments as a JSON object in `canonicalJson`'s spelling: Mistral v11's
 * `get_weather[ARGS]{"city": "Paris"}`. The parser reads the name up to the marker, so tool names must match
 * `namePattern` (compiling refuses others with INVALID_TOOL).
 */
export interface NameThenJsonUnit {
  readonly kind: "name-then-json";
  readonly argumentsMarker: string;
  readonly namePattern: RegExp;
  /**
   * Marker of the call id between the name and `argumentsMarker` (Mistral Small 3.2's
   * `NAME[CALL_ID]ID[ARGS]{…}`), written when the call has an id (required in grammars with `idForm`); absent when
   * the format has no ids.
   */
  readonly idMarker?: string;
  /**
   * The id comes first: `ID + idMarker + NAME + argumentsMarker + {…}` (Solar Open's
   * `ID<|tool_call:name|>NAME<|tool_call:args|>{…}`). `idMarker` is then the name's opening marker and always written;
   * a call without an id writes it alone (the empty id).
   */
  readonly idFirst?: boolean;
  /**
   * The ids a grammar lets the model write after `idMarker` (before it with `idFirst`; default: `WORD_ID`,
   * optional). Present: the fixed id shape the format's templates write in every call, so every grammar requires it.
   */
  readonly idForm?: CallIdForm;
}

/**
 * Gemma 4's call: `namePrefix + NAME + ARGS`, ARGS an object in Gemma 4's own syntax (src/formats/gemma4Values.ts):
 * `{city:<|"|>Paris<|"|>,days:3}`, strings between `stringDelimiter` with nothing escaped (so a string never holds
 * the delimiter), numbers, true / false / null and arrays as in JSON without whitespace, keys bare, in the order of
 * the template's `dictsort` (case-insensitive). Grammars write declared properties in that order; undeclared keys
 * (an object schema without `properties`, `additionalProperties`) follow the declared ones in any order, and strict
 * parsing takes any key order (the grammar, when tools are given, has the last word).
 */
export interface Gemma4CallUnit {
  readonly kind: "gemma4-call";
  readonly namePrefix: string;
  readonly stringDelimiter: string;
}

/**
 * MiniMax M3's call: the tool's name, `nameClose`, then one element per argument whose tag is the argument's name,
 * every tag led by `tagPrefix` (`NAME">]<]minimax[>[<city>Paris]<]minimax[>[</city>`), values written as the
 * template's `to_xml` macro writes them (src/formats/xmlElementValues.ts): an object as one element per member, an
 * array as one `itemTag` element per item, a string raw (nothing escaped), a number or boolean as its JSON text.
 * The text alone does not say a value's type (`42` may be a string, `<item>` an array's or a key's): the parameter's
 * schema does, as for XmlParametersUnit. What the template cannot write back exactly is refused or left out (see
 * lowerXmlElements): nulls (the template drops them), undeclared keys (a closing tag must repeat its key).
 */
export interface XmlElementsUnit {
  readonly kind: "xml-elements";
  /** Text between the name and the first argument (`">`). */
  readonly nameClose: string;
  /** Text before every tag, opening and closing (`]<]minimax[>[`). */
  readonly tagPrefix: string;
  /** The tag of an array's items (`item`). */
  readonly itemTag: string;
}

/** The kinds of call unit (`unit.kind`). */
export type CallUnitKind = CallUnitDescription["kind"];
