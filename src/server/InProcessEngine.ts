import type { LlamaContext, LlamaContextSequence, LlamaModel, Token } from "node-llama-cpp";
import type { Vocabulary } from "../index.js";
import type { TokenMatcher } from "../index.js";
import { formatEogTokens } from "../llama-cpp/generateToolCalls.js";
import { eogTable } from "../llama-cpp/generateWithMask.js";
import {
  generateWithGbnf,
  generateWithMask,
  loadLlamaModel,
  vocabularyOf,
  type TokenMaskMatcher,
} from "../llama-cpp/index.js";
import { basename } from "node:path";
import { badRequest } from "./ApiError.js";
import { closingText } from "./closingText.js";
import type { Engine, EngineRequest, EngineResult } from "./Engine.js";
import { TokenTextDecoder } from "./TokenTextDecoder.js";
import { BoundedMap } from "../util/BoundedMap.js";
import { MaskWorker } from "./MaskWorker.js";
import { createEngineCounters, GENERATIONS } from "./maskShared.js";
import { piecesAreExact, tokenizeInPieces } from "./tokenizeInPieces.js";

export interface InProcessEngineOptions {
  readonly modelPath: string;
  /** Sequences generating at once. @defaultValue 1 */
  readonly parallel?: number;
  /** Context size of each sequence. @defaultValue 4096, capped at the model's training context */
  readonly contextSize?: number;
  /** CPU threads. @defaultValue 1 (faster than 2 on small machines) */
  readonly threads?: number;
  /**
   * Where token masks are computed: on a worker thread per sequence (the event loop only copies them), or on the event
   * loop (the behaviour before the mask workers; kept to measure the difference). @defaultValue "worker"
   */
  readonly masksOn?: "worker" | "event-loop";
}

