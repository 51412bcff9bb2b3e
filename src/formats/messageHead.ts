import type { FormatDescription } from "./FormatDescription.js";

/**
 * A turn of messages (FormatDescription.messages): how a call message to `name` starts after `open`, its recipient
 * and what ends it (Functionary v3.2's `NAME\n`, Muse Glimmer's `NAME<|message|>`). Undefined when the format's
 * units do not start with their recipient.
 */
export function messageHead(d: FormatDescription, name: string): string | undefined {
  if (d.unit.kind === "named-json") return name + d.unit.nameClose;
  if (d.unit.kind === "xml-parameters" && d.unit.recipient !== undefined) return name + d.unit.recipient.close;
  return undefined;
}

/** What ends a call message's recipient (`\n`, `<|message|>`), or undefined (see messageHead). */
export function recipientClose(d: FormatDescription): string | undefined {
  const h = messageHead(d, "");
  return h === undefined || h === "" ? undefined : h;
}

/** The text before a turn's first recipient (FormatDescription.messages.first; "" when the prompt wrote it). */
export function firstMessageOpen(d: FormatDescription): string {
  return d.messages?.first ?? "";
}

/**
 * The text before a turn's first recipient after a reasoning block closed by `close`: `messages.first`, unless the
 * closing marker already ends with it (Muse Glimmer's own `<|eom|><|start|>assistant to=`, which opens the next
 * message); foreign markers (`</think>`) are followed by it.
 */
export function firstMessageOpenAfter(d: FormatDescription, close: string): string {
  const first = firstMessageOpen(d);
  return close.endsWith(first) ? "" : first;
}
