import type { LlamaModel, Token } from "node-llama-cpp";
import { describeFormat } from "../formats/describeFormat.js";
import type { CompiledGrammar } from "../CompiledGrammar.js";
import { compileTools } from "../compile.js";
import type { ParallelOption, ToolChoice } from "../envelope/callPolicy.js";
import { parseToolCalls } from "../parser/parseToolCalls.js";
import type { ParsedToolCall, ParseIssue } from "../parser/types.js";
import type { Vocabulary } from "../vocab/Vocabulary.js";
import { vocabularyFromGguf } from "../vocab/vocabularyFromGguf.js";
import { ToolgramError } from "../errors.js";
import type { FinishReason, GenerateOptions } from "./generationTypes.js";
import { guardTokens } from "./BudgetSteering.js";
import { generateWithGbnf } from "./generateWithGbnf.js";
import { generateWithMask } from "./generateWithMask.js";
import { modelPathOf } from "./loadNodeLlamaCpp.js";
import { templateTools, type ChatMessage } from "../prompt/qwen3ChatPrompt.js";
import { modelChatFor, type ModelChat, type ModelTurnOptions } from "../prompt/ModelChat.js";
import type { FormatOption } from "../formats/describeFormat.js";
import type { ReasoningMode } from "../formats/FormatDescription.js";

/**
 * How the output is constrained: llama.cpp's grammar sampler on toolgram's GBNF, toolgram's token matcher, or not at
 * all.
 */
export type GenerationEngine = "gbnf" | "matcher" | "none";

/**
 * The engine a caller named, checked: a JavaScript caller that leaves it out or misspells it gets an INVALID_OPTION
 * naming the choices, never an unconstrained generation it did not ask for.
 */
export function checkEngine<E extends string>(engine: unknown, allowed: readonly E[]): E {
  if (typeof engine === "string" && (allowed as readonly string[]).includes(engine)) return engine as E;
  throw new ToolgramError(
    "INVALID_OPTION",
    `engine must be ${allowed.map((e) => JSON.stringify(e)).join(", ")}; got ${engine === undefined ? "none" : JSON.stringify(engine)}`,
  );
}

/** Options of {@link generateToolCalls}: the model, the conversation and tools, the policy and the sampler. */
export interface GenerateToolCallsOptions {
  /**
   * A model loaded with node-llama-cpp; its chat template (the GGUF's `tokenizer.chat_template`) decides the format.
   */
  readonly model: LlamaModel;
  /**
   * The tool-call format (a name or alias). @defaultValue the one the model's chat template writes
   * (formatFromChatTemplate); Qwen3/Hermes for a model without a template
   */
  readonly format?: FormatOption;
  /**
   * A reasoning block before the calls. @defaultValue "required" when the template's generation prompt opens the
   * block, else the format's default (see modelChatFor)
   */
  readonly reasoning?: ReasoningMode;
  /** A chat template to render prompts with instead of the model's own (for a GGUF without one). */
  readonly chatTemplate?: string;
  /** Declared tools in any shape `compileTools` reads (OpenAI, MCP, Anthropic, `{tools: [...]}`). */
  readonly tools: unknown;
  /** The conversation so far (tool results as `tool` messages). */
  readonly messages: readonly ChatMessage[];
  /** Which tools the model may call, and whether it must, as `compileTools`' `toolChoice`. @defaultValue "auto" */
  readonly toolChoice?: ToolChoice;
  /** How many calls the turn may hold, as `compileTools`' `parallel`. @defaultValue true */
  readonly parallel?: ParallelOption;
  /** How the output is constrained (see {@link GenerationEngine}); `"none"` generates unconstrained, for comparison. */
  readonly engine: GenerationEngine;
  /** Most tokens to generate; reaching it ends with finish reason `length`. @defaultValue 256 */
  readonly maxTokens?: number;
  /** Seed of the sampler, for reproducible runs. @defaultValue 0 */
  readonly seed?: number;
  /** Sampling temperature; 0 is greedy. @defaultValue 0.7 */
  readonly temperature?: number;
  /** Sampler settings, as in `generateWithGbnf` (`topK`, `topP`, `repeatPenalty`). */
  readonly sampling?: Pick<GenerateOptions, "topK" | "topP" | "repeatPenalty">;
  /** The model's vocabulary for the matcher; read from the model's GGUF file when omitted. */
  readonly vocab?: Vocabulary;
  /** Append the matcher's forced text without sampling it (matcher engine only). @defaultValue true */
  readonly jumpForward?: boolean;
  /**
   * Finish every constrained turn within `maxTokens`: near the end of the budget only tokens after which the call
   * can still be completed are allowed (the matcher's `fillNextTokenBitmaskWithin`; with the gbnf engine, as a token
   * bias next to llama.cpp's grammar). Off: a model that never closes a string is cut mid-call. @defaultValue true
   */
  readonly closeWithinBudget?: boolean;
  /** Pass `enable_thinking: false` to the template (an empty `<think>` block opens the turn). */
  readonly enableThinking?: boolean;
}

