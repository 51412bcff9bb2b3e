import { CompiledGrammar } from "./CompiledGrammar.js";
import type { Diagnostic } from "./diagnostic.js";
import { resolveCallPolicy, type CallPolicyOptions } from "./envelope/callPolicy.js";
import type { EnvelopeTool } from "./envelope/Envelope.js";
import { envelopeFor } from "./envelope/envelopes.js";
import { callIdForm, callIdPattern } from "./formats/callIdForm.js";
import { LimitExceededError, ToolgramError, UnsatisfiableSchemaError, UnsupportedSchemaError } from "./errors.js";
import type { GExpr, Grammar, Ref } from "./grammar/Grammar.js";
import { exprSize, totalExprSize } from "./grammar/analysis/exprSize.js";
import { mapRefs } from "./grammar/passes/rewrite.js";
import { NOTHING, ref } from "./grammar/build.js";
import { Deadline } from "./Deadline.js";
import { optimize } from "./grammar/passes/optimize.js";
import { validateGrammar } from "./grammar/validateGrammar.js";
import type { JsonObject, JsonValue } from "./json.js";
import { indentedJsonStyle, jsonStyle, type JsonStyle } from "./lower/JsonStyle.js";
import { toStructuralTag } from "./emit/toStructuralTag.js";
import { createLowerContext, lowerSchema, type LowerContext } from "./lower/lowerSchema.js";
import { slug, uniqueRuleName } from "./lower/ruleName.js";
import { resolveSchemaOptions, type ResolvedSchemaOptions, type SchemaCompileOptions } from "./options.js";
import type { FormatOption } from "./formats/describeFormat.js";
import type { CallIdForm, FormatDescription } from "./formats/FormatDescription.js";
import { resolveReasoning, type ReasoningOptions } from "./formats/resolveReasoning.js";
import { normalizeSchema } from "./schema/normalizeSchema.js";
import { cloneJson, jsonDepthLimit } from "./tools/cloneJson.js";
import { closeObjects } from "./tools/closeObjects.js";
import type { NormalizedTool } from "./tools/NormalizedTool.js";
import { normalizeToolsWithin } from "./tools/normalizeTools.js";
import { schemaHash, toolsHash } from "./tools/schemaHash.js";
import { parametersKey, toolFragments, type ToolFragment } from "./ToolFragmentCache.js";

/** Options of `compileTools`. Tool arguments default to `additionalProperties: "forbid"`. */
export interface ToolCompileOptions extends SchemaCompileOptions, CallPolicyOptions, ReasoningOptions {
  /**
   * Wire format of the calls: any described format (see docs/formats.md), by name or alias (`hermes` for qwen3).
   * @defaultValue "qwen3"
   */
  format?: FormatOption;
  /**
   * Default for matchers: `"token-or-text"` accepts a special token such as `<tool_call>` or its text spelled by
   * ordinary tokens; `"token-only"` only the special token. @defaultValue "token-or-text"
   */
  specialTokens?: "token-or-text" | "token-only";
  /**
   * What to do with a tool whose parameters cannot be enforced (an UnsupportedSchemaError, UnsatisfiableSchemaError
   * or a per-tool LimitExceededError). `"error"`: the whole set is refused. `"drop"`: the tool is left out of the
   * grammar (the model cannot call it) and named in a TOOL_DROPPED warning. `"relax"`: the tool is compiled again
   * with `strict: false` (its grammar accepts a superset; the parser's validation still checks its calls) and named
   * in a TOOL_RELAXED warning; a tool that still cannot be compiled is dropped. Invalid declarations and the
   * compile's own budget (`maxCompileSteps`, `maxCompileMs`) refuse the set whatever this says, as does a set left
   * with no callable tool when a call is required. @defaultValue "error"
   */
  onRefusedTool?: OnRefusedTool;
}

/**
 * What to do with a tool the compiler refuses: `"error"` refuses the set, `"drop"` leaves the tool out, `"relax"`
 * compiles it again with `strict: false` (dropped if still refused); see `ToolCompileOptions.onRefusedTool`.
 * Exported from `toolgram`: the type of that option.
 */