/** A matcher that records the time of each mask it fills, for /metrics and the log. */
function timed(matcher: TokenMatcher, clock: { ms: number; times: number[] }): TokenMaskMatcher {
  const spent = (t: number): void => {
    const ms = performance.now() - t;
    clock.ms += ms;
    clock.times.push(ms);
  };
  return {
    fillNextTokenBitmask(bits) {
      const t = performance.now();
      matcher.fillNextTokenBitmask(bits);
      spent(t);
    },
    fillNextTokenBitmaskWithin(bits, tokensLeft) {
      const t = performance.now();
      const narrowed = matcher.fillNextTokenBitmaskWithin(bits, tokensLeft);
      spent(t);
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
  /**
   * Recent generated texts and the tokens that were sampled for them. A model under a mask may sample a
   * non-canonical tokenization of its own text (`{"` as `{` `"`); when that text comes back in a later prompt (exact
   * replay), it is tokenized as it was sampled, so the sequence's KV cache matches past the end of the replayed turn.
   */
  private readonly sampled = new BoundedMap<string, Token[]>({ maxEntries: 64, order: "insertion" });
  /** Shorter texts are not worth splicing (and could match by chance). */
  private static readonly MIN_SPLICE = 16;
  /** Each sequence's mask worker (none when masks are computed on the event loop). */
  private readonly maskWorkers = new Map<LlamaContextSequence, MaskWorker>();
  /**
   * Generations running and warm-up slices given, in shared memory: the mask workers warm their matchers only while
   * one generation runs alone (maskShared.ts).
   */
  private readonly counters = createEngineCounters();

  private constructor(
    private readonly model: LlamaModel,
    private readonly context: LlamaContext,
    private readonly vocab: Vocabulary,
    readonly modelId: string,
    readonly slots: number,
    masksOn: "worker" | "event-loop",
  ) {
    this.free = Array.from({ length: slots }, () => context.getSequence());
    this.piecesExact = piecesAreExact((text) => model.tokenize(text, true));
    if (masksOn === "worker")
      for (const s of this.free)
        this.maskWorkers.set(s, new MaskWorker(vocab, this.counters.buffer as SharedArrayBuffer));
  }

  /** Masks computed on the sequences' mask workers so far (none when masks are computed on the event loop). */
  get workerMasks(): number {
    let n = 0;
    for (const w of this.maskWorkers.values()) n += w.masks;
    return n;
  }

  /** The texts of the model's BOS and EOS tokens. */
  get tokenTexts(): { bosToken?: string; eosToken?: string } {
    const text = (t: Token | null): string | undefined => (t === null ? undefined : this.model.detokenize([t], true));
    const bosToken = text(this.model.tokens.bos);
    const eosToken = text(this.model.tokens.eos);
    return { ...(bosToken === undefined ? {} : { bosToken }), ...(eosToken === undefined ? {} : { eosToken }) };
  }

  /** The model's chat template (GGUF `tokenizer.chat_template`), if it has one. */
  get chatTemplate(): string | undefined {
    return this.vocab.chatTemplate;
  }

  static async load(options: InProcessEngineOptions): Promise<InProcessEngine> {
    const model = await loadLlamaModel(options.modelPath);
    const parallel = options.parallel ?? 1;
    const perSequence = Math.min(options.contextSize ?? 4096, model.trainContextSize);
    const context = await model.createContext({
      contextSize: perSequence * parallel,
      sequences: parallel,
      threads: options.threads ?? 1,
    });
    const vocab = await vocabularyOf(model);
    // the end-token table walks the whole vocabulary once per model: here, not in the first masked request's turn
    eogTable(model);
    return new InProcessEngine(
      model,
      context,
      vocab,
      basename(options.modelPath),
      parallel,
      options.masksOn ?? "worker",
    );
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
    if (sequence === undefined)
      throw new Error("no free sequence: the scheduler admits at most `parallel` generations");
    return sequence;
  }

  /** Prompts are tokenized in pieces of about this many characters (a few milliseconds each). */
  private static readonly PIECE = 4096;
  /**
   * Whether the model's tokenizer gives a text's tokens when it is cut where tokenizeInPieces cuts (checked once, at
   * load, not in the first long request's turn).
   */
  private readonly piecesExact: boolean;

  /**
   * `text`'s tokens, on the event loop. A tokenizer on a worker thread (the model's vocabulary loaded there alone) was
   * tried and removed: node-llama-cpp's native addon aborted the process (`Napi::Error`) with a second model instance
   * on another thread. A long text is tokenized in pieces instead, the loop free between them, where the model's
   * tokenizer allows it (tokenizeInPieces.ts).
   */
  private async tokenize(text: string): Promise<Token[]> {
    if (text === "") return [];
    const whole = (s: string): Token[] => this.model.tokenize(s, true);
    if (text.length <= InProcessEngine.PIECE) return whole(text);
    if (!this.piecesExact) return whole(text);
    return (await tokenizeInPieces(text, whole, InProcessEngine.PIECE)) as Token[];
  }

  /** The prompt's tokens, with recently generated texts in it tokenized as they were sampled. */
  private async tokenizePrompt(prompt: string): Promise<Token[]> {
    let best: { at: number; text: string; tokens: Token[] } | undefined;
    for (const [text, tokens] of this.sampled) {
      if (text.length < InProcessEngine.MIN_SPLICE) continue;
      const at = prompt.indexOf(text);
      // the earliest match, and of those the longest (a whole turn rather than one call of it)
      if (at >= 0 && (best === undefined || at < best.at || (at === best.at && text.length > best.text.length)))
        best = { at, text, tokens };
    }
    if (best === undefined) return this.tokenize(prompt);
    const before = await this.tokenize(prompt.slice(0, best.at));
    const after = await this.tokenizePrompt(prompt.slice(best.at + best.text.length));
    return [...before, ...best.tokens, ...after];
  }

  private readonly eogByFormat = new Map<string, readonly number[]>();

  /** The format's closing markers that are end tokens (harmony's `<|call|>`): kept in the output, not an end. */
  private keptEog(format: string): readonly number[] {
    let ids = this.eogByFormat.get(format);
    if (ids === undefined) {
      ids = formatEogTokens(this.model, format);
      this.eogByFormat.set(format, ids);
    }
    return ids;
  }

  private rememberSampled(text: string, tokens: Token[]): void {
    if (text.length < InProcessEngine.MIN_SPLICE) return;
    // a text sampled again becomes the newest: the oldest text goes first
    this.sampled.set(text, tokens);
  }

  async generate(request: EngineRequest): Promise<EngineResult> {
    const tokens = await this.tokenizePrompt(request.prompt);
    const sequence = this.takeSequence(tokens);
    let running = false;
    try {
      const room = sequence.contextSize - tokens.length;
      const maxTokens = request.fitBudgetToContext ? Math.min(request.maxTokens, room) : request.maxTokens;
      if (maxTokens < 1 || tokens.length + maxTokens > sequence.contextSize) {
        throw badRequest(
          `This model's context holds ${sequence.contextSize} tokens; the prompt has ${tokens.length} and the budget asks for ${Math.max(1, maxTokens)} more. Shorten the messages or lower max_completion_tokens.`,
          "messages",
          "context_length_exceeded",
        );
      }
      request.onAdmitted?.();
      Atomics.add(this.counters, GENERATIONS, 1);
      running = true;
      const decoder = new TokenTextDecoder((ids) => this.model.detokenize(ids as Token[], true));
      const clock = { ms: 0, times: [] as number[] };
      let text = "";
      const emit = (t: string): void => {
        text += t;
        request.onText(t);
      };
      const common = {
        model: this.model,
        prompt: tokens,
        sequence,
        keepPrefix: true,
        maxTokens,
        temperature: request.temperature,
        seed: request.seed,
        ...(request.topP === undefined ? {} : { topP: request.topP }),
        signal: request.signal,
        onToken: (token: number) => {
          const t = decoder.push(token);
          if (t !== "") emit(t);
        },
      };
      const result =
        request.grammar === undefined
          ? await generateWithGbnf({ ...common, gbnf: undefined })
          : await this.generateMasked(request, sequence, common, clock);
      const rest = decoder.flush();
      if (rest !== "") emit(rest);
      const closing = this.closing(request, result.finishReason, text);
      if (closing.text !== "") emit(closing.text);
      if (!request.signal.aborted) this.rememberSampled(text, [...result.tokens, ...closing.tokens] as Token[]);
      return {
        finishReason: closing.text === "" ? result.finishReason : "stop",
        promptTokens: result.promptTokens,
        completionTokens: result.tokens.length + closing.tokens.length,
        cachedTokens: result.cachedTokens,
        maskMs: clock.ms,
        maskTimes: clock.times,
      };
    } finally {
      if (running) Atomics.sub(this.counters, GENERATIONS, 1);
      this.free.push(sequence);
    }
  }

  /**
   * The closing of a turn the budget cut (`finishReason` "length" with the grammar's output unfinished): the
   * grammar's shortest completion of `text` (closingText, as upstream), written by toolgram, and its tokens. The
   * budgeted masks count the completion in bytes, which bounds its tokens; a format whose shortest turn is longer in
   * bytes than the budget (Kimi K3's tags spelled as text: 246 bytes for the weather tools, against max_tokens 96)
   * cannot be steered to its end within the budget, only towards it: such a turn is finished here, and its closing
   * tokens go past max_tokens.
   */
  private closing(request: EngineRequest, finish: "stop" | "length", text: string): { text: string; tokens: Token[] } {
    const none = { text: "", tokens: [] };
    if (request.grammar === undefined || finish !== "length" || request.signal.aborted) return none;
    const closing = closingText(request.grammar, text);
    if (closing === undefined || closing === "") return none;
    return { text: closing, tokens: this.model.tokenize(closing, true) };
  }

  /** A generation under the request's grammar: masks on the sequence's worker, or timed on the event loop. */
  private async generateMasked(
    request: EngineRequest,
    sequence: LlamaContextSequence,
    common: Omit<Parameters<typeof generateWithMask>[0], "matcher">,
    clock: { ms: number; times: number[] },
  ): Promise<Awaited<ReturnType<typeof generateWithMask>>> {
    const grammar = request.grammar!;
    const options = { ...common, jumpForward: true, closeWithinBudget: true, keepEog: this.keptEog(request.format) };
    const worker = this.maskWorkers.get(sequence);
    if (worker === undefined)
      return generateWithMask({ ...options, matcher: timed(grammar.createMatcher(this.vocab), clock) });
    const matcher = await worker.matcher(grammar, { jumpForward: true });
    try {
      return await generateWithMask({ ...options, matcher });
    } finally {
      matcher.close();
      clock.times.push(...matcher.times);
      clock.ms += matcher.times.reduce((a, t) => a + t, 0);
    }
  }

  async close(): Promise<void> {
    await Promise.all([...this.maskWorkers.values()].map((w) => w.close()));
    await this.context.dispose();
    await this.model.dispose();
  }
}
