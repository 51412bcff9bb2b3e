import type { LlamaModel, Token } from "node-llama-cpp";
import type { FinishReason } from "./generationTypes.js";
import { generateWithMask } from "./generateWithMask.js";
import {
  checkEngine,
  compiledFor,
  formatEogTokens,
  modelChatOf,
  readToolCallTurn,
  vocabularyOf,
  type GenerateToolCallsOptions,
  type ToolCallGeneration,
} from "./generateToolCalls.js";
import { describeFormat } from "../formats/describeFormat.js";
import { ToolgramError } from "../errors.js";
import type { ModelTurnOptions } from "../prompt/ModelChat.js";
import { BudgetSteering } from "./BudgetSteering.js";
import { LlamaGrammarProbe } from "./LlamaGrammarProbe.js";
import { loadNodeLlamaCpp } from "./loadNodeLlamaCpp.js";
import { templateTools } from "../prompt/qwen3ChatPrompt.js";
import { samplingOptions, withSequence } from "./withSequence.js";

/**
 * Options of {@link generateLazy}: those of {@link generateToolCalls} except the tool choice, which the model makes.
 */
export interface GenerateLazyOptions extends Omit<GenerateToolCallsOptions, "toolChoice" | "engine"> {
  /**
   * How the calls after the trigger are constrained: llama.cpp's grammar sampler on the GBNF, or toolgram's matcher.
   */
  readonly engine: "gbnf" | "matcher";
  /**
   * The token that switches the grammar on. @defaultValue the format's opening marker when it is one token of the
   * model's vocabulary (`<tool_call>`, 151657 in Qwen3); other formats need it given
   */
  readonly triggerToken?: number;
  /**
   * Added to the trigger token's logit during the free part (a nudge towards calling; llama-server has the same
   * effect with `logit_bias`). @defaultValue 0
   */
  readonly triggerBias?: number;
}

/** What {@link generateLazy} produced: the turn, whether the tool-call trigger came, and the free tokens before it. */
export interface LazyGeneration extends ToolCallGeneration {
  /** Tokens generated freely before the trigger (all of them when it never came). */
  readonly freeTokens: number;
  /** The trigger token was generated and the grammar took over. */
  readonly triggered: boolean;
}

/**
 * A lazy grammar: the model writes freely (reasoning included) until it emits the trigger token (the format's
 * opening marker: `<tool_call>`, one token in Qwen3), and
 * from there the output is constrained by toolgram's grammar for `toolChoice: "required"` without free text,
 * already advanced past the trigger. This is what llama-server does with `grammar_lazy: true` and
 * `grammar_triggers` (its tool-call grammars are lazy, triggered by the format's opening word or token).
 *  - `engine: "gbnf"`: llama.cpp's grammar state is fed the trigger token, then enforced by its sampler;
 *  - `engine: "matcher"`: toolgram's matcher accepts the trigger token, then masks every step.
 */