export type OnRefusedTool = "error" | "drop" | "relax";
const ON_REFUSED_TOOL: readonly OnRefusedTool[] = ["error", "drop", "relax"];

/**
 * Compiles a tool list (any shape `normalizeTools` reads) into the grammar of one assistant turn in the chosen wire
 * format: optional free text, then the calls the policy allows, each the format's canonical text of a call of N with
 * arguments valid for N's parameters (`{"name": N, "arguments": A}` in Qwen3). Throws ToolgramError subclasses for bad declarations and options (see `ToolgramErrorCode`).
 */
function compileToolsUnguarded(tools: unknown, options: ToolCompileOptions): CompiledGrammar {
  checkOptionKeys(options, TOOL_OPTION_KEYS);
  const opts = resolveSchemaOptions(options, { additionalProperties: "forbid" });
  const deadline = Deadline.fromLimits(opts.limits);
  const envelope = envelopeFor(options.format ?? "qwen3");
  const specialTokens = readSpecialTokens(options.specialTokens);
  const warnings: Diagnostic[] = [];
  const copied = { negativeZero: false };
  const normalized = normalizeToolsWithin(tools, warnings, opts.limits, deadline, copied);
  const policy = resolveCallPolicy(
    options,
    normalized.map((t) => t.name),
  );
  const reasoning = resolveReasoning(envelope.description, options);
  deadline.check("reading the tools");

  // envelope rule names are reserved: lowering must not take them
  const lowered = new Map<string, GExpr>(envelope.ruleNames.map((n) => [n, NOTHING]));
  const prefixes = new Set<string>(envelope.ruleNames);
  const allowed = new Set(policy.allowed);
  const envelopeTools: EnvelopeTool[] = [];
  const onRefused = readOnRefusedTool(options.onRefusedTool);
  const dropped = new Set<string>();
  let style: JsonStyle | undefined;
  const unit = envelope.description.unit;
  const indent = unit?.kind === "json-object" ? unit.indent : undefined;
  const lowering: ToolLowering = { opts, prefixes, warnings, deadline, indent, envelope, firstRefusal: undefined };
  // per-tool fragments: the same parameters under the same options lower to the same rules (see ToolFragmentCache)
  const optionsKey = `${envelope.format}|${JSON.stringify(opts)}`;
  const mergedHere = new Map<string, string>();
  // IR nodes of the rules merged into `lowered` (renaming keeps sizes), for the tool set's size check
  let loweredSize = 0;
  for (const tool of normalized) {
    if (!allowed.has(tool.name)) continue;
    envelope.argumentSpelling?.checkToolName?.(tool.name, tool.path);
    // the parameters' JSON text itself: exact, and no hash to compute per tool
    const key = `${optionsKey}|${parametersKey(tool.parameters, copied.negativeZero)}`;
    let argsRule = mergedHere.get(key);
    const fragment = toolFragments.get(key);
    if (fragment !== undefined) {
      for (const w of fragment.warnings) warnings.push({ ...w, schemaPath: tool.parametersPath + w.schemaPath });
      if (argsRule === undefined) {
        // named after this compile's tool, as a cold compile names them: the grammar does not depend on which tool
        // of which earlier compile lowered the schema first
        const prefix = uniqueRuleName(prefixes, toolPrefix(tool.name));
        prefixes.add(prefix);
        const renamed = renamePrefix(fragment, prefix);
        loweredSize += fragment.size;
        argsRule = mergeRules(lowered, renamed.rules, renamed.argsRule);
        mergedHere.set(key, argsRule);
      }
      envelopeTools.push({ name: tool.name, arguments: ref(argsRule) });
      deadline.check(`compiling tool ${JSON.stringify(tool.name)}`);
      continue;
    }
    const cold = lowerToolOrRefuse(tool, key, onRefused, lowering);
    if (cold === null) {
      dropped.add(tool.name);
      continue;
    }
    style ??= cold.style;
    loweredSize += cold.fragment.size;
    argsRule = mergeRules(lowered, cold.fragment.rules, cold.fragment.argsRule);
    mergedHere.set(key, argsRule);
    envelopeTools.push({ name: tool.name, arguments: ref(argsRule) });
    deadline.check(`compiling tool ${JSON.stringify(tool.name)}`);
  }
  // a required call with nothing left to call: the refusal of the first dropped tool stands
  if (lowering.firstRefusal !== undefined && envelopeTools.length === 0 && policy.minCalls > 0)
    throw lowering.firstRefusal;
  const served = dropped.size === 0 ? normalized : normalized.filter((t) => !dropped.has(t.name));
  checkGrammarSize(loweredSize + envelope.ruleNames.length * exprSize(NOTHING), opts);

  const own = new Map<string, GExpr>();
  const rootExpr = envelope.grammar({
    tools: envelopeTools,
    policy,
    reasoning,
    style: indent !== undefined ? indentedJsonStyle(indent.width, indent.depth) : (style ?? jsonStyle(opts.whitespace)),
    addRule: (name, e) => {
      if (!envelope.ruleNames.includes(name)) throw new Error(`internal: envelope rule ${name} is not reserved`);
      own.set(name, e);
      return ref(name);
    },
  });
  own.set("root", rootExpr);
  const grammar = finishGrammar(own, lowered, envelope.ruleNames, deadline);

  return new CompiledGrammar({
    grammar,
    format: envelope.format,
    warnings,
    tools: served,
    schemaHash: () => toolsHash(served),
    jsonSchema: () =>
      callsSchema(
        served.filter((t) => allowed.has(t.name) && policy.maxCalls !== 0),
        opts,
        envelope.description,
      ),
    specialTokens,
    compileSteps: deadline.stepsTaken,
    budget: opts.limits,
    reasoning,
    maxAutomatonStates: opts.limits.maxAutomatonStates,
    structuralTag: () =>
      toStructuralTag({
        description: envelope.description,
        policy,
        reasoning,
        tools: served
          .filter((t) => allowed.has(t.name))
          .map((t) => ({ name: t.name, arguments: argumentsSchema(t, opts) })),
      }),
  });
}

