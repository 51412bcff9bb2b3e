import type { FormatDescription } from "../formats/FormatDescription.js";
import type { DerivedFormatName, FormatName } from "../formats/FormatName.js";
import type { GExpr } from "../grammar/Grammar.js";
import type { JsonKeywords, JsonStyle } from "../lower/JsonStyle.js";
import type { XmlParameterSpelling } from "../lower/lowerXmlParameters.js";
import type { Gemma4Spelling } from "../lower/lowerGemma4.js";
import type { XmlElementsSpelling } from "../lower/XmlElementsSpelling.js";
import type { ResolvedReasoning } from "../formats/resolveReasoning.js";
import type { CallPolicy } from "./callPolicy.js";

/** One callable tool as an envelope sees it: its name and the grammar of its arguments (one JSON object value). */
export interface EnvelopeTool {
  name: string;
  /** Usually a `ref` to the tool's arguments rule. */
  arguments: GExpr;
}

export interface EnvelopeGrammarInput {
  /** The tools the policy allows, in declaration order. */
  tools: readonly EnvelopeTool[];
  policy: CallPolicy;
  /** The reasoning block before the turn, if any (absent: none). */
  reasoning?: ResolvedReasoning | null;
  /** JSON spelling of the envelope's own JSON (the same as the arguments'). */
  style: JsonStyle;
  /** Registers a named rule (the name is reserved by the envelope, see `ruleNames`) and returns a reference to it. */
  addRule(name: string, e: GExpr): GExpr;
}

/**
 * How a format writes a tool's arguments when that is not plain JSON. Compile applies it while lowering each tool,
 * so the envelope still receives one arguments rule per tool.
 */
export interface ArgumentSpelling {
  /** Spelling of true / false / null everywhere in the arguments (Python's True / False / None). */
  keywords?: JsonKeywords;
  /** The arguments object is written as keyword arguments `(k=v, ...)` rather than as `{...}`. */
  keywordArguments?: boolean;
  /** Between two keyword arguments (absent: `, `). */
  keywordSeparator?: string;
  /** The arguments object is written as tagged parameters (Qwen3-Coder's `<parameter=K>\nV\n</parameter>\n`). */
  xmlParameters?: XmlParameterSpelling;
  /** The arguments object is written in Gemma 4's value syntax (`{k:<|"|>v<|"|>}`, see lowerGemma4Arguments). */
  gemma4?: Gemma4Spelling;
  /** The arguments object is written as nested elements (MiniMax M3's `P<k>v P</k>`, see lowerXmlElementsArguments). */
  xmlElements?: XmlElementsSpelling;
  /** Rewrites every rule of the lowered arguments (Glaive's `\u0027` for an apostrophe). */
  rewrite?(e: GExpr): GExpr;
  /** Throws a ToolgramError for a tool name the format cannot write (`path`: the tool's place in the input). */
  checkToolName?(name: string, path: string): void;
}

/**
 * The grammar side of a wire format: built from its description (src/formats), which the parser and the renderer
 * read too; `grammar` builds the whole turn (the root rule).
 */
export interface Envelope {
  readonly format: FormatName | DerivedFormatName;
  readonly description: FormatDescription;
  /** Rule names the envelope adds; compile reserves them before lowering the tools' schemas. */
  readonly ruleNames: readonly string[];
  /** Absent: the arguments are the JSON object itself. */
  readonly argumentSpelling?: ArgumentSpelling;
  grammar(input: EnvelopeGrammarInput): GExpr;
}
