/**
 * Reads a Server-Sent Events body and yields each event's `data` (multi-line data joined with "\n"). Stops at the
 * OpenAI-style `[DONE]` sentinel or at the end of the stream.
 */
export async function* readSse(body: ReadableStream<Uint8Array>): AsyncGenerator<string, void, void> {
  const decoder = new TextDecoder();
  const reader = body.getReader();
  let buffered = "";
  let data: string[] = [];
  try {
    while (true) {
      const { done, value } = await reader.read();
      buffered += done ? decoder.decode() : decoder.decode(value, { stream: true });
      let newline: number;
      while ((newline = buffered.search(/\r\n|\r|\n/)) >= 0) {
        const line = buffered.slice(0, newline);
        buffered = buffered.slice(newline + (buffered.startsWith("\r\n", newline) ? 2 : 1));
        if (line === "") {
          // A blank line dispatches the event.
          if (data.length > 0) {
            const event = data.join("\n");
            data = [];
            if (event === "[DONE]") return;
            yield event;
          }
        } else if (line.startsWith("data:")) {
          data.push(line.slice(line.startsWith("data: ") ? 6 : 5));
        }
        // Comments (":"), "event:", "id:" and "retry:" lines carry nothing toolgram needs.
      }
      if (done) {
        if (buffered.startsWith("data:")) data.push(buffered.slice(buffered.startsWith("data: ") ? 6 : 5));
        if (data.length > 0 && data.join("\n") !== "[DONE]") yield data.join("\n");
        return;
      }
    }
  } finally {
    reader.releaseLock();
    await body.cancel().catch(() => undefined);
  }
}