interface ToolLowering {
  opts: ResolvedSchemaOptions;
  prefixes: Set<string>;
  warnings: Diagnostic[];
  deadline: Deadline;
  indent: { width: number; depth: number } | undefined;
  envelope: ReturnType<typeof envelopeFor>;
  /** The first refusal `onRefusedTool` turned into a warning. */
  firstRefusal: ToolgramError | undefined;
}

/**
 * Lowers one tool not found in the fragment cache, applying `onRefusedTool` to a refusal: the fragment (cached
 * under `key` when compiled as asked), or null when the tool is dropped.
 */
function lowerToolOrRefuse(
  tool: NormalizedTool,
  key: string,
  onRefused: OnRefusedTool,
  t: ToolLowering,
): { fragment: ToolFragment & { rules: Map<string, GExpr> }; style: JsonStyle } | null {
  const before = t.warnings.length;
  try {
    const cold = lowerToolFragment(tool, t.opts, t);
    toolFragments.set(key, {
      ...cold.fragment,
      warnings: t.warnings
        .slice(before)
        .map((w) => ({ ...w, schemaPath: w.schemaPath.slice(tool.parametersPath.length) })),
    });
    return cold;
  } catch (e) {
    if (onRefused === "error" || !isToolRefusal(e, t.deadline)) throw e;
    // the failed attempt's warnings describe rules that are not kept
    t.warnings.length = before;
    const refusal = e as ToolgramError;
    t.firstRefusal ??= refusal;
    if (onRefused === "relax" && t.opts.strict) {
      try {
        const relaxed = lowerToolFragment(tool, { ...t.opts, strict: false }, t);
        t.warnings.push(toolRefusedWarning("TOOL_RELAXED", tool, refusal));
        return relaxed;
      } catch (e2) {
        if (!isToolRefusal(e2, t.deadline)) throw e2;
        t.warnings.length = before;
      }
    }
    t.warnings.push(toolRefusedWarning("TOOL_DROPPED", tool, refusal));
    return null;
  }
}