export async function generateLazy(options: GenerateLazyOptions): Promise<LazyGeneration> {
  const { model, tools } = options;
  checkEngine(options.engine, ["gbnf", "matcher"] as const);
  const chat = await modelChatOf(model, options);
  const trigger = options.triggerToken ?? triggerOf(model, chat.format);
  // the grammar starts at the trigger, past any reasoning (which the free part holds); the whole turn is parsed
  // with the template's reasoning
  const compiled = compiledFor(tools, "required", options.parallel, false, { format: chat.format, reasoning: "none" });
  const turn: ModelTurnOptions = {
    format: chat.format,
    reasoning: chat.reasoning,
    ...(chat.reasoningMarkers === undefined ? {} : { reasoningMarkers: chat.reasoningMarkers }),
  };
  const keepEog = formatEogTokens(model, chat.format);
  const declared = compiled.tools;
  const prompt = chat.render(options.messages, {
    tools: templateTools(tools, declared),
    enableThinking: options.enableThinking,
  });
  const maxTokens = options.maxTokens ?? 256;
  const temperature = options.temperature ?? 0.7;
  const seed = options.seed ?? 0;
  const input = model.tokenize(prompt, true);
  const sampling = { ...options.sampling };
  const generated: Token[] = [];
  const started = performance.now();

  // The GBNF path stays on one sequence; the matcher path continues in generateWithMask with the free part as prompt.
  const { TokenBias } = await loadNodeLlamaCpp();
  const probe = options.engine === "gbnf" ? await LlamaGrammarProbe.create(model, compiled.toGbnf()) : undefined;
  let steering: BudgetSteering | undefined;
  let budgetSteps = 0;
  const phase = await withSequence({ model, prompt: input }, async (sequence) => {
    const tokens = generated;
    let triggered = false;
    let finishReason: FinishReason = "length";
    const tokenBias = options.triggerBias
      ? new TokenBias(model.tokenizer).set(trigger as Token, { logit: options.triggerBias })
      : undefined;
    for await (const token of sequence.evaluate(input, {
      temperature,
      seed,
      tokenBias,
      ...samplingOptions(sampling, generated),
    })) {
      if (tokens.length >= maxTokens) break;
      tokens.push(token);
      if (token === trigger) {
        triggered = true;
        break;
      }
    }
    if (!triggered && tokens.length < maxTokens) finishReason = "stop";
    const freeTokens = triggered ? tokens.length - 1 : tokens.length;
    if (!triggered || probe === undefined) return { tokens, triggered, finishReason, freeTokens };
    probe.accept(trigger);
    finishReason = "stop";
    // The budget matcher follows llama.cpp's grammar from the trigger on, and narrows it when the budget gets tight.
    const matcher =
      options.closeWithinBudget === false
        ? undefined
        : compiled.createMatcher(options.vocab ?? (await vocabularyOf(model)));
    const steer = matcher?.acceptToken(trigger) ? BudgetSteering.for(model, matcher, TokenBias) : undefined;
    steering = steer;
    // The trigger was sampled but not yet evaluated: evaluate it, under the grammar that has already consumed it.
    for await (const token of sequence.evaluate([trigger as Token], {
      temperature,
      seed: seed + 1,
      grammarEvaluationState: probe.state,
      ...(steer === undefined ? {} : { tokenBias: () => steer.tokenBias(maxTokens - tokens.length) }),
      ...samplingOptions(sampling, generated),
    })) {
      if (tokens.length >= maxTokens) {
        finishReason = "length";
        break;
      }
      steer?.follow(token);
      tokens.push(token);
    }
    if (tokens.length >= maxTokens) finishReason = "length";
    return { tokens, triggered, finishReason, freeTokens };
  });

  let tokens: readonly number[] = phase.tokens;
  let finishReason = phase.finishReason;
  let forcedTokens = 0;
  let promptWarmSlices = 0;
  if (phase.triggered && options.engine === "matcher") {
    const matcher = compiled.createMatcher(options.vocab ?? (await vocabularyOf(model)));
    if (!matcher.acceptToken(trigger)) throw new Error(`the grammar does not start with the trigger token ${trigger}`);
    const rest = await generateWithMask({
      model,
      prompt: [...input, ...phase.tokens],
      matcher,
      maxTokens: maxTokens - phase.tokens.length,
      temperature,
      seed: seed + 1,
      jumpForward: options.jumpForward ?? true,
      closeWithinBudget: options.closeWithinBudget ?? true,
      ...sampling,
      ...(keepEog.length > 0 ? { keepEog } : {}),
    });
    tokens = [...phase.tokens, ...rest.tokens];
    finishReason = rest.finishReason;
    forcedTokens = rest.forcedTokens;
    budgetSteps = rest.budgetSteps;
    promptWarmSlices = rest.promptWarmSlices;
  }
  const elapsedMs = performance.now() - started;
  const text = model.detokenize(tokens as Token[], true);
  return {
    text,
    ...readToolCallTurn(text, declared, turn),
    turn,
    prompt,
    tokens,
    finishReason,
    elapsedMs,
    tokensPerSecond: tokens.length / (elapsedMs / 1000),
    forcedTokens,
    budgetSteps: budgetSteps + (steering?.steps ?? 0),
    budgetAbandoned: steering?.abandoned ?? false,
    promptWarmSlices,
    freeTokens: phase.freeTokens,
    triggered: phase.triggered,
  };
}

/** The format's opening marker as one token of the model's vocabulary (the lazy grammar's trigger). */
function triggerOf(model: LlamaModel, format: string): number {
  const open = describeFormat(format).open;
  const ids = open === null ? [] : model.tokenize(open, true);
  if (ids.length !== 1) {
    throw new ToolgramError(
      "INVALID_OPTION",
      `format ${format} opens a call with ${JSON.stringify(open)}, which is not one token of this model's vocabulary; pass triggerToken`,
    );
  }
  return ids[0];
}
