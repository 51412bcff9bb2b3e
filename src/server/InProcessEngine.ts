import type { LlamaContext, LlamaContextSequence, LlamaModel, Token } from "node-llama-cpp";
import type { Vocabulary } from "../index.js";
import type { TokenMatcher } from "../index.js";
import { generateWithGbnf, generateWithMask, loadLlamaModel, vocabularyOf, type TokenMaskMatcher } from "../llama-cpp/index.js";
import { basename } from "node:path";
import { badRequest } from "./ApiError.js";
import type { Engine, EngineRequest, EngineResult } from "./Engine.js";
import { TokenTextDecoder } from "./TokenTextDecoder.js";

export interface InProcessEngineOptions {
  readonly modelPath: string;
  /** Sequences generating at once. @defaultValue 1 */
  readonly parallel?: number;
  /** Context size of each sequence. @defaultValue 4096, capped at the model's training context */
  readonly contextSize?: number;
  /** CPU threads. @defaultValue 1 (faster than 2 on small machines) */
  readonly threads?: number;
}

/** A matcher that counts the time spent filling masks, for /metrics. */
function timed(matcher: TokenMatcher, clock: { ms: number }): TokenMaskMatcher {
  return {
    fillNextTokenBitmask(bits) {
      const t = performance.now();
      matcher.fillNextTokenBitmask(bits);
      clock.ms += performance.now() - t;
    },
    fillNextTokenBitmaskWithin(bits, tokensLeft) {
      const t = performance.now();
      const narrowed = matcher.fillNextTokenBitmaskWithin(bits, tokensLeft);
      clock.ms += performance.now() - t;
      return narrowed;
    },
    acceptToken: (token) => matcher.acceptToken(token),
    isCompleted: () => matcher.isCompleted(),
    forcedText: () => matcher.forcedText(),
  };
}

/**
 * node-llama-cpp in process: one context with `parallel` sequences (node-llama-cpp batches their steps together),
 * toolgram's token matcher as the mask with the token budget, jump-forward over forced text. A request takes the free
 * sequence whose evaluated tokens share the longest prefix with its prompt, and keeps that prefix (KV-cache reuse).
 */
export class InProcessEngine implements Engine {
  readonly kind = "in-process";
  private readonly free: LlamaContextSequence[];

  private constructor(
    private readonly model: LlamaModel,
    private readonly context: LlamaContext,
    private readonly vocab: Vocabulary,
    readonly modelId: string,
    readonly slots: number,
  ) {
    this.free = Array.from({ length: slots }, () => context.getSequence());
  }

  static async load(options: InProcessEngineOptions): Promise<InProcessEngine> {
    const model = await loadLlamaModel(options.modelPath);
    const parallel = options.parallel ?? 1;
    const perSequence = Math.min(options.contextSize ?? 4096, model.trainContextSize);
    const context = await model.createContext({ contextSize: perSequence * parallel, sequences: parallel, threads: options.threads ?? 1 });
    const vocab = await vocabularyOf(model);
    return new InProcessEngine(model, context, vocab, basename(options.modelPath), parallel);
  }

  async healthy(): Promise<boolean> {
    return !this.model.disposed;
  }

  private takeSequence(tokens: Token[]): LlamaContextSequence {
    let best = 0;
    let bestShared = -1;
    this.free.forEach((s, i) => {
      const shared = s.compareContextTokens(tokens).firstDifferentIndex;
      if (shared > bestShared) {
        best = i;
        bestShared = shared;
      }
    });
    const [sequence] = this.free.splice(best, 1);
    if (sequence === undefined) throw new Error("no free sequence: the scheduler admits at most `parallel` generations");
    return sequence;
  }

  async generate(request: EngineRequest): Promise<EngineResult> {
    const tokens = this.model.tokenize(request.prompt, true);
    const sequence = this.takeSequence(tokens);
    try {
      if (tokens.length + request.maxTokens > sequence.contextSize) {
        throw badRequest(
          `This model's context holds ${sequence.contextSize} tokens; the prompt has ${tokens.length} and the budget asks for ${request.maxTokens} more. Shorten the messages or lower max_completion_tokens.`,
          "messages",
          "context_length_exceeded",
        );
      }
      const decoder = new TokenTextDecoder((ids) => this.model.detokenize(ids as Token[], true));
      const clock = { ms: 0 };
      const common = {
        model: this.model,
        prompt: tokens,
        sequence,
        keepPrefix: true,
        maxTokens: request.maxTokens,
        temperature: request.temperature,
        seed: request.seed,
        ...(request.topP === undefined ? {} : { topP: request.topP }),
        signal: request.signal,
        onToken: (token: number) => {
          const text = decoder.push(token);
          if (text !== "") request.onText(text);
        },
      };
      const result =
        request.grammar === undefined
          ? await generateWithGbnf({ ...common, gbnf: undefined })
          : await generateWithMask({ ...common, matcher: timed(request.grammar.createMatcher(this.vocab), clock), jumpForward: true, closeWithinBudget: true });
      const rest = decoder.flush();
      if (rest !== "") request.onText(rest);
      return {
        finishReason: result.finishReason,
        promptTokens: result.promptTokens,
        completionTokens: result.tokens.length,
        cachedTokens: result.cachedTokens,
        maskMs: clock.ms,
      };
    } finally {
      this.free.push(sequence);
    }
  }

  async close(): Promise<void> {
    await this.context.dispose();
    await this.model.dispose();
  }
}