/**
 * What {@link generateToolCalls} produced: the text, the parsed calls (always valid under a constraint) and timings.
 */
export interface ToolCallGeneration {
  /** The generated assistant text. */
  readonly text: string;
  /** Calls parsed from `text` in strict mode and validated against the tools (`valid`). */
  readonly calls: ParsedToolCall[];
  /** Parser issues (empty for grammar-constrained output). */
  readonly issues: ParseIssue[];
  /** The text outside the call blocks. */
  readonly content: string;
  /** Each call's exact text (its whole block in block formats), to replay the turn verbatim. */
  readonly blocks: string[];
  /** The reasoning block's text, when the turn has one. */
  readonly reasoning?: string;
  /** The format, reasoning and markers the turn was constrained and parsed with. */
  readonly turn: ModelTurnOptions;
  /** The turn as an assistant message for the next request's `messages`. */
  readonly message: ChatMessage;
  /** The rendered prompt. */
  readonly prompt: string;
  /** The generated token ids, without the end-of-generation token. */
  readonly tokens: readonly number[];
  /** `"stop"`: the model or the constraint ended the turn; `"length"`: `maxTokens` ran out. */
  readonly finishReason: FinishReason;
  /** Milliseconds spent generating (prompt evaluation included). */
  readonly elapsedMs: number;
  /** Generated tokens per second of `elapsedMs`. */
  readonly tokensPerSecond: number;
  /** Tokens appended by jump-forward decoding (matcher engine). */
  readonly forcedTokens: number;
  /** Steps at which the token budget narrowed the choices; gbnf engine: whether steering had to stop. */
  readonly budgetSteps: number;
  /**
   * gbnf engine: the budget's matcher refused a token llama.cpp's grammar allowed, and steering stopped (else false).
   */
  readonly budgetAbandoned: boolean;
  /**
   * Matcher engine: slices of work the matcher was warmed with while llama.cpp evaluated the prompt (the masks of
   * every tool's first states computed then, not at the steps that reach them; see `TokenMatcher.warm`).
   */
  readonly promptWarmSlices: number;
}

const compiledCache = new WeakMap<object, Map<string, CompiledGrammar>>();

/**
 * Compiles once per tools object, policy and turn options: the matcher's mask table is shared through the compiled
 * grammar. `turn` defaults to Qwen3 without reasoning.
 */
export function compiledFor(
  tools: unknown,
  toolChoice: ToolChoice | undefined,
  parallel: ParallelOption | undefined,
  freeText?: boolean,
  turn?: ModelTurnOptions,
): CompiledGrammar {
  const key = JSON.stringify([toolChoice ?? null, parallel ?? null, freeText ?? null, turn ?? null]);
  const byKey =
    typeof tools === "object" && tools !== null
      ? (compiledCache.get(tools) ?? new Map<string, CompiledGrammar>())
      : undefined;
  const hit = byKey?.get(key);
  if (hit !== undefined) return hit;
  const compiled = compileTools(tools, {
    toolChoice,
    parallel,
    ...(freeText === undefined ? {} : { freeText }),
    ...turnCompileOptions(turn),
  });
  if (byKey !== undefined) {
    byKey.set(key, compiled);
    compiledCache.set(tools as object, byKey);
  }
  return compiled;
}

