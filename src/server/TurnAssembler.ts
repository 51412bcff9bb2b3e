import { describeFormat, ToolCallStream, type FormatName, type StreamEvent } from "../index.js";
import type { DerivedFormatName } from "../formats/FormatName.js";
import type { JsonObject } from "../json.js";
import type { CallIdForm } from "../formats/FormatDescription.js";
import type { ModelTurnOptions } from "../prompt/ModelChat.js";
import { callIdPattern } from "../formats/callIdForm.js";
import { callIdFormOf, mintCallId } from "./callIds.js";

/** One `choices[0].delta` of an OpenAI chat completion chunk (role and finish_reason aside). */
export type Delta =
  | { readonly content: string }
  /** The reasoning block's text, as llama-server and vLLM stream it. */
  | { readonly reasoning_content: string }
  | {
      readonly tool_calls: ReadonlyArray<{
        readonly index: number;
        readonly id?: string;
        readonly type?: "function";
        readonly function: { readonly name?: string; readonly arguments: string };
      }>;
    };

/** The folded turn: what a non-streamed response says, and exactly what the streamed deltas add up to. */
export interface AssembledTurn {
  content: string;
  /** The reasoning block's text ("" without one). */
  reasoning: string;
  calls: Array<{ id: string; name: string; arguments: string }>;
  /** All generated text up to the end (or up to a stop sequence). */
  text: string;
}

/**
 * Turns generated text, chunk by chunk, into OpenAI deltas: the reasoning block's text (`reasoning_content`), content,
 * then per call a first delta with its index, id (the one the model wrote, in a format whose calls carry one; else
 * minted, of the format's id shape) and name, then argument fragments that concatenate to
 * `function.arguments` — in a format that writes arguments as a JSON object, the exact text the model wrote for them,
 * so sending the call back re-renders the same bytes; in the others (XML parameters, Python calls), the parsed
 * arguments as JSON, in one fragment when the call ends.
 * The deltas are folded as they are made; the non-streamed response is that fold, so the two cannot differ.
 *
 * The separators of the wire format (the newline before a `<tool_call>` block, between blocks) are not content.
 * Stop sequences apply to content (text outside calls): the content is cut before the first one and `stopped`
 * turns true; a content suffix that could begin a stop sequence is held back until it cannot.
 */
export class TurnAssembler {
  private readonly stream: ToolCallStream | undefined;
  private readonly stops: readonly string[];
  private pending = "";
  private callsStarted = false;
  private readonly ids = new Map<number, number>();
  private readonly waitingArgs = new Map<number, string>();
  /** Calls (by stream index) whose arguments came as deltas: the others get theirs, as JSON, when they end. */
  private readonly deltaArgs = new Set<number>();
  /** The format writes a call's arguments as a JSON object: its text goes out as it is generated. */
  private readonly jsonArguments: boolean;
  /** The shape of the format's call ids, which minted ids take (undefined: OpenAI's `call_…`). */
  private readonly idForm: CallIdForm | undefined;
  /**
   * The format's calls carry an id the model writes (Mistral's): a call's first delta waits for the call's end and
   * carries that id, so the template writes the returned turn back as it was generated.
   */
  private readonly modelIds: boolean;
  readonly turn: AssembledTurn = { content: "", reasoning: "", calls: [], text: "" };
  stopped = false;

  constructor(options: {
    format: FormatName | DerivedFormatName;
    tools: readonly JsonObject[];
    stop: readonly string[];
    /** The turn's reasoning block, as the grammar was compiled with it. */
    turn?: Omit<ModelTurnOptions, "format">;
  }) {
    const turn = options.turn;
    const reasoning =
      turn === undefined || turn.reasoning === "none"
        ? {}
        : {
            reasoning: turn.reasoning,
            ...(turn.reasoningMarkers === undefined ? {} : { reasoningMarkers: { ...turn.reasoningMarkers } }),
          };
    this.stream =
      options.tools.length > 0 || (turn !== undefined && turn.reasoning !== "none")
        ? new ToolCallStream({ format: options.format, tools: options.tools, mode: "strict", ...reasoning })
        : undefined;
    this.stops = options.stop;
    const unit = describeFormat(options.format).unit;
    this.jsonArguments =
      unit.kind === "named-json" || (unit.kind === "json-object" && unit.argumentsEncoding === "object");
    this.idForm = callIdFormOf(options.format);
    // ids of digits are call indices (Command R7B's 0, 1, …), the same in every turn: never a returned id
    this.modelIds = this.idForm !== undefined && this.idForm.alphabet !== "digits";
  }

  push(text: string): Delta[] {
    if (this.stopped || text === "") return [];
    this.turn.text += text;
    if (this.stream === undefined) return this.addContent(text);
    return this.onEvents(this.stream.push(text));
  }

