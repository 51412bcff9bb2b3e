import { randomBytes } from "node:crypto";
import { ToolCallStream, type FormatName, type StreamEvent } from "../index.js";
import type { DerivedFormatName } from "../formats/FormatName.js";
import type { JsonObject } from "../json.js";

/** One `choices[0].delta` of an OpenAI chat completion chunk (role and finish_reason aside). */
export type Delta =
  | { readonly content: string }
  | {
      readonly tool_calls: ReadonlyArray<{
        readonly index: number;
        readonly id?: string;
        readonly type?: "function";
        readonly function: { readonly name?: string; readonly arguments: string };
      }>;
    };

/** An OpenAI call id: `call_` and 24 random base-62 characters. */
export function mintCallId(): string {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  return `call_${[...randomBytes(24)].map((b) => alphabet[b % 62]).join("")}`;
}

/** The folded turn: what a non-streamed response says, and exactly what the streamed deltas add up to. */
export interface AssembledTurn {
  content: string;
  calls: Array<{ id: string; name: string; arguments: string }>;
  /** All generated text up to the end (or up to a stop sequence). */
  text: string;
}

/**
 * Turns generated text, chunk by chunk, into OpenAI deltas: content, then per call a first delta with its index,
 * minted id and name, then argument fragments that concatenate to `function.arguments` — the exact text the model
 * wrote between `"arguments": ` and the call's closing brace, so sending the call back re-renders the same bytes.
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
  readonly turn: AssembledTurn = { content: "", calls: [], text: "" };
  stopped = false;

  constructor(options: {
    format: FormatName | DerivedFormatName;
    tools: readonly JsonObject[];
    stop: readonly string[];
  }) {
    this.stream =
      options.tools.length > 0
        ? new ToolCallStream({ format: options.format, tools: options.tools, mode: "strict" })
        : undefined;
    this.stops = options.stop;
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
      if (e.type === "text") {
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
        if (e.name !== undefined) out.push(...this.startCall(e.index, e.name));
      } else if (e.type === "call_name") {
        if (!this.ids.has(e.index)) out.push(...this.startCall(e.index, e.name));
      } else if (e.type === "arguments_delta") {
        const k = this.ids.get(e.index);
        if (k === undefined) this.waitingArgs.set(e.index, (this.waitingArgs.get(e.index) ?? "") + e.delta);
        else out.push(this.argumentsDelta(k, e.delta));
      }
    }
    return out;
  }

  private startCall(streamIndex: number, name: string): Delta[] {
    const index = this.turn.calls.length;
    const id = mintCallId();
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
