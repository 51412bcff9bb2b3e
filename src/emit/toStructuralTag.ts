import type { CallPolicy } from "../envelope/callPolicy.js";
import { ToolgramError } from "../errors.js";
import type { FormatDescription } from "../formats/FormatDescription.js";
import { listLayout } from "../formats/listLayout.js";
import type { ResolvedReasoning } from "../formats/resolveReasoning.js";
import { canonicalJson, type JsonObject, type JsonValue } from "../json.js";
import { renderCallUnit } from "../parser/units/callUnit.js";

/**
 * One part of an XGrammar structural tag (XGrammar's `format` form, read by `Grammar.from_structural_tag` and by
 * vLLM's and SGLang's `response_format: {type: "structural_tag"}`): the kinds toolgram writes. Exported from
 * `toolgram`: the parts of {@link StructuralTag}.
 */
export type StructuralTagFormat =
  | { readonly type: "any_text" }
  | { readonly type: "const_string"; readonly value: string }
  | { readonly type: "json_schema"; readonly json_schema: JsonValue }
  | { readonly type: "sequence"; readonly elements: readonly StructuralTagFormat[] }
  | { readonly type: "or"; readonly elements: readonly StructuralTagFormat[] }
  | StructuralTagTag
  | {
      readonly type: "triggered_tags";
      readonly triggers: readonly string[];
      readonly tags: readonly StructuralTagTag[];
      readonly at_least_one: boolean;
      readonly stop_after_first: boolean;
    }
  | {
      readonly type: "tags_with_separator";
      readonly tags: readonly StructuralTagTag[];
      readonly separator: string;
      readonly at_least_one: boolean;
      readonly stop_after_first: boolean;
    };

/** A structural tag's `tag`: fixed text, a constrained part, fixed text. Exported from `toolgram`. */
export interface StructuralTagTag {
  readonly type: "tag";
  readonly begin: string;
  readonly content: StructuralTagFormat;
  readonly end: string;
}

/** A whole structural tag, as `compiled.toStructuralTag()` returns it and XGrammar reads it. Exported from `toolgram`. */
export interface StructuralTag {
  readonly type: "structural_tag";
  readonly format: StructuralTagFormat;
}

/** One callable tool: its name and the JSON Schema of its arguments as the compile enforces them. */
interface StructuralTagTool {
  readonly name: string;
  readonly arguments: JsonValue;
}

/** What the structural tag of a tool-call turn is built from. */
interface StructuralTagInput {
  readonly description: FormatDescription;
  readonly policy: CallPolicy;
  readonly reasoning: ResolvedReasoning | null;
  /** The tools the policy allows and the compile kept, in declaration order. */
  readonly tools: readonly StructuralTagTool[];
}

/** Arguments no schema could produce by chance: their canonical text is looked up in a rendered call. */
const SENTINEL: JsonObject = { toolgram_structural_tag_sentinel: 0 };

const ANY_TEXT: StructuralTagFormat = { type: "any_text" };

function tag(begin: string, content: StructuralTagFormat, end: string): StructuralTagTag {
  return { type: "tag", begin, content, end };
}

function refuse(d: FormatDescription, why: string): never {
  throw new ToolgramError(
    "INVALID_OPTION",
    `format ${d.name} cannot be written as an XGrammar structural tag: ${why}; use toXGrammarEbnf() (the whole turn as XGrammar EBNF) instead`,
    "/format",
  );
}

/**
 * The text before and after the arguments in one call unit of `name` (a block's body with its padding, or a list
 * element): a call is rendered with sentinel arguments and cut around their canonical JSON, which must occur exactly
 * once. Units that do not write the arguments as one JSON object (Python calls, XML parameters, Gemma 4's values,
 * indented JSON) have no such cut and are refused, as are units whose text varies per call (a required id, an index).
 */
function unitCut(d: FormatDescription, name: string): { begin: string; end: string } {
  const u = d.unit;
  if ("idForm" in u && u.idForm !== undefined)
    refuse(d, "every call carries an id the model writes, so the text before the arguments is not fixed per tool");
  if ("callIndex" in u && u.callIndex !== undefined)
    refuse(d, "every call carries its index in the turn, so the text before the arguments is not fixed per tool");
  if (u.kind === "json-object" && u.argumentsEncoding !== "object")
    refuse(d, "the arguments are JSON inside a quoted string, which a JSON schema does not describe");
  const text = renderCallUnit({ name, arguments: SENTINEL }, d);
  const json = canonicalJson(SENTINEL);
  const at = text.indexOf(json);
  if (at < 0 || text.indexOf(json, at + 1) >= 0)
    refuse(d, `its ${u.kind} call units do not write the arguments as one JSON object after a fixed per-tool prefix`);
  return { begin: text.slice(0, at), end: text.slice(at + json.length) };
}

/** The calls of a turn: the text that opens them, the units, and the text that closes them. */
interface Calls {
  readonly open: string;
  /** One tag per tool: its fixed prefix, its arguments' schema, its fixed suffix. */
  readonly tags: readonly StructuralTagTag[];
  /** The units of one turn: one of the tags, or the tags with the separator between calls. */
  readonly units: StructuralTagFormat;
  readonly close: string;
  /** The marker whose appearance in free text starts the calls ("" when the calls are the whole reply). */
  readonly trigger: string;
}

