import { createMatcher as createTokenMatcher, type MatcherOptions } from "./automaton/createMatcher.js";
import type { TokenMatcher } from "./automaton/TokenMatcher.js";
import { Deadline, type CompileBudget } from "./Deadline.js";
import type { Diagnostic } from "./diagnostic.js";
import { toGbnf } from "./emit/toGbnf.js";
import { toLark } from "./emit/toLark.js";
import { toRegex } from "./emit/toRegex.js";
import type { StructuralTag } from "./emit/toStructuralTag.js";
import { ToolgramError } from "./errors.js";
import { toXGrammarEbnf } from "./emit/toXGrammarEbnf.js";
import { createAcceptor, type Acceptor } from "./grammar/accepts.js";
import type { Grammar } from "./grammar/Grammar.js";
import type { JsonValue } from "./json.js";
import type { DerivedFormatName, FormatName } from "./formats/FormatName.js";
import type { ResolvedReasoning } from "./formats/resolveReasoning.js";
import type { NormalizedTool } from "./tools/NormalizedTool.js";
import type { Vocabulary } from "./vocab/Vocabulary.js";

/** What a compiled grammar was compiled for: a tool-call turn in a wire format, or one bare JSON value. */
export type CompiledFormat = FormatName | DerivedFormatName | "json";

/**
 * What a {@link CompiledGrammar} is built from. Internal: only `compileTools` and `compileSchema` build compiled
 * grammars (the fields are the compile's own bookkeeping, its budget and lazy emitters), so the entry does not
 * export it and the constructor that takes it is `@internal`.
 */
export interface CompiledGrammarInit {
  grammar: Grammar;
  format: CompiledFormat;
  warnings: Diagnostic[];
  tools: NormalizedTool[];
  /**
   * The hash, or how to compute it on first read (hashing every tool again is a noticeable part of a large compile).
   */
  schemaHash: string | (() => string);
  /** The JSON Schema, or how to build it on first use of `toJsonSchema` (most callers only want a matcher or GBNF). */
  jsonSchema: JsonValue | (() => JsonValue);
  specialTokens: "token-or-text" | "token-only";
  /** Work steps the compile spent (see `limits.maxCompileSteps`). */
  compileSteps: number;
  /** The compile's budget, given again to each emitter and matcher construction run later on this grammar. */
  budget: CompileBudget;
  /** The reasoning block the turn starts with (absent: none). */
  reasoning?: ResolvedReasoning | null;
  /** The compile's `limits.maxAutomatonStates`: the cap of every matcher's automaton. */
  maxAutomatonStates?: number;
  /**
   * How to build the XGrammar structural tag (tool turns only; absent for `compileSchema`, whose value is one JSON
   * Schema already).
   */
  structuralTag?: () => StructuralTag;
  /** The GBNF text when it was printed already (a compile run on another thread ships it with the grammar). */
  gbnf?: string;
}

/**
 * The result of `compileTools` / `compileSchema`: one optimized grammar and its artifacts. Emitters run lazily and
 * their text is cached; many matchers can share one compiled grammar.
 */
export class CompiledGrammar {
  /** The optimized grammar IR (root rule first). */
  readonly grammar: Grammar;
  /** The wire format of the tool calls (`"qwen3"`, `"mistral"`…), or `"json"` for a bare JSON value. */
  readonly format: CompiledFormat;
  /** What was relaxed or reinterpreted while compiling (non-standard shapes, `strict: false` over-approximations). */
  readonly warnings: readonly Diagnostic[];
  /** The normalized tools (empty for `compileSchema`), for the parser and validators. */
  readonly tools: readonly NormalizedTool[];
  /** sha256 of the canonical normalized input (tool names + parameters, or the schema); descriptions excluded. */
  get schemaHash(): string {
    if (typeof this.hash === "function") this.hash = this.hash();
    return this.hash;
  }
  private hash: string | (() => string);
  /** Default for `createMatcher`'s `specialTokens`. */
  readonly specialTokens: "token-or-text" | "token-only";
  /** Work steps the compile spent (the deterministic unit of `limits.maxCompileSteps`). */
  readonly compileSteps: number;
  private readonly budget: CompileBudget;
  /**
   * The reasoning block before the calls (`reasoning` and `reasoningMarkers` resolved), or null. Pass
   * `{ reasoning: mode, reasoningMarkers: { open, close } }` to the parser to read the same turns.
   */
  readonly reasoning: ResolvedReasoning | null;
  private jsonSchema: JsonValue | (() => JsonValue);
  private readonly maxAutomatonStates: number | undefined;
  private gbnf: string | undefined;
  private regex: string | undefined;
  private xgrammarEbnf: string | undefined;
  private readonly buildStructuralTag: (() => StructuralTag) | undefined;
  private structuralTag: StructuralTag | undefined;
  private lark: string | undefined;
  private acceptor: Acceptor | undefined;

