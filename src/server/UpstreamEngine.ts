import { completionStream, LlamaServerHttpError, type CompletionResponse } from "../llama-cpp/index.js";
import { badRequest } from "./ApiError.js";
import { closingText } from "./closingText.js";
import { describeFormat } from "../formats/describeFormat.js";
import { UpstreamError, type Engine, type EngineRequest, type EngineResult } from "./Engine.js";

export interface UpstreamEngineOptions {
  /** Base URL of a running llama-server, e.g. http://127.0.0.1:8081. */
  readonly url: string;
  /** Generations sent at once (llama-server's own `-np` slots should be at least this many). @defaultValue 1 */
  readonly parallel?: number;
  /** The model id to list; by default what llama-server's /v1/models reports. */
  readonly modelId?: string;
}

/** The last chunk of a streamed /completion carries the counts. */
interface FinalChunk extends CompletionResponse {
  readonly stop?: boolean;
  readonly tokens_evaluated?: number;
  readonly tokens_cached?: number;
  readonly timings?: CompletionResponse["timings"] & { readonly prompt_n?: number; readonly cache_n?: number };
}

/**
 * Fronts a running llama-server: the prompt is rendered here, the turn's GBNF goes to `/completion` (which, unlike
 * `/v1/chat/completions`, takes a grammar whatever the tools), and the streamed text is parsed here. `cache_prompt`
 * lets llama-server reuse a slot's KV cache for the common prefix (`tokens_cached`).
 *
 * llama-server has no token budget steering, so a constrained turn is asked for `n_predict` = `max_tokens` less a
 * reserve (`closingReserve`); a turn cut there is finished with the grammar's shortest completion of what was
 * generated (closingText), written by toolgram rather than sampled, and counted in the completion tokens. Every
 * returned call is thus whole and valid; the price is the reserve, and a closing longer than it (deeply nested
 * arguments cut early) goes past `max_tokens` by the difference.
 */
export class UpstreamEngine implements Engine {
  readonly kind = "upstream";
  readonly slots: number;
  readonly url: string;

  private constructor(
    url: string,
    slots: number,
    readonly modelId: string,
    /** The chat template llama-server loaded with the model (its /props). */
    readonly chatTemplate: string | undefined,
    /** The model's BOS/EOS token texts (its /props). */
    readonly tokenTexts: { readonly bosToken?: string; readonly eosToken?: string },
  ) {
    this.url = url.replace(/\/+$/, "");
    this.slots = slots;
  }

  static async connect(options: UpstreamEngineOptions): Promise<UpstreamEngine> {
    const url = options.url.replace(/\/+$/, "");
    let modelId = options.modelId;
    if (modelId === undefined) {
      try {
        const r = await fetch(`${url}/v1/models`, { signal: AbortSignal.timeout(10_000) });
        const body = (await r.json()) as { data?: Array<{ id?: unknown }> };
        const id = body.data?.[0]?.id;
        modelId = typeof id === "string" ? id.split("/").pop() : undefined;
      } catch (cause) {
        throw new UpstreamError(`llama-server at ${url} did not answer /v1/models`, { cause });
      }
    }
    let chatTemplate: string | undefined;
    const tokenTexts: { bosToken?: string; eosToken?: string } = {};
    try {
      const props = (await (await fetch(`${url}/props`, { signal: AbortSignal.timeout(10_000) })).json()) as {
        chat_template?: unknown;
        bos_token?: unknown;
        eos_token?: unknown;
      };
      chatTemplate = typeof props.chat_template === "string" ? props.chat_template : undefined;
      if (typeof props.bos_token === "string") tokenTexts.bosToken = props.bos_token;
      if (typeof props.eos_token === "string") tokenTexts.eosToken = props.eos_token;
    } catch {
      chatTemplate = undefined;
    }
    return new UpstreamEngine(url, options.parallel ?? 1, modelId ?? "upstream", chatTemplate, tokenTexts);
  }

