import type { LlamaGrammar, Token } from "node-llama-cpp";
import { BudgetSteering } from "./BudgetSteering.js";
import type { TokenMaskMatcher } from "./generateWithMask.js";
import { ToolgramError } from "../errors.js";
import type { GenerateOptions, GenerateResult } from "./generationTypes.js";
import { checkGbnfRepetitions } from "./checkGbnfRepetitions.js";
import { loadNodeLlamaCpp } from "./loadNodeLlamaCpp.js";
import { promptTokens, samplingOptions, withSequence } from "./withSequence.js";

/** Options of {@link generateWithGbnf}: the generation settings and the GBNF grammar llama.cpp enforces. */
export interface GenerateWithGbnfOptions extends GenerateOptions {
  /** A GBNF grammar with a `root` rule, enforced by llama.cpp's own grammar sampler; undefined = unconstrained. */
  readonly gbnf: string | undefined;
  /**
   * A token matcher of the same grammar (`compiled.createMatcher(vocab)`), used only to close the output within
   * `maxTokens`: llama.cpp's grammar sampler has no notion of a budget, so when the budget gets tight the matcher's
   * budgeted mask is added as a token bias (disallowed tokens "never"); until then llama.cpp's grammar acts alone.
   * The matcher follows every sampled token; if it ever refuses one that llama.cpp's grammar allowed (they differ on
   * special tokens inside strings), steering stops and `budgetAbandoned` says so.
   */
  readonly budgetMatcher?: TokenMaskMatcher;
  /**
   * Token ids the two grammars may read differently (`guardTokens(vocab)`): each step bans those the budget matcher
   * refuses, so llama.cpp never takes one the matcher would not (a special token inside a string) and the budget holds
   * to the end. Without it, such a token stops the steering (`budgetAbandoned`).
   */
  readonly budgetGuard?: readonly number[];
}

/**
 * What {@link generateWithGbnf} produced: the generation and how the token budget steered it. Exported from
 * `toolgram/llama-cpp`: the function's result type.
 */
export interface GenerateWithGbnfResult extends GenerateResult {
  /** Steps at which the budget narrowed llama.cpp's choices. */
  readonly budgetSteps: number;
  /** The budget matcher refused a token llama.cpp's grammar allowed, and steering stopped there. */
  readonly budgetAbandoned: boolean;
}

/**
 * Generates under a GBNF grammar with llama.cpp's grammar sampler (through node-llama-cpp's LlamaGrammar). Ends at an
 * end-of-generation token (which the grammar allows only once it is complete) or at `maxTokens`.
 *
 * llama.cpp reports why a grammar fails to parse only on stderr; the thrown error says so. Repetition bounds that
 * would crash llama.cpp (`x{3,1}`) are refused first (see `checkGbnfRepetitions`).
 */
export async function generateWithGbnf(options: GenerateWithGbnfOptions): Promise<GenerateWithGbnfResult> {
  const { LlamaGrammarEvaluationState, TokenBias: TokenBiasClass } = await loadNodeLlamaCpp();
  const { model, gbnf } = options;
  const maxTokens = options.maxTokens ?? 256;
  let grammar: LlamaGrammar | undefined;
  if (gbnf !== undefined) {
    checkGbnfRepetitions(gbnf);
    try {
      grammar = await model.llama.createGrammar({ grammar: gbnf });
    } catch (cause) {
      throw new ToolgramError(
        "INVALID_INPUT",
        "llama.cpp could not parse the GBNF grammar (its reason is printed on stderr).",
        "",
        { cause },
      );
    }
  }
  const input = promptTokens(model, options.prompt);
  return withSequence(
    options,
    async (sequence, plan) => {
      const grammarEvaluationState =
        grammar === undefined ? undefined : new LlamaGrammarEvaluationState({ model, grammar });
      const tokens: Token[] = [];
      const started = performance.now();
      let finishReason: GenerateResult["finishReason"] = "stop";
      const steer = BudgetSteering.for(
        model,
        options.budgetMatcher,
        TokenBiasClass,
        options.budgetGuard,
        options.keepEog,
      );
      const aborted = (): boolean => options.signal?.aborted === true;
      if (maxTokens > 0 && !aborted()) {
        for await (const token of sequence.evaluate(plan.rest, {
          grammarEvaluationState,
          temperature: options.temperature ?? 0,
          seed: options.seed ?? 0,
          ...samplingOptions(options, tokens),
          // read by node-llama-cpp before each sampling step, after the previous token reached the loop below
          ...(steer === undefined ? {} : { tokenBias: () => steer.tokenBias(maxTokens - tokens.length) }),
        })) {
          steer?.follow(token);
          tokens.push(token);
          options.onToken?.(token);
          if (aborted()) break;
          if (tokens.length >= maxTokens) {
            finishReason = "length";
            break;
          }
        }
      } else {
        finishReason = "length";
      }
      const elapsedMs = performance.now() - started;
      return {
        text: model.detokenize(tokens, true),
        tokens,
        finishReason,
        promptTokens: input.length,
        cachedTokens: plan.cachedTokens,
        elapsedMs,
        tokensPerSecond: tokens.length / (elapsedMs / 1000),
        budgetSteps: steer?.steps ?? 0,
        budgetAbandoned: steer?.abandoned ?? false,
      };
    },
    input,
  );
}
