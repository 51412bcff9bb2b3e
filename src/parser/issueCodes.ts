/**
 * Stable codes of parse issues. Repairs (tolerant mode) keep the call; `dropped` codes lose it; validation codes mark
 * the call `valid: false`.
 */
export const ISSUE_CODES = {
  // repairs: the call is kept
  WHITESPACE_AROUND_TAGS: "whitespace/newlines around the call's JSON differ from the canonical rendering",
  UNCLOSED_BLOCK: "the block has no closing marker (truncated or interrupted); its JSON was complete",
  CODE_FENCE: "the call's JSON is wrapped in a Markdown code fence",
  TRAILING_COMMA: "a trailing comma before } or ]",
  SINGLE_QUOTES: "a string in single quotes",
  SMART_QUOTES: "a string in typographic quotes",
  MESSAGE_NOT_A_CALL:
    "a later message of a turn of messages that does not start like a call (Functionary v3.2's `>>>Hello`, Muse Glimmer's second ` to=self`): its text is kept as content, the marker that opened it is not",
  UNESCAPED_CONTROL: "a raw newline, tab or other control character inside a string",
  INVALID_ESCAPE: "an escape sequence JSON does not have (kept as the escaped character)",
  PYTHON_LITERAL: "True/False/None instead of true/false/null",
  ARGUMENTS_AS_STRING: "arguments given as a JSON-encoded string",
  ARGUMENTS_NOT_STRING: "arguments given as an object where the format writes a quoted JSON string",
  ARGUMENTS_BEFORE_NAME: "the arguments key comes before the name key",
  ARGUMENTS_KEY_ALIAS: "the arguments are under the other format's key (parameters/arguments)",
  MISSING_ARGUMENTS: "no arguments key; read as {}",
  EXTRA_KEYS: "keys other than name/arguments in the call object (ignored)",
  EXTRA_CLOSING_BRACKETS: "extra } or ] after the call's JSON (ignored)",
  TRAILING_TEXT_IN_BLOCK: "text after the call's JSON inside the block (ignored)",
  MISSING_ARRAY_BRACKETS: "a single call object where the format has a list of calls",
  MULTIPLE_CALLS_IN_BLOCK: "several call objects in one block (each read as a call; raw is the object)",
  EMPTY_ELEMENT: "an empty element in the call list (ignored)",
  MISSING_CLOSING_BRACKETS:
    "the call's JSON lacks its last closing bracket(s) but its block is closed; the brackets were added",
  OPEN_MARKER_VARIANT:
    "the block opens with another spelling of the format's opening marker (Granite 3.1's <tool_call> for <|tool_call|>)",
  NAME_SEPARATOR:
    "the text between the call's name and its arguments differs from the format's (e.g. harmony's <|constrain|>json)",
  RECIPIENT_MISMATCH:
    "the call's message is addressed to another name than the tool it invokes (Muse Glimmer's to=NAME); the invoked tool is read",
  FENCED_CALL:
    "a call written as JSON in a Markdown code fence, without the format's markers (read in tolerant mode only)",
  TEXT_BEFORE_CALL:
    "a word between the block's opening marker and the call's own start (Step-3's `function<｜tool_sep｜>NAME\\n<steptml:invoke …>`; ignored)",
  MISSING_OPEN_MARKER:
    "a call written without its block's opening marker (e.g. <tool_call>), recognised by its own start",
  DUPLICATE_PARAMETER: "a tagged parameter written twice (the last one is kept)",
  UNCLOSED_PARAMETER: "a tagged parameter without its closing marker (its value runs to the call's end)",
  MISSING_CALL_CLOSE: "the call's closing marker (e.g. </function>) is missing",
  UNPREFIXED_CLOSING_TAG:
    "MiniMax M3: an element closed by `</k>` without the tag prefix `]<]minimax[>[` (read as its end)",
  RAW_VALUE_HOLDS_MARKER:
    "a raw parameter value contains a marker of the format (the value's closing one, a block's, a whole nested call), read whole because the rest of the call still reads one way",
  VALUE_TYPE_MISMATCH:
    "a tagged parameter's type marker (DeepSeek's string=\"true|false\") contradicts the parameter's schema (read as the schema says)",
  VALUE_READ_BY_SCHEMA:
    "a tagged parameter's raw value that reads as JSON of a type its schema does not admit, kept as the string the schema admits (`42` for `anyOf: [string, null]`)",
  OTHER_GENERATION:
    "the call is written as the family's other generation writes it after the same marker (Mistral's `[TOOL_CALLS][{…}]` list and `[TOOL_CALLS]NAME[ARGS]{…}`)",
  CALL_AFTER_TEXT:
    "a call of a format whose call is the whole reply (Llama 3's JSON object, xLAM's list) after text: read as a call, the text before it kept as content",
  MORE_CALLS:
    "another call after the call of a format whose call is the whole reply (Llama 3's objects separated by `; ` or newlines): read as a call, the separator dropped",
  UNCLOSED_SECTION: "the section holding the calls (e.g. <｜tool▁calls▁begin｜>) has no closing marker",
  // dropped: the call is lost
  INVALID_JSON: "the call's JSON cannot be read",
  TRUNCATED: "output ended inside a call whose JSON is incomplete",
  NOT_A_CALL: "the block's value is not a call object",
  MISSING_NAME: "the call has no string name",
  ARGUMENTS_NOT_OBJECT: "the arguments are not an object",
  NONCANONICAL: "strict mode: the block is not the format's canonical rendering",
  NESTING_TOO_DEEP: "the JSON nests deeper than the parser's cap",
  // strict-mode layout
  NONCANONICAL_SEPARATOR: "strict mode: text between call blocks other than the canonical separator",
  TEXT_AFTER_CALLS: "strict mode: text after the last call block (the canonical reply ends with its last call)",
  MESSAGE_LAYOUT:
    "strict mode: a turn of messages (Functionary v3.2's `>>>all\n…`) other than at most one non-empty text message first, then the calls",
  SECTION_LAYOUT:
    "strict mode: the section around the calls is missing, repeated, empty or holds text besides the blocks and their separators",
  // reasoning (the calls are unaffected)
  REASONING_MISSING:
    "the turn does not start with the reasoning block the options require (read as a turn without one)",
  REASONING_UNCLOSED: "the reasoning block is not closed (everything after its opening is reasoning)",
  CALL_IN_REASONING: "a call marker inside the reasoning block: a call there is not a call",
  // validation: the call is kept, valid = false
  UNKNOWN_TOOL: "the call names a tool that was not declared",
  INVALID_ARGUMENTS: "the arguments fail the tool's parameters schema",
  UNDECLARED_ARGUMENT: "the arguments have a key the tool's parameters do not declare (compiled grammars forbid it)",
} as const;

/** The code of a parse issue: one of {@link ISSUE_CODES}. */
export type IssueCode = keyof typeof ISSUE_CODES;
