import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type RunningServer } from "../../src/server/index.js";
import { postRaw, tinyModel } from "../support/server/serverHarness.js";

/**
 * Slots and the queue: a client that disconnects frees its slot (its generation stops), and past the queue bound a
 * request is refused with 429 and Retry-After. One slot, a queue of one.
 */
let server: RunningServer;
/** A generation that would run for thousands of tokens: plain chat on random weights rarely ends by itself. */
const LONG = {
  messages: [{ role: "user", content: "Tell me a long story." }],
  max_tokens: 3000,
  seed: 1,
  stream: true,
};

async function health(): Promise<{ busy: number; queued: number }> {
  return (await (await fetch(`${server.url}/health`)).json()) as { busy: number; queued: number };
}

/** Polls /health until `done` holds (each poll yields to the server; no verdict depends on the time taken). */
async function waitFor(done: (h: { busy: number; queued: number }) => boolean): Promise<void> {
  for (let i = 0; i < 2000; i++) {
    if (done(await health())) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`never reached: ${JSON.stringify(await health())}`);
}

async function completionTokens(): Promise<number> {
  const text = await (await fetch(`${server.url}/metrics`)).text();
  return Number(/toolgram_tokens_total\{kind="completion"\} (\d+)/.exec(text)?.[1] ?? 0);
}

/** Starts a long streaming request and resolves once its first chunk has arrived. */
async function startLong(): Promise<{ abort: () => void; done: Promise<unknown> }> {
  const controller = new AbortController();
  const response = await fetch(`${server.url}/v1/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(LONG),
    signal: controller.signal,
  });
  expect(response.status).toBe(200);
  const reader = response.body!.getReader();
  // the role chunk, then generated text
  for (let i = 0; i < 4; i++) await reader.read();
  const done = (async () => {
    try {
      while (!(await reader.read()).done);
    } catch {
      // aborted
    }
  })();
  return { abort: () => controller.abort(), done };
}

describe("toolgram serve: disconnects and the queue", () => {
  beforeAll(async () => {
    server = await startServer({ model: await tinyModel(), port: 0, parallel: 1, maxQueue: 1 });
  });
  afterAll(async () => {
    await server?.close();
  });

  it("a client that disconnects mid-stream frees its slot: the generation stops early", async () => {
    const before = await completionTokens();
    const long = await startLong();
    expect((await health()).busy).toBe(1);
    long.abort();
    await long.done;
    await waitFor((h) => h.busy === 0);
    const generated = (await completionTokens()) - before;
    console.log(`the disconnected generation stopped after ${generated} of ${LONG.max_tokens} tokens`);
    expect(generated).toBeLessThan(LONG.max_tokens);
    const next = await postRaw(
      server.url,
      JSON.stringify({ messages: [{ role: "user", content: "hi" }], max_tokens: 4, seed: 2 }),
    );
    expect(next.status).toBe(200);
  });

  it("past the queue bound: 429 with Retry-After; the queued request is served once the slot frees", async () => {
    const long = await startLong();
    const queued = postRaw(
      server.url,
      JSON.stringify({ messages: [{ role: "user", content: "hi" }], max_tokens: 4, seed: 3 }),
    );
    await waitFor((h) => h.queued === 1);
    const refused = await postRaw(
      server.url,
      JSON.stringify({ messages: [{ role: "user", content: "hi" }], max_tokens: 4 }),
    );
    expect(refused.status).toBe(429);
    expect(refused.json.error.type).toBe("rate_limit_error");
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    long.abort();
    await long.done;
    expect((await queued).status).toBe(200);
    await waitFor((h) => h.busy === 0 && h.queued === 0);
  });

  it("a stop sequence ends the content before it", async () => {
    const r = await postRaw(
      server.url,
      JSON.stringify({
        messages: [{ role: "user", content: "hi" }],
        max_tokens: 200,
        seed: 4,
        response_format: { type: "json_object" },
        stop: ['"'],
      }),
    );
    expect(r.status).toBe(200);
    // A JSON object's first key opens with a quote: the content stops right before it.
    expect(r.json.choices[0].message.content).toMatch(/^\{\s*$/);
    expect(r.json.choices[0].finish_reason).toBe("stop");
  });
});

describe("toolgram serve: the per-request deadline", () => {
  it("a generation past the deadline is stopped and answered 504; the server keeps serving", async () => {
    const short = await startServer({ model: await tinyModel(), port: 0, timeoutMs: 1 });
    try {
      const r = await postRaw(short.url, JSON.stringify({ ...LONG, stream: false }));
      expect(r.status).toBe(504);
      expect(r.json.error.code).toBe("deadline_exceeded");
      const h = (await (await fetch(`${short.url}/health`)).json()) as { status: string; busy: number };
      expect(h).toMatchObject({ status: "ok", busy: 0 });
    } finally {
      await short.close();
    }
  });
});