  /** The last deltas once generation has ended. */
  end(): Delta[] {
    const out: Delta[] = [];
    if (!this.stopped && this.stream !== undefined) out.push(...this.onEvents(this.stream.flush()));
    if (!this.stopped && this.pending !== "") {
      out.push(...this.emitContent(this.pending));
      this.pending = "";
    }
    return out;
  }

  private onEvents(events: readonly StreamEvent[]): Delta[] {
    const out: Delta[] = [];
    for (const e of events) {
      if (this.stopped) break;
      if (e.type === "reasoning") {
        if (e.delta !== "") {
          this.turn.reasoning += e.delta;
          out.push({ reasoning_content: e.delta });
        }
      } else if (e.type === "text") {
        // After the first call, text in a strict turn is only the separator between blocks.
        if (!this.callsStarted) out.push(...this.addContent(e.delta));
        else if (e.delta.trim() !== "") out.push(...this.addContent(e.delta));
      } else if (e.type === "call_start") {
        if (!this.callsStarted) {
          this.callsStarted = true;
          // Held-back trailing newlines were the separator before the block; anything else held is content.
          const kept = this.pending.replace(/\n+$/, "");
          this.pending = "";
          if (kept !== "") out.push(...this.emitContent(kept));
        }
        if (e.name !== undefined && !this.modelIds) out.push(...this.startCall(e.index, e.name));
      } else if (e.type === "call_name") {
        if (!this.ids.has(e.index) && !this.modelIds) out.push(...this.startCall(e.index, e.name));
      } else if (e.type === "call_end") {
        // a format whose calls carry the model's own id: the call starts, with that id, once it is read
        if (e.call !== null && !this.ids.has(e.index) && this.modelIds) {
          const id = e.call.id;
          // the grammar requires an id of the format's form in every call: a call without one is none it allows, dropped
          if (id === undefined || !callIdPattern(this.idForm as CallIdForm).test(id)) continue;
          out.push(...this.startCall(e.index, e.call.name, id));
        }
        // formats whose arguments are not written as JSON (XML parameters): the parsed arguments, as JSON
        if (!this.deltaArgs.has(e.index) && e.call !== null) {
          const args = e.call.arguments;
          out.push(this.argumentsDelta(this.ids.get(e.index) as number, JSON.stringify(args)));
        }
      } else if (e.type === "arguments_delta" && this.jsonArguments) {
        this.deltaArgs.add(e.index);
        const k = this.ids.get(e.index);
        if (k === undefined) this.waitingArgs.set(e.index, (this.waitingArgs.get(e.index) ?? "") + e.delta);
        else out.push(this.argumentsDelta(k, e.delta));
      }
    }
    return out;
  }

  /** A call's first delta. Its id: the model's (modelIds), else minted, of the format's id shape. */
  private startCall(streamIndex: number, name: string, id = mintCallId(this.idForm)): Delta[] {
    const index = this.turn.calls.length;
    this.ids.set(streamIndex, index);
    this.turn.calls.push({ id, name, arguments: "" });
    const out: Delta[] = [{ tool_calls: [{ index, id, type: "function", function: { name, arguments: "" } }] }];
    const waiting = this.waitingArgs.get(streamIndex);
    if (waiting !== undefined) {
      this.waitingArgs.delete(streamIndex);
      out.push(this.argumentsDelta(index, waiting));
    }
    return out;
  }

  private argumentsDelta(index: number, delta: string): Delta {
    this.turn.calls[index].arguments += delta;
    return { tool_calls: [{ index, function: { arguments: delta } }] };
  }

  private addContent(text: string): Delta[] {
    this.pending += text;
    for (const s of this.stops) {
      const at = this.pending.indexOf(s);
      if (at >= 0) {
        const before = this.pending.slice(0, at);
        this.pending = "";
        this.stopped = true;
        const out = this.emitContent(before);
        // The turn ends at the stop sequence: what was generated is what was shown.
        if (!this.callsStarted) this.turn.text = this.turn.content;
        return out;
      }
    }
    // Hold back what could still become a stop sequence, and trailing newlines (a block may follow them).
    let keep = this.pending.length - (/\n*$/.exec(this.pending)?.[0].length ?? 0);
    for (const s of this.stops) {
      for (let n = Math.min(s.length - 1, this.pending.length); n > 0; n--) {
        if (this.pending.endsWith(s.slice(0, n))) {
          keep = Math.min(keep, this.pending.length - n);
          break;
        }
      }
    }
    if (keep <= 0) return [];
    const ready = this.pending.slice(0, keep);
    this.pending = this.pending.slice(keep);
    return this.emitContent(ready);
  }

  private emitContent(text: string): Delta[] {
    if (text === "") return [];
    this.turn.content += text;
    return [{ content: text }];
  }
}