/** One tool's rules under a fresh prefix (not yet merged into the set's). */
function lowerToolFragment(
  tool: NormalizedTool,
  opts: ResolvedSchemaOptions,
  t: ToolLowering,
): { fragment: ToolFragment & { rules: Map<string, GExpr> }; style: JsonStyle } {
  const prefix = uniqueRuleName(t.prefixes, toolPrefix(tool.name));
  t.prefixes.add(prefix);
  // one context per tool: the lowerer's size check walks its whole rule map, so a shared one would be quadratic
  const ctx = createLowerContext(opts, prefix, t.warnings, t.deadline);
  // an indented unit (Command R+) fixes the layout whatever the whitespace option: its arguments one depth deeper
  if (t.indent !== undefined) ctx.style = indentedJsonStyle(t.indent.width, t.indent.depth + 1);
  const style = ctx.style;
  const spelling = t.envelope.argumentSpelling;
  if (spelling?.keywords) ctx.style = { ...ctx.style, keywords: spelling.keywords };
  if (spelling?.keywordArguments) ctx.keywordArguments = true;
  if (spelling?.keywordSeparator !== undefined) ctx.keywordSeparator = spelling.keywordSeparator;
  if (spelling?.xmlParameters) ctx.xmlParameters = spelling.xmlParameters;
  if (spelling?.gemma4) ctx.gemma4 = spelling.gemma4;
  if (spelling?.xmlElements) ctx.xmlElements = spelling.xmlElements;
  const args = lowerTool(tool, ctx, opts, t.warnings);
  ctx.rules.set(uniqueRuleName(ctx.rules, `${prefix}-args`), args);
  if (spelling?.rewrite) for (const [name, e] of ctx.rules) ctx.rules.set(name, spelling.rewrite(e));
  // the arguments' rule is the root lowerSchema counted; a rewrite changes the bodies, so they are counted again
  const size = spelling?.rewrite || ctx.size === undefined ? totalExprSize(ctx.rules.values()) : ctx.size;
  return { fragment: { rules: ctx.rules, prefix, argsRule: `${prefix}-args`, size, warnings: [] }, style };
}

/**
 * A refusal of this tool alone: what it asks cannot be enforced, is unsatisfiable, or exceeds a per-schema limit.
 * An invalid declaration is the caller's mistake, and a spent compile budget leaves nothing for the other tools.
 */
function isToolRefusal(e: unknown, deadline: Deadline): boolean {
  if (e instanceof UnsupportedSchemaError || e instanceof UnsatisfiableSchemaError) return true;
  return e instanceof LimitExceededError && !deadline.expired();
}

function toolRefusedWarning(code: "TOOL_DROPPED" | "TOOL_RELAXED", tool: NormalizedTool, e: ToolgramError): Diagnostic {
  const what = code === "TOOL_DROPPED" ? "left out of the grammar" : "compiled with strict: false (a superset)";
  // the refusal's own words, without the tool and path `repoint` added (both are fields of the warning)
  const named = `tool ${JSON.stringify(tool.name)}: `;
  const suffix = ` (at ${e.schemaPath || "/"})`;
  let reason = e.message.startsWith(named) ? e.message.slice(named.length) : e.message;
  if (reason.endsWith(suffix)) reason = reason.slice(0, -suffix.length);
  return {
    code,
    message: `tool ${JSON.stringify(tool.name)} ${what}, refused with ${e.code}: ${reason}`,
    schemaPath: e.schemaPath,
    tool: tool.name,
    refusalCode: e.code,
  };
}

function readOnRefusedTool(v: unknown): OnRefusedTool {
  if (v === undefined) return "error";
  if (ON_REFUSED_TOOL.includes(v as OnRefusedTool)) return v as OnRefusedTool;
  throw new ToolgramError(
    "INVALID_OPTION",
    `onRefusedTool must be ${ON_REFUSED_TOOL.map((x) => JSON.stringify(x)).join(", ")}, got ${JSON.stringify(v)}`,
  );
}