const vocabCache = new Map<string, Promise<Vocabulary>>();

/** The vocabulary of a loaded model, read from its GGUF file once per path. */
export function vocabularyOf(model: LlamaModel): Promise<Vocabulary> {
  const path = modelPathOf(model);
  if (path === undefined) {
    throw new ToolgramError(
      "INVALID_OPTION",
      "the model has no file name to read its vocabulary from; pass `vocab` (vocabularyFromGguf from toolgram/node, or Vocabulary.fromTokenizerJson).",
    );
  }
  let v = vocabCache.get(path);
  if (v === undefined) {
    v = vocabularyFromGguf(path);
    vocabCache.set(path, v);
    v.catch(() => vocabCache.delete(path));
  }
  return v;
}

function turnCompileOptions(turn: ModelTurnOptions | undefined): {
  format?: string;
  reasoning?: ReasoningMode;
  reasoningMarkers?: { open: string; close: string };
} {
  if (turn === undefined) return {};
  return {
    format: turn.format,
    reasoning: turn.reasoning,
    ...(turn.reasoningMarkers === undefined ? {} : { reasoningMarkers: { ...turn.reasoningMarkers } }),
  };
}

/** Qwen3/Hermes without reasoning: what toolgram generated before it read formats from chat templates. */
const QWEN3_TURN: ModelTurnOptions = { format: "qwen3", reasoning: "none" };

/** Parses a turn strictly against the declared tools (in `turn`'s format, Qwen3 by default) and shapes the result. */
export function readToolCallTurn(
  text: string,
  declared: readonly unknown[],
  turn: ModelTurnOptions = QWEN3_TURN,
): Pick<ToolCallGeneration, "calls" | "issues" | "content" | "blocks" | "message" | "reasoning"> {
  const parsed = parseToolCalls(text, { tools: declared, mode: "strict", ...turnCompileOptions(turn) });
  const blocks = parsed.calls.map((c) => c.raw);
  const message: ChatMessage = {
    role: "assistant",
    content: parsed.content,
    ...(parsed.reasoning === undefined ? {} : { reasoning_content: parsed.reasoning }),
    ...(parsed.calls.length > 0
      ? {
          tool_calls: parsed.calls.map((c) => ({
            ...(c.id === undefined ? {} : { id: c.id }),
            type: "function" as const,
            function: { name: c.name, arguments: c.arguments },
          })),
        }
      : {}),
  };
  return {
    calls: parsed.calls,
    issues: parsed.issues,
    content: parsed.content,
    blocks,
    message,
    ...(parsed.reasoning === undefined ? {} : { reasoning: parsed.reasoning }),
  };
}

/** The chat template to render with: the option, else the vocabulary's, else the GGUF's metadata. */
async function chatTemplateOf(
  model: LlamaModel,
  options: Pick<GenerateToolCallsOptions, "chatTemplate" | "vocab">,
): Promise<string | undefined> {
  if (options.chatTemplate !== undefined) return options.chatTemplate;
  if (options.vocab?.chatTemplate !== undefined) return options.vocab.chatTemplate;
  const fromMetadata = (model.fileInfo?.metadata as { tokenizer?: { chat_template?: unknown } } | undefined)?.tokenizer
    ?.chat_template;
  if (typeof fromMetadata === "string") return fromMetadata;
  if (options.vocab !== undefined || modelPathOf(model) === undefined) return undefined;
  return (await vocabularyOf(model)).chatTemplate;
}

function tokenText(model: LlamaModel, token: number | null | undefined): string {
  return token === null || token === undefined ? "" : model.detokenize([token as Token], true);
}

/**
 * The model's chat: its format and reasoning (`format` / `reasoning` override the template's), and its prompt
 * renderer (see modelChatFor). Throws a ToolgramError naming the format when the template writes one toolgram does
 * not describe.
 */
export async function modelChatOf(
  model: LlamaModel,
  options: Pick<GenerateToolCallsOptions, "chatTemplate" | "vocab" | "format" | "reasoning"> = {},
): Promise<ModelChat> {
  const template = await chatTemplateOf(model, options);
  return modelChatFor(template, {
    ...(options.format === undefined ? {} : { format: options.format }),
    ...(options.reasoning === undefined ? {} : { reasoning: options.reasoning }),
    bosToken: tokenText(model, model.tokens.bos),
    eosToken: tokenText(model, model.tokens.eos),
  });
}

