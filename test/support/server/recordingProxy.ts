import { createServer, request as httpRequest, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { StringDecoder } from "node:string_decoder";

/** One `/completion` call as llama-server received and answered it. */
export interface RecordedCompletion {
  /** The exact prompt text toolgram sent. */
  readonly prompt: string;
  /** The text llama-server generated: its streamed `content` fields, concatenated. */
  generated: string;
  /** llama-server's own count of prompt tokens reused from its KV cache (its final chunk's `timings.cache_n`). */
  cachedTokens?: number;
}

/** A pass-through HTTP proxy in front of a llama-server that records each `/completion` request and its output. */
export interface RecordingProxy {
  readonly url: string;
  readonly completions: RecordedCompletion[];
  close(): Promise<void>;
}

/** The `content` of each SSE `data:` line in `text` (complete lines only), and the final chunk's cache count. */
function readChunks(text: string, into: RecordedCompletion): void {
  for (const line of text.split("\n")) {
    if (!line.startsWith("data: ")) continue;
    const chunk = JSON.parse(line.slice(6)) as { content?: string; timings?: { cache_n?: number } };
    if (typeof chunk.content === "string") into.generated += chunk.content;
    if (chunk.timings?.cache_n !== undefined) into.cachedTokens = chunk.timings.cache_n;
  }
}

/**
 * Starts the proxy on a free loopback port. Bytes pass unchanged both ways; only `/completion` bodies are read (a
 * copy), so toolgram behind it behaves as in front of llama-server itself.
 */
export async function startRecordingProxy(target: string): Promise<RecordingProxy> {
  const completions: RecordedCompletion[] = [];
  const upstream = new URL(target);
  const server: Server = createServer((req, res) => {
    const body: Buffer[] = [];
    req.on("data", (b: Buffer) => body.push(b));
    req.on("end", () => {
      const raw = Buffer.concat(body);
      let record: RecordedCompletion | undefined;
      if (req.method === "POST" && req.url === "/completion") {
        record = { prompt: (JSON.parse(raw.toString("utf8")) as { prompt: string }).prompt, generated: "" };
        completions.push(record);
      }
      const out = httpRequest(
        { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers },
        (answer: IncomingMessage) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          let pending = "";
          // a character's bytes may straddle two reads
          const decoder = new StringDecoder("utf8");
          answer.on("data", (b: Buffer) => {
            res.write(b);
            if (record === undefined) return;
            pending += decoder.write(b);
            const cut = pending.lastIndexOf("\n");
            if (cut >= 0) {
              readChunks(pending.slice(0, cut), record);
              pending = pending.slice(cut + 1);
            }
          });
          answer.on("end", () => {
            if (record !== undefined) readChunks(pending + decoder.end(), record);
            res.end();
          });
          answer.on("error", () => res.destroy());
        },
      );
      out.on("error", () => res.destroy());
      // toolgram going away (its client left) ends the generation upstream too
      res.on("close", () => {
        if (!res.writableFinished) out.destroy();
      });
      out.end(raw);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    completions,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