/**
 * Compiles a JSON Schema into the grammar of one JSON value (JSON mode: `additionalProperties` per the spec by
 * default). Same result shape as `compileTools`, with `format: "json"` and no tools.
 */
function compileSchemaUnguarded(schema: unknown, options: SchemaCompileOptions): CompiledGrammar {
  checkOptionKeys(options, SCHEMA_OPTION_KEYS);
  const opts = resolveSchemaOptions(options, { additionalProperties: "spec" });
  const deadline = Deadline.fromLimits(opts.limits);
  const warnings: Diagnostic[] = [];
  const copy = cloneJson(schema, "", jsonDepthLimit(opts.limits.maxNesting), deadline);
  const ir = normalizeSchema(copy, opts, warnings, "", deadline);
  const ctx = createLowerContext(opts, "value", warnings, deadline);
  ctx.rules.set("root", NOTHING);
  const expr = lowerSchema(ir, ctx);
  const grammar = finishGrammar(new Map([["root", expr]]), ctx.rules, ["root"], deadline);
  return new CompiledGrammar({
    grammar,
    format: "json",
    warnings,
    tools: [],
    // on first read, as a tool set's: hashing the schema's text is about a tenth of a small schema's compile, and
    // most callers want a matcher or GBNF (nothing changes `copy` after the compile)
    schemaHash: () => schemaHash(copy),
    jsonSchema: copy,
    specialTokens: "token-or-text",
    compileSteps: deadline.stepsTaken,
    budget: opts.limits,
    maxAutomatonStates: opts.limits.maxAutomatonStates,
  });
}

/**
 * Each tool's lowering checks its own size; the whole tool set must fit `limits.maxGrammarSize` too: `size` counts
 * every rule lowered (each tool's, each shared schema once) and the envelope's reserved names.
 */
function checkGrammarSize(size: number, opts: ResolvedSchemaOptions): void {
  if (size > opts.limits.maxGrammarSize) {
    throw new LimitExceededError(
      "LIMIT_GRAMMAR_SIZE",
      `the tools' grammars have ${size} nodes together, above limits.maxGrammarSize ${opts.limits.maxGrammarSize}; send fewer or simpler tools, or raise the limit`,
    );
  }
}

/** A rule-name prefix from a tool name: `get_weather` → `get-weather`; non-ASCII-only names → `tool`. */
function toolPrefix(name: string): string {
  const s = slug(name);
  if (s.length === 0) return "tool";
  return /^[a-z]/.test(s) ? s : `t-${s}`;
}

/**
 * Normalizes and lowers one tool's parameters. The schema is compiled with paths relative to the parameters (so
 * rule names read `get-weather-city`, not `tools-0-function-parameters-city`); errors and warnings are re-pointed
 * to the tool's place in the input.
 */
function lowerTool(
  tool: NormalizedTool,
  ctx: LowerContext,
  opts: ResolvedSchemaOptions,
  warnings: Diagnostic[],
): GExpr {
  const before = warnings.length;
  try {
    const params = opts.additionalProperties === "forbid" ? closeObjects(tool.parameters) : tool.parameters;
    return lowerSchema(normalizeSchema(params, opts, warnings, "", ctx.deadline), ctx);
  } catch (e) {
    if (!(e instanceof ToolgramError)) throw e;
    throw repoint(e, tool);
  } finally {
    for (let i = before; i < warnings.length; i++)
      warnings[i] = { ...warnings[i], schemaPath: tool.parametersPath + warnings[i].schemaPath };
  }
}

/**
 * A cached fragment's rules under another tool's prefix: every name the lowerer gave starts with the prefix it was
 * given (`github-x` → `gitlab-x`), and names below a prefix do not depend on it, so this gives the names lowering
 * under `prefix` would.
 */
function renamePrefix(fragment: ToolFragment, prefix: string): { rules: Map<string, GExpr>; argsRule: string } {
  const from = fragment.prefix;
  if (from === prefix) return { rules: new Map(fragment.rules), argsRule: fragment.argsRule };
  const to = (name: string): string =>
    name === from || name.startsWith(`${from}-`) ? prefix + name.slice(from.length) : name;
  const rename = (r: Ref): GExpr => {
    const n = to(r.rule);
    return n === r.rule ? r : ref(n);
  };
  const rules = new Map<string, GExpr>();
  for (const [name, e] of fragment.rules) rules.set(to(name), mapRefs(e, rename));
  return { rules, argsRule: to(fragment.argsRule) };
}

