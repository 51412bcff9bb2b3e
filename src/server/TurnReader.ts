import { describeFormat } from "../formats/describeFormat.js";
import type { ChatRequest } from "./ChatRequest.js";
import type { TurnGrammar } from "./planGrammar.js";
import type { ModelTurnOptions } from "../prompt/ModelChat.js";
import type { ServerState } from "./ServerState.js";
import { TurnAssembler, type Delta } from "./TurnAssembler.js";

/**
 * The turn's generated text read into deltas (TurnAssembler). Its strict parser (the tools' one-call recognizer and
 * validators) is asked of the parser worker when the generation is admitted; until it has come, text is queued
 * rather than read, because reading the end of a call would otherwise compile those parts here, on the event loop
 * every other stream needs (hundreds of milliseconds for a deep or large tool set). A stop sequence found in queued
 * text aborts the generation when it is read, so a few tokens more may have been generated (and are not sent).
 */
export class TurnReader {
  private assembler: TurnAssembler | undefined;
  private started = false;
  /** The queue of text waiting for the parser parts; undefined while text is read as it comes. */
  private queue: Promise<void> | undefined;
  private failure: { error: unknown } | undefined;
  private abandoned = false;

  constructor(
    private readonly state: Pick<ServerState, "grammars" | "chat">,
    private readonly prepared: { request: ChatRequest; grammar: TurnGrammar; turn: ModelTurnOptions },
    private readonly onDelta: (d: Delta) => void,
  ) {}

  /**
   * Asks for the tools' parser parts if they are not compiled (or being compiled) yet. The assembler is built once
   * they have come: its strict parser then finds the tools normalized on the parser worker, not here (tens of
   * milliseconds for a large tool set).
   */
  start(): void {
    if (this.started) return;
    this.started = true;
    const { request, grammar, turn } = this.prepared;
    const tools =
      grammar.tools.length === 0
        ? grammar.tools
        : this.state.grammars.parserTools(grammar.tools, describeFormat(turn.format));
    const build = (): void => {
      this.assembler = new TurnAssembler({
        format: this.state.chat.format,
        tools,
        stop: request.stop,
        ...(grammar.json ? {} : { turn }),
      });
    };
    const pending = this.state.grammars.parserPending(tools);
    if (pending === undefined) build();
    else
      this.queue = pending.then(build).catch((error: unknown) => {
        this.failure ??= { error };
      });
  }

  push(text: string, onStop: () => void): void {
    this.start();
    const read = (): void => {
      if (this.abandoned) return;
      if (this.failure !== undefined) {
        // nothing more of this turn can be read: its generation stops
        onStop();
        return;
      }
      const assembler = this.assembler!;
      for (const d of assembler.push(text)) this.onDelta(d);
      if (assembler.stopped) onStop();
    };
    if (this.queue === undefined) {
      read();
      return;
    }
    this.queue = this.queue.then(read).catch((error: unknown) => {
      this.failure ??= { error };
    });
  }

  /** The generation failed with `error`: queued text is dropped, and the error thrown. */
  abandon(error: unknown): never {
    this.abandoned = true;
    throw error;
  }

  /** Reads what is queued and the end; the assembler with the whole turn. */
  async end(): Promise<TurnAssembler> {
    this.start();
    await this.queue;
    if (this.failure !== undefined) throw this.failure.error;
    const assembler = this.assembler!;
    for (const d of assembler.end()) this.onDelta(d);
    return assembler;
  }
}