  /**
   * llama-server's own /health, asked twice before saying no: on a busy machine its HTTP threads can be slow to
   * answer right after a generation, and a connection kept alive from before a restart fails once; neither means the
   * upstream cannot serve. An answer that is not 200 (llama-server still loading its model) is taken at once.
   */
  async healthy(): Promise<boolean> {
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        const r = await fetch(`${this.url}/health`, { signal: AbortSignal.timeout(5000) });
        await r.arrayBuffer();
        return r.ok;
      } catch {
        // no answer: ask once more on a new connection
      }
    }
    return false;
  }

  async generate(request: EngineRequest): Promise<EngineResult> {
    const grammar = request.grammar;
    if (grammar === undefined) return this.complete(request, request.maxTokens);
    let text = "";
    const first = await this.complete(
      { ...request, onText: (t) => ((text += t), request.onText(t)) },
      Math.max(1, request.maxTokens - closingReserve(request.maxTokens)),
    );
    if (first.finishReason !== "length" || request.signal.aborted) return first;
    const closing = closingText(grammar, text);
    if (closing === undefined) return first;
    if (closing !== "") request.onText(closing);
    return {
      ...first,
      finishReason: "stop",
      completionTokens: first.completionTokens + (await this.tokenCount(closing, request.signal)),
    };
  }

  /** Tokens of `text` as the upstream's model tokenizes it (its length in bytes when /tokenize does not answer). */
  private async tokenCount(text: string, signal: AbortSignal): Promise<number> {
    if (text === "") return 0;
    try {
      const r = await fetch(`${this.url}/tokenize`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ content: text }),
        signal,
      });
      const body = (await r.json()) as { tokens?: unknown[] };
      if (Array.isArray(body.tokens)) return body.tokens.length;
    } catch {
      // an estimate is enough for usage
    }
    return new TextEncoder().encode(text).length;
  }

  /** One /completion, streamed, within `nPredict` tokens. */
  private async complete(request: EngineRequest, nPredict: number): Promise<EngineResult> {
    const body = {
      prompt: request.prompt,
      ...(request.grammar === undefined ? {} : { grammar: request.grammar.toGbnf() }),
      n_predict: nPredict,
      // llama-server writes a sampled special token as "" unless asked to keep it; the format's markers are text here
      ...(request.grammar === undefined ? {} : { preserved_tokens: this.preserved(request.format) }),
      temperature: request.temperature,
      ...(request.topP === undefined ? {} : { top_p: request.topP }),
      seed: request.seed,
      cache_prompt: true,
    };
    let last: FinalChunk | undefined;
    // A connection that fails before any chunk arrived is tried once more: Node's fetch reuses a kept-alive socket
    // that llama-server may have closed in the meantime ("fetch failed"), and nothing has reached the client yet.
    try {
      for (let attempt = 0; ; attempt++) {
        let received = false;
        try {
          for await (const chunk of completionStream(this.url, body, request.signal)) {
            received = true;
            const c = chunk as FinalChunk;
            if (typeof c.content === "string" && c.content !== "") request.onText(c.content);
            if (c.stop === true) last = c;
          }
          break;
        } catch (cause) {
          if (
            attempt === 0 &&
            !received &&
            !request.signal.aborted &&
            cause instanceof TypeError &&
            cause.message === "fetch failed"
          )
            continue;
          throw cause;
        }
      }
    } catch (cause) {
      if (request.signal.aborted) return this.partial(last);
      if (cause instanceof LlamaServerHttpError && cause.status === 400 && /context/i.test(cause.body)) {
        throw badRequest(
          `The prompt and the token budget do not fit the upstream's context: ${cause.body.slice(0, 300)}`,
          "messages",
          "context_length_exceeded",
        );
      }
      throw new UpstreamError(`llama-server failed: ${cause instanceof Error ? cause.message : String(cause)}`, {
        cause,
      });
    }
    if (last === undefined) {
      if (request.signal.aborted) return this.partial(undefined);
      throw new UpstreamError("llama-server ended the stream before its final chunk");
    }
    return this.partial(last);
  }

  private partial(last: FinalChunk | undefined): EngineResult {
    const promptTokens = last?.tokens_evaluated ?? last?.timings?.prompt_n ?? 0;
    const cachedTokens =
      last?.timings?.cache_n ?? Math.max(0, promptTokens - (last?.timings?.prompt_n ?? promptTokens));
    return {
      finishReason: last?.stop_type === "limit" ? "length" : "stop",
      promptTokens,
      completionTokens: last?.tokens_predicted ?? 0,
      cachedTokens,
      maskMs: 0,
      maskTimes: [],
    };
  }

  /** The format's markers to keep as text, less the model's end token (it ends the turn; it is not text of it). */
  private preserved(format: string): readonly string[] {
    return preservedTokens(format).filter((t) => t !== this.tokenTexts.eosToken);
  }

  async close(): Promise<void> {}
}

/**
 * Tokens of `max_tokens` held back upstream for the closing of a cut call: an eighth of the budget, at least 8 (a
 * string's closing quote, braces and the block's end marker), and never the whole budget.
 */
export function closingReserve(maxTokens: number): number {
  return Math.min(Math.max(8, Math.ceil(maxTokens / 8)), maxTokens - 1);
}

const preserved = new Map<string, readonly string[]>();

/** The special tokens a format's turn writes (its markers, and the reasoning block's), as text to keep. */
function preservedTokens(format: string): readonly string[] {
  let list = preserved.get(format);
  if (list === undefined) {
    const d = describeFormat(format);
    const reasoning = d.reasoning === null ? [] : [d.reasoning.open.trim(), d.reasoning.close.trim()];
    list = [...new Set([...d.specialTokens, ...reasoning, "<think>", "</think>"])];
    preserved.set(format, list);
  }
  return list;
}