/**
 * Adds one tool's rules to the grammar's, renaming those whose name is taken (tool prefixes are unique, but `a` +
 * `b-c` and `a-b` + `c` can still meet) and rewriting references to them. Returns the new name of `rule`.
 */
function mergeRules(into: Map<string, GExpr>, rules: Map<string, GExpr>, rule: string): string {
  const renames = new Map<string, string>();
  const taken = { has: (n: string) => into.has(n) || rules.has(n) || [...renames.values()].includes(n) };
  for (const name of rules.keys()) if (into.has(name)) renames.set(name, uniqueRuleName(taken, name));
  const rename = (r: Ref): GExpr => {
    const to = renames.get(r.rule);
    return to === undefined ? r : ref(to);
  };
  for (const [name, e] of rules) into.set(renames.get(name) ?? name, renames.size === 0 ? e : mapRefs(e, rename));
  return renames.get(rule) ?? rule;
}

function repoint(e: ToolgramError, tool: NormalizedTool): ToolgramError {
  const suffix = ` (at ${e.schemaPath || "/"})`;
  const bare = e.schemaPath && e.message.endsWith(suffix) ? e.message.slice(0, -suffix.length) : e.message;
  const Ctor = e.constructor as new (
    code: ToolgramError["code"],
    message: string,
    schemaPath: string,
    o?: { cause?: unknown },
  ) => ToolgramError;
  return new Ctor(e.code, `tool ${JSON.stringify(tool.name)}: ${bare}`, tool.parametersPath + e.schemaPath, {
    cause: e,
  });
}

/** Root first, then the envelope's rules, then the lowered ones; unused reservations dropped; optimized. */
function finishGrammar(
  own: Map<string, GExpr>,
  lowered: Map<string, GExpr>,
  reserved: readonly string[],
  deadline: Deadline,
): Grammar {
  const rules = new Map<string, GExpr>(own);
  for (const [name, e] of lowered) if (!reserved.includes(name)) rules.set(name, e);
  const opt = optimize({ rules, root: "root" }, deadline);
  // the root first, as Grammar promises (passes may reorder)
  const g: Grammar = {
    rules: new Map([...opt.rules].sort(([a], [b]) => Number(b === opt.root) - Number(a === opt.root))),
    root: opt.root,
  };
  validateGrammar(g);
  return g;
}

/** The union of the calls; `false` (nothing) when no call is allowed. */
function callsSchema(tools: NormalizedTool[], opts: ResolvedSchemaOptions, d: FormatDescription): JsonValue {
  return tools.length === 0 ? false : { anyOf: tools.map((t) => callSchema(t, opts, d)) };
}

/** A tool's arguments schema as the grammar enforces it (objects closed under `additionalProperties: "forbid"`). */
function argumentsSchema(t: NormalizedTool, opts: ResolvedSchemaOptions): JsonValue {
  return opts.additionalProperties === "forbid" ? closeObjects(t.parameters) : t.parameters;
}

/**
 * One call as a JSON Schema object: what OpenAI-style structured output would enforce for this tool, with the
 * format's keys (`parameters` for tools-array and llama3-json, an `id` where the format has one). The other formats
 * (Glaive's quoted arguments, pythonic, XML parameters, …) get the call's content as JSON,
 * `{"name": …, "arguments": {…}}` (with `"id"` where the call writes one: Mistral Small 3.2's `[CALL_ID]`). The id is
 * required where the format's unit names its form (`idForm`: Mistral's 9 alphanumerics, Command R7B's indices), as
 * the grammar requires it there; optional elsewhere.
 */