function calls(input: StructuralTagInput): Calls | null {
  const { description: d, policy, tools } = input;
  const limit = Math.min(policy.maxCalls ?? Number.POSITIVE_INFINITY, d.maxCalls);
  if (limit === 0 || tools.length === 0) return null;
  if (Number.isFinite(limit) && limit > 1)
    refuse(d, `a structural tag bounds the calls to one or to any number, not to ${limit}`);
  const tags = tools.map((t) => {
    const cut = unitCut(d, t.name);
    return tag(cut.begin, { type: "json_schema", json_schema: t.arguments }, cut.end);
  });
  const open = d.open ?? "";
  const close = d.close ?? "";
  let before: string;
  let separator: string;
  let after: string;
  if (d.grouping === "block") {
    // blocks are units between the markers: the first block's marker opens the calls, the others separate them
    before = (d.section?.open ?? "") + open;
    separator = close + d.blockSeparator + open;
    after = close + (d.afterCalls ?? "") + (d.section?.close ?? "");
  } else {
    const l = listLayout(d);
    before = open + d.afterOpen + l.open;
    separator = l.separator;
    after = l.close + d.beforeClose + close;
  }
  let units: StructuralTagFormat;
  if (limit === 1) units = tags.length === 1 ? tags[0] : { type: "or", elements: tags };
  else if (separator === "") refuse(d, "its calls follow each other with nothing between them");
  else units = { type: "tags_with_separator", tags, separator, at_least_one: true, stop_after_first: false };
  return { open: before, tags, units, close: after, trigger: d.section?.open ?? d.open ?? "" };
}

/**
 * The calls from their opening text on. XGrammar (web-xgrammar 0.1.27) compiles no `tags_with_separator` inside a
 * tag whose end is empty (Mistral v11's `[TOOL_CALLS]NAME[ARGS]{…}`, whose calls end with their arguments), so those
 * are the opening text followed by the separated units.
 */
function callsFrom(c: Calls, open: string): StructuralTagFormat {
  if (c.close !== "" || c.units.type !== "tags_with_separator") return tag(open, c.units, c.close);
  return open === "" ? c.units : { type: "sequence", elements: [{ type: "const_string", value: open }, c.units] };
}

/** The turn after the reasoning block: free text and the calls, as the policy allows them. */
function turn(input: StructuralTagInput): StructuralTagFormat {
  const { description: d, policy } = input;
  const c = calls(input);
  // no calls possible: the turn is text (toolChoice "none" always allows text)
  if (c === null) return ANY_TEXT;
  if (!policy.freeText) {
    if (policy.minCalls === 0)
      refuse(d, "an optional call without free text allows the empty reply, which a structural tag cannot write");
    return callsFrom(c, c.open);
  }
  if (c.trigger === "")
    refuse(d, "the call is the whole reply, so free text cannot be told from a call by a trigger marker");
  if (policy.minCalls > 0) {
    // a required call after free text: the text ends at the first trigger, and the calls go on from there
    return { type: "sequence", elements: [tag("", ANY_TEXT, c.trigger), callsFrom(c, c.open.slice(c.trigger.length))] };
  }
  const whole = callsFrom(c, c.open);
  if (whole.type === "tag") {
    // free text until the trigger, then the calls, then nothing (the turn ends with its last call)
    return {
      type: "triggered_tags",
      triggers: [c.trigger],
      tags: [whole],
      at_least_one: false,
      stop_after_first: true,
    };
  }
  // separated calls with no closing text cannot be a triggered tag (see callsFrom): each call is one, and text may
  // come between and after them (toolgram's tolerant parser reads such text as the reply's content)
  const each = c.tags.map((t) => tag(c.open + t.begin, t.content, t.end + c.close));
  return { type: "triggered_tags", triggers: [c.trigger], tags: each, at_least_one: false, stop_after_first: false };
}

/**
 * The structural tag of one assistant turn in the described format: the reasoning block the compile resolved (its
 * text free), free text that never holds the calls' opening marker, then the calls (each a fixed per-tool prefix,
 * the tool's arguments under its JSON Schema, a fixed suffix), and nothing after them. XGrammar's JSON allows any
 * whitespace between tokens, so the language holds toolgram's canonical spelling and others; toolgram's tolerant
 * parser reads them all.
 *
 * Throws ToolgramError INVALID_OPTION (path `/format`) naming the format and why when the turn has no such form:
 * arguments not written as one JSON object (XML parameters, Python calls…), an id or index in every call, a turn of
 * messages, free text beside a call that is the whole reply, a bound of calls other than one or any.
 */
export function toStructuralTag(input: StructuralTagInput): StructuralTag {
  const d = input.description;
  if (d.messages !== undefined)
    refuse(d, "a turn of messages leaves its first call's opening marker to the generation prompt");
  const rest = turn(input);
  const r = input.reasoning;
  // a family that always closes the block (MiniMax M3) writes its closing marker alone before a turn without one
  const lone = d.reasoning?.closeAlone === true ? (r?.close ?? d.reasoning.close) : null;
  const bare: StructuralTagFormat =
    lone === null ? rest : { type: "sequence", elements: [{ type: "const_string", value: lone }, rest] };
  if (r === null) return { type: "structural_tag", format: bare };
  const block: StructuralTagFormat = { type: "sequence", elements: [tag(r.open, ANY_TEXT, r.close), rest] };
  return {
    type: "structural_tag",
    format: r.mode === "required" ? block : { type: "or", elements: [block, bare] },
  };
}