/**
 * The model's end-of-generation tokens that are text of the format (a closing marker llama.cpp also counts as an
 * end: harmony's `<|call|>`): the generators keep them in the output instead of stopping there.
 */
export function formatEogTokens(model: LlamaModel, format: string): readonly number[] {
  const d = describeFormat(format);
  const out: number[] = [];
  for (const text of d.specialTokens) {
    const ids = model.tokenize(text, true);
    if (ids.length === 1 && model.isEogToken(ids[0])) out.push(ids[0]);
  }
  return out;
}

/**
 * Renders the conversation with the model's own chat template, generates one assistant turn constrained by
 * toolgram's grammar for the tools and policy in the template's format (see `modelChatOf`), and parses the calls out
 * of it strictly.
 *  - `engine: "gbnf"`: `compileTools(...).toGbnf()` enforced by llama.cpp's grammar sampler;
 *  - `engine: "matcher"`: toolgram's token matcher masks every step (with jump-forward over forced text), and is
 *    warmed while the prompt is evaluated (`TokenMatcher.warm`: the masks a call reaches soon, computed ahead);
 *  - `engine: "none"`: unconstrained, for comparison.
 */
export async function generateToolCalls(options: GenerateToolCallsOptions): Promise<ToolCallGeneration> {
  const { model, tools } = options;
  const engine = checkEngine(options.engine, ["gbnf", "matcher", "none"] as const);
  const chat = await modelChatOf(model, options);
  const turn: ModelTurnOptions = {
    format: chat.format,
    reasoning: chat.reasoning,
    ...(chat.reasoningMarkers === undefined ? {} : { reasoningMarkers: chat.reasoningMarkers }),
  };
  const compiled = compiledFor(tools, options.toolChoice, options.parallel, undefined, turn);
  const declared = compiled.tools;
  const prompt = chat.render(options.messages, {
    tools: templateTools(tools, declared),
    enableThinking: options.enableThinking,
  });
  const keepEog = engine === "none" ? [] : formatEogTokens(model, chat.format);
  const common = {
    model,
    prompt,
    maxTokens: options.maxTokens ?? 256,
    temperature: options.temperature ?? 0.7,
    seed: options.seed ?? 0,
    ...options.sampling,
    ...(keepEog.length > 0 ? { keepEog } : {}),
  };
  const closeWithinBudget = options.closeWithinBudget ?? true;
  let forcedTokens = 0;
  let budgetSteps = 0;
  let budgetAbandoned = false;
  let promptWarmSlices = 0;
  let result;
  if (engine === "matcher") {
    const vocab = options.vocab ?? (await vocabularyOf(model));
    const r = await generateWithMask({
      ...common,
      matcher: compiled.createMatcher(vocab),
      jumpForward: options.jumpForward ?? true,
      closeWithinBudget,
    });
    forcedTokens = r.forcedTokens;
    budgetSteps = r.budgetSteps;
    promptWarmSlices = r.promptWarmSlices;
    result = r;
  } else if (engine === "gbnf") {
    const vocab = closeWithinBudget ? (options.vocab ?? (await vocabularyOf(model))) : undefined;
    const budget =
      vocab === undefined ? {} : { budgetMatcher: compiled.createMatcher(vocab), budgetGuard: guardTokens(vocab) };
    const r = await generateWithGbnf({ ...common, gbnf: compiled.toGbnf(), ...budget });
    budgetSteps = r.budgetSteps;
    budgetAbandoned = r.budgetAbandoned;
    result = r;
  } else {
    result = await generateWithGbnf({ ...common, gbnf: undefined });
  }
  return {
    text: result.text,
    ...readToolCallTurn(result.text, declared, turn),
    turn,
    prompt,
    tokens: result.tokens,
    finishReason: result.finishReason,
    elapsedMs: result.elapsedMs,
    tokensPerSecond: result.tokensPerSecond,
    forcedTokens,
    budgetSteps,
    budgetAbandoned,
    promptWarmSlices,
  };
}
