import type { LlamaModel } from "node-llama-cpp";
import type { CompiledGrammar } from "../CompiledGrammar.js";
import { compileTools } from "../compile.js";
import type { ParallelOption, ToolChoice } from "../envelope/callPolicy.js";
import { parseToolCalls } from "../parser/parseToolCalls.js";
import type { ParsedToolCall, ParseIssue } from "../parser/types.js";
import { Vocabulary } from "../vocab/Vocabulary.js";
import { ToolgramError } from "../errors.js";
import type { FinishReason, GenerateOptions } from "./generationTypes.js";
import { guardTokens } from "./BudgetSteering.js";
import { generateWithGbnf } from "./generateWithGbnf.js";
import { generateWithMask } from "./generateWithMask.js";
import { modelPathOf } from "./loadNodeLlamaCpp.js";
import { renderQwen3Prompt, templateTools, type ChatMessage } from "./qwen3ChatPrompt.js";

/** How the output is constrained: llama.cpp's grammar sampler on toolgram's GBNF, toolgram's token matcher, or not at all. */
export type GenerationEngine = "gbnf" | "matcher" | "none";

export interface GenerateToolCallsOptions {
  /** A Qwen3-family model loaded with node-llama-cpp. */
  readonly model: LlamaModel;
  /** Declared tools in any shape `compileTools` reads (OpenAI, MCP, Anthropic, `{tools: [...]}`). */
  readonly tools: unknown;
  /** The conversation so far (tool results as `tool` messages). */
  readonly messages: readonly ChatMessage[];
  /** @defaultValue "auto" */
  readonly toolChoice?: ToolChoice;
  /** @defaultValue true */
  readonly parallel?: ParallelOption;
  readonly engine: GenerationEngine;
  /** @defaultValue 256 */
  readonly maxTokens?: number;
  /** @defaultValue 0 */
  readonly seed?: number;
  /** @defaultValue 0.7 */
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

export interface ToolCallGeneration {
  /** The generated assistant text. */
  readonly text: string;
  /** Calls parsed from `text` in strict mode and validated against the tools (`valid`). */
  readonly calls: ParsedToolCall[];
  /** Parser issues (empty for grammar-constrained output). */
  readonly issues: ParseIssue[];
  /** The text outside the call blocks. */
  readonly content: string;
  /** Each call's exact `<tool_call>…</tool_call>` block, to replay the turn verbatim. */
  readonly blocks: string[];
  /** The turn as an assistant message for the next request's `messages`. */
  readonly message: ChatMessage;
  /** The rendered prompt. */
  readonly prompt: string;
  readonly tokens: readonly number[];
  readonly finishReason: FinishReason;
  readonly elapsedMs: number;
  readonly tokensPerSecond: number;
  /** Tokens appended by jump-forward decoding (matcher engine). */
  readonly forcedTokens: number;
  /** Steps at which the token budget narrowed the choices; gbnf engine: whether steering had to stop. */
  readonly budgetSteps: number;
  readonly budgetAbandoned: boolean;
}

const compiledCache = new WeakMap<object, Map<string, CompiledGrammar>>();

/** Compiles once per tools object and policy: the matcher's mask table is shared through the compiled grammar. */
export function compiledFor(tools: unknown, toolChoice: ToolChoice | undefined, parallel: ParallelOption | undefined, freeText?: boolean): CompiledGrammar {
  const key = JSON.stringify([toolChoice ?? null, parallel ?? null, freeText ?? null]);
  const byKey = typeof tools === "object" && tools !== null ? (compiledCache.get(tools) ?? new Map<string, CompiledGrammar>()) : undefined;
  const hit = byKey?.get(key);
  if (hit !== undefined) return hit;
  const compiled = compileTools(tools, { toolChoice, parallel, ...(freeText === undefined ? {} : { freeText }) });
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
    throw new ToolgramError("INVALID_OPTION", "the model has no file name to read its vocabulary from; pass `vocab` (Vocabulary.fromGguf or fromTokenizerJson).");
  }
  let v = vocabCache.get(path);
  if (v === undefined) {
    v = Vocabulary.fromGguf(path);
    vocabCache.set(path, v);
    v.catch(() => vocabCache.delete(path));
  }
  return v;
}

/** Parses a turn strictly against the declared tools and shapes the result. */
export function readToolCallTurn(text: string, declared: readonly unknown[]): Pick<ToolCallGeneration, "calls" | "issues" | "content" | "blocks" | "message"> {
  const parsed = parseToolCalls(text, { tools: declared, format: "qwen3", mode: "strict" });
  const blocks = parsed.calls.map((c) => c.raw);
  const message: ChatMessage = {
    role: "assistant",
    content: parsed.content,
    ...(parsed.calls.length > 0 ? { tool_calls: parsed.calls.map((c) => ({ type: "function" as const, function: { name: c.name, arguments: c.arguments } })) } : {}),
  };
  return { calls: parsed.calls, issues: parsed.issues, content: parsed.content, blocks, message };
}

/**
 * Renders the conversation with Qwen3's chat template (tools in the system turn), generates one assistant turn
 * constrained by toolgram's grammar for the tools and policy, and parses the calls out of it.
 *  - `engine: "gbnf"`: `compileTools(...).toGbnf()` enforced by llama.cpp's grammar sampler;
 *  - `engine: "matcher"`: toolgram's token matcher masks every step (with jump-forward over forced text);
 *  - `engine: "none"`: unconstrained, for comparison.
 */
export async function generateToolCalls(options: GenerateToolCallsOptions): Promise<ToolCallGeneration> {
  const { model, tools, engine } = options;
  const compiled = compiledFor(tools, options.toolChoice, options.parallel);
  const declared = compiled.tools;
  const prompt = renderQwen3Prompt(options.messages, { tools: templateTools(tools, declared), enableThinking: options.enableThinking });
  const common = { model, prompt, maxTokens: options.maxTokens ?? 256, temperature: options.temperature ?? 0.7, seed: options.seed ?? 0, ...options.sampling };
  const closeWithinBudget = options.closeWithinBudget ?? true;
  let forcedTokens = 0;
  let budgetSteps = 0;
  let budgetAbandoned = false;
  let result;
  if (engine === "matcher") {
    const vocab = options.vocab ?? (await vocabularyOf(model));
    const r = await generateWithMask({ ...common, matcher: compiled.createMatcher(vocab), jumpForward: options.jumpForward ?? true, closeWithinBudget });
    forcedTokens = r.forcedTokens;
    budgetSteps = r.budgetSteps;
    result = r;
  } else if (engine === "gbnf") {
    const vocab = closeWithinBudget ? (options.vocab ?? (await vocabularyOf(model))) : undefined;
    const budget = vocab === undefined ? {} : { budgetMatcher: compiled.createMatcher(vocab), budgetGuard: guardTokens(vocab) };
    const r = await generateWithGbnf({ ...common, gbnf: compiled.toGbnf(), ...budget });
    budgetSteps = r.budgetSteps;
    budgetAbandoned = r.budgetAbandoned;
    result = r;
  } else {
    result = await generateWithGbnf({ ...common, gbnf: undefined });
  }
  return {
    text: result.text,
    ...readToolCallTurn(result.text, declared),
    prompt,
    tokens: result.tokens,
    finishReason: result.finishReason,
    elapsedMs: result.elapsedMs,
    tokensPerSecond: result.tokensPerSecond,
    forcedTokens,
    budgetSteps,
    budgetAbandoned,
  };
}
