import { describe, expect, it } from "vitest";
import { readSse } from "../../src/llama-cpp/readSse.js";
import { checkGbnfRepetitions } from "../../src/llama-cpp/checkGbnfRepetitions.js";
import { LimitExceededError, ToolgramError } from "../../src/errors.js";
import { startLlamaServer } from "../../src/llama-cpp/llamaServerClient.js";

function streamOf(chunks: string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const c of chunks) controller.enqueue(encoder.encode(c));
      controller.close();
    },
  });
}

async function collect(chunks: string[]): Promise<string[]> {
  const out: string[] = [];
  for await (const data of readSse(streamOf(chunks))) out.push(data);
  return out;
}

const BODY =
  'data: {"content":"a"}\n\n: keep-alive comment\n\nevent: x\ndata: {"content":"日本"}\r\n\r\ndata: line1\ndata: line2\n\ndata: [DONE]\n\ndata: after\n\n';
const EXPECTED = ['{"content":"a"}', '{"content":"日本"}', "line1\nline2"];

describe("readSse", () => {
  it("yields each event's data and stops at [DONE]", async () => {
    expect(await collect([BODY])).toEqual(EXPECTED);
  });

  it("gives the same events however the bytes are split (every two-chunk split, UTF-8 included)", async () => {
    const bytes = new TextEncoder().encode(BODY);
    for (let cut = 1; cut < bytes.length; cut++) {
      const stream = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(bytes.slice(0, cut));
          controller.enqueue(bytes.slice(cut));
          controller.close();
        },
      });
      const out: string[] = [];
      for await (const data of readSse(stream)) out.push(data);
      expect(out, `split at ${cut}`).toEqual(EXPECTED);
    }
  });

  it("yields a final event without a trailing blank line", async () => {
    expect(await collect(["data: one\n\ndata: two"])).toEqual(["one", "two"]);
  });
});

describe("checkGbnfRepetitions", () => {
  it("accepts sane bounds and braces inside literals, classes and comments", () => {
    for (const g of [
      'root ::= "a"{3}',
      "root ::= [a-z]{1,20}",
      'root ::= "x"{2,}',
      'root ::= "{5,1}" [{}] # {9,1}\n',
      'root ::= "\\"{3,1}"',
    ]) {
      expect(() => checkGbnfRepetitions(g), g).not.toThrow();
    }
  });

  it("refuses a minimum above the maximum and huge bounds", () => {
    expect(() => checkGbnfRepetitions('root ::= "a"{3,1}')).toThrow(ToolgramError);
    expect(() => checkGbnfRepetitions('root ::= "a" { 10 , 2 }')).toThrow(/minimum above/);
    expect(() => checkGbnfRepetitions('root ::= "a"{0,1000000}')).toThrow(LimitExceededError);
  });
});

describe("startLlamaServer", () => {
  it("rejects with the process's output when the binary exits at once", async () => {
    // Node itself stands in for a binary that does not understand llama-server's arguments.
    await expect(
      startLlamaServer({ binary: process.execPath, model: "missing.gguf", startupTimeoutMs: 20_000 }),
    ).rejects.toThrow(/did not start/);
  });
});