function callSchema(t: NormalizedTool, opts: ResolvedSchemaOptions, d: FormatDescription): JsonObject {
  const u = d.unit.kind === "json-object" && d.unit.argumentsEncoding === "object" ? d.unit : null;
  const argumentsKey = u === null ? "arguments" : u.argumentsKey;
  const parameters = argumentsSchema(t, opts);
  // Apertus's `{"NAME": {…}}`: the tool's name is the one key
  if (u !== null && u.nameKey === null)
    return { type: "object", properties: { [t.name]: parameters }, required: [t.name], additionalProperties: false };
  const nameKey = u?.nameKey ?? "name";
  const properties: JsonObject = { [nameKey]: { const: t.name } };
  const required = [nameKey];
  const id = callIdOf(d);
  if (id !== undefined) {
    properties[id.key] = { type: "string", pattern: callIdPattern(callIdForm(id.form)).source };
    if (id.form !== undefined) required.push(id.key);
  }
  properties[argumentsKey] = parameters;
  required.push(argumentsKey);
  return { type: "object", properties, required, additionalProperties: false };
}

/** The key of a call's id in its schema and the form the format fixes for it, when its calls carry an id. */
function callIdOf(d: FormatDescription): { key: string; form: CallIdForm | undefined } | undefined {
  const u = d.unit;
  if (u.kind === "json-object") return u.idKey === null ? undefined : { key: u.idKey, form: u.idForm };
  if (u.kind === "name-then-json") return u.idMarker === undefined ? undefined : { key: "id", form: u.idForm };
  return undefined;
}

const SCHEMA_OPTION_KEYS = [
  "strict",
  "whitespace",
  "additionalProperties",
  "unknownKeywords",
  "propertyOrder",
  "limits",
];
const TOOL_OPTION_KEYS = [
  ...SCHEMA_OPTION_KEYS,
  "format",
  "toolChoice",
  "parallel",
  "freeText",
  "specialTokens",
  "reasoning",
  "reasoningMarkers",
  "onRefusedTool",
];

/** A misspelled option (`tool_choice`) would otherwise be ignored silently and compile something else. */
function checkOptionKeys(options: object, known: readonly string[]): void {
  if (typeof options !== "object" || options === null)
    throw new ToolgramError("INVALID_OPTION", "options must be an object");
  for (const key of Object.keys(options)) {
    if (known.includes(key) || (options as Record<string, unknown>)[key] === undefined) continue;
    const norm = (k: string): string => k.toLowerCase().replace(/[^a-z]/g, "");
    const close = known.find((k) => norm(k) === norm(key));
    throw new ToolgramError(
      "INVALID_OPTION",
      `unknown option ${JSON.stringify(key)}${close ? `; did you mean ${JSON.stringify(close)}?` : `; known options: ${known.join(", ")}`}`,
    );
  }
}

function readSpecialTokens(v: unknown): "token-or-text" | "token-only" {
  if (v === undefined) return "token-or-text";
  if (v === "token-or-text" || v === "token-only") return v;
  throw new ToolgramError(
    "INVALID_OPTION",
    `specialTokens must be "token-or-text" or "token-only", got ${JSON.stringify(v)}`,
  );
}

/**
 * A grammar nested deeper than the JavaScript stack allows (a pathological schema the nesting limits did not catch)
 * fails closed with LIMIT_NESTING rather than a RangeError.
 */
function stackGuard<T>(f: () => T): T {
  try {
    return f();
  } catch (e) {
    if (e instanceof RangeError && /call stack/i.test(e.message)) {
      throw new LimitExceededError(
        "LIMIT_NESTING",
        "the schema's grammar nests too deeply to process (the stack was exhausted); flatten the schema or split it",
      );
    }
    throw e;
  }
}

/** Compile a tool list into the grammar of one assistant turn (see ToolCompileOptions for the defaults). */
export function compileTools(tools: unknown, options: ToolCompileOptions = {}): CompiledGrammar {
  return stackGuard(() => compileToolsUnguarded(tools, options));
}

/** Compile a JSON Schema into the grammar of one JSON value (JSON mode). */
export function compileSchema(schema: unknown, options: SchemaCompileOptions = {}): CompiledGrammar {
  return stackGuard(() => compileSchemaUnguarded(schema, options));
}