  /**
   * Internal: get a compiled grammar from {@link compileTools} or {@link compileSchema}; the init object is the
   * compile's bookkeeping, not part of the API.
   * @internal
   */
  constructor(init: CompiledGrammarInit) {
    this.grammar = init.grammar;
    this.format = init.format;
    this.warnings = init.warnings;
    this.tools = init.tools;
    this.hash = init.schemaHash;
    this.jsonSchema = init.jsonSchema;
    this.specialTokens = init.specialTokens;
    this.compileSteps = init.compileSteps;
    this.budget = { maxCompileSteps: init.budget.maxCompileSteps, maxCompileMs: init.budget.maxCompileMs };
    this.reasoning = init.reasoning ?? null;
    this.maxAutomatonStates = init.maxAutomatonStates;
    this.gbnf = init.gbnf;
    this.buildStructuralTag = init.structuralTag;
  }

  /**
   * Internal: what `createMatcher` gives the automaton besides the grammar (its state limit and compile budget), for
   * building the same automaton elsewhere (the server's mask workers).
   * @internal
   */
  automatonSettings(): {
    readonly maxStates: number | undefined;
    readonly budget: { readonly maxCompileSteps: number; readonly maxCompileMs: number };
  } {
    return { maxStates: this.maxAutomatonStates, budget: this.budget };
  }

  /**
   * GBNF for llama.cpp (`grammar` of a llama-server request, node-llama-cpp's `LlamaGrammar`). Printing gets the
   * compile's limits as its own budget (LIMIT_COMPILE_STEPS / LIMIT_COMPILE_TIME).
   */
  toGbnf(): string {
    return (this.gbnf ??= toGbnf(this.grammar, Deadline.fromLimits(this.budget)));
  }

  /**
   * The same grammar in XGrammar's EBNF, for vLLM and SGLang (`structured_outputs: {grammar}` in vLLM, `ebnf` in
   * SGLang, XGrammar's `compile_grammar`). Special tokens print as their text, which XGrammar matches.
   */
  toXGrammarEbnf(): string {
    return (this.xgrammarEbnf ??= toXGrammarEbnf(this.grammar, Deadline.fromLimits(this.budget)));
  }

  /**
   * The turn as an XGrammar structural tag (`response_format: {type: "structural_tag", format}` in vLLM and SGLang,
   * XGrammar's `Grammar.from_structural_tag`): free text, then each call as a fixed per-tool prefix, the arguments
   * under the tool's JSON Schema and a fixed suffix. Throws ToolgramError INVALID_OPTION naming the format and why when
   * its calls have no such form (XML parameters, Python calls, an id in every call…), and for `compileSchema`'s
   * grammars. Returns a fresh copy.
   */
  toStructuralTag(): StructuralTag {
    if (this.buildStructuralTag === undefined)
      throw new ToolgramError(
        "INVALID_OPTION",
        "a structural tag describes tool calls; this grammar is one JSON value (send its toJsonSchema() instead)",
      );
    this.structuralTag ??= this.buildStructuralTag();
    return structuredClone(this.structuralTag);
  }

  /**
   * The same grammar in the Lark dialect that llguidance (vLLM's and SGLang's `guidance` backend), XGrammar ≥ 0.2.6
   * (`Grammar.from_lark`) and Python Lark read alike: rules, string literals, one-character regex classes,
   * `?`/`*`/`+`/`~`. Special tokens print as their text. Printing gets the compile's limits as its own budget.
   */
  toLark(): string {
    return (this.lark ??= toLark(this.grammar, Deadline.fromLimits(this.budget)));
  }

  /** An ECMAScript-compatible regex of the whole language; throws ToolgramError NOT_REGULAR for recursive schemas. */
  toRegex(): string {
    return (this.regex ??= toRegex(this.grammar, Deadline.fromLimits(this.budget)));
  }

  /**
   * A JSON Schema of the same values: for tools, the union of call objects `{anyOf: [{name: {const}, arguments}...]}`
   * with the format's keys (`parameters` in tools-array and llama3-json; an `id` where the calls carry one, required
   * where the grammar requires it — mistral-nemo, mistral-v11-call-id, command-r7b — and optional in tools-array and
   * mistral; glaive, pythonic and the other formats get `{name, arguments}`, the call's content) — for serving stacks
   * that take a schema rather than a grammar; for `compileSchema`, the schema itself.
   * Returns a fresh copy.
   */
  toJsonSchema(): JsonValue {
    if (typeof this.jsonSchema === "function") this.jsonSchema = this.jsonSchema();
    return structuredClone(this.jsonSchema);
  }

  /** The reference acceptor's verdict: `text` is a member of the language (tokens read as their text). */
  accepts(text: string): boolean {
    return (this.acceptor ??= createAcceptor(this.grammar)).accepts(text);
  }

  /**
   * A token matcher for one decoding sequence over `vocab`. Cheap after the first call per vocabulary: the
   * automaton and its mask table are shared. Building the automaton gets the compile's limits as its own budget.
   */
  createMatcher(vocab: Vocabulary, options: MatcherOptions = {}): TokenMatcher {
    // the compile's limits.maxAutomatonStates caps the matcher too (the error it raises names that option)
    const maxStates = this.maxAutomatonStates === undefined ? {} : { maxStates: this.maxAutomatonStates };
    return createTokenMatcher(
      this.grammar,
      vocab,
      { specialTokens: this.specialTokens, ...maxStates, ...options },
      this.budget,
    );
  }
}
