import type { FormatName } from "../types.js";

/**
 * Everything a wire format is, as plain data: its markers, keys and canonical layout. The parser's scanner, the
 * renderer and the envelope grammar all read this one description, so they cannot drift apart.
 *
 * Canonical text of a reply with calls c1..cn:
 * - `body: "object"`: for each call, `open + afterOpen + <call JSON> + beforeClose + close`, blocks joined by
 *   `blockSeparator`.
 * - `body: "array"`: `open + afterOpen + "[" + <call JSON>, joined by ", " + "]" + beforeClose + close` (one block).
 * - `body: "python-list"`: `"[" + name(k=v, ...), joined by ", " + "]"` (one block, the whole reply).
 * The call JSON is `canonicalJson` of `{ [nameKey]: name, [idKey]: id (if any), [argumentsKey]: arguments }`, except
 * that with `argumentsEncoding: "single-quoted-json"` the arguments are `'` + canonicalJson(arguments) + `'`, with
 * each `'` inside written `\u0027` (valid JSON, and the quoted text stays free of its delimiter).
 * A grammar for a format emits exactly this text around the per-tool argument grammars; `maxCalls` bounds the calls.
 */
export interface FormatDescription {
  readonly name: FormatName;
  /** Marker that opens a call block; null when the block can only be the start of the reply. */
  readonly open: string | null;
  /** Marker that closes a block; null when the block ends where its bracketed value ends. */
  readonly close: string | null;
  /** Optional markers the model may put before a start-of-reply block (e.g. Llama 3's `<|python_tag|>`). */
  readonly startPrefixes: readonly string[];
  /**
   * Markers that are one special token in the model family's vocabulary (Qwen3's `<tool_call>`, Mistral's
   * `[TOOL_CALLS]`). Compiled grammars write these as token nodes, the other markers as plain text.
   */
  readonly specialTokens: readonly string[];
  readonly body: "object" | "array" | "python-list";
  /** Canonical text between `open` and the value, and between the value and `close`. */
  readonly afterOpen: string;
  readonly beforeClose: string;
  /** Canonical text between consecutive blocks (object bodies only). */
  readonly blockSeparator: string;
  readonly nameKey: "name";
  /** The key holding the arguments in the canonical form. */
  readonly argumentsKey: "arguments" | "parameters";
  /** Other keys tolerated for the arguments (tolerant mode, with an issue). */
  readonly argumentsAliases: readonly string[];
  /** Key of the call id in the canonical form, or null when the format has none. */
  readonly idKey: "id" | null;
  readonly argumentsEncoding: "object" | "single-quoted-json";
  /** How many calls the canonical form may hold (1 for Llama 3's single JSON object). */
  readonly maxCalls: number;
}
