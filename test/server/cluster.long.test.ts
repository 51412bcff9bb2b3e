import OpenAI from "openai";
import type { ChatCompletionMessageParam } from "openai/resources/chat/completions";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findNginx, startCluster, type Cluster } from "../../scripts/cluster/startCluster.js";
import { findLlamaServer } from "../../src/llama-cpp/index.js";
import { startRecordingProxy, type RecordingProxy } from "../support/server/recordingProxy.js";
import { expectValidCalls, postRaw, tinyModel, TOOLS } from "../support/server/serverHarness.js";

/**
 * The balanced layout of `npm run serve:cluster`, with real parts: nginx (Debian's package) round robin over two
 * `toolgram serve --upstream` processes, each in front of its own llama-server on the tiny model. A recording proxy
 * between each instance and its llama-server shows the exact prompt every llama-server receives and the exact text it
 * generates. The instances share nothing: only what the client sends links one turn to the next.
 */
const binary = await findLlamaServer();
const nginx = findNginx();
const SKIP_REASON =
  binary === undefined
    ? "llama-server is not built: run `npm run llama-server` (≈ 15 min once) to enable these tests"
    : "nginx is not installed (Debian: apt-get install nginx)";
const skip = binary === undefined || nginx === undefined;
if (skip) console.warn(`test/server/cluster.long.test.ts skipped: ${SKIP_REASON}`);

let cluster: Cluster;
let client: OpenAI;
const proxies: RecordingProxy[] = [];

/** The instance (index) that answered, from the header nginx adds: the last address it tried. */
function servedBy(header: string | null): number {
  const last = (header ?? "").split(",").pop()?.trim();
  const index = cluster.instances.findIndex((i) => i.address === last);
  expect(index, `X-Toolgram-Upstream: ${header}`).toBeGreaterThanOrEqual(0);
  return index;
}

describe.skipIf(skip)(`nginx over two toolgram instances${skip ? ` (skipped: ${SKIP_REASON})` : ""}`, () => {
  beforeAll(async () => {
    cluster = await startCluster({
      model: await tinyModel(),
      instances: 2,
      llamaServer: binary,
      upstreamFor: async (_, llamaUrl) => {
        const proxy = await startRecordingProxy(llamaUrl);
        proxies.push(proxy);
        return proxy.url;
      },
    });
    client = new OpenAI({ baseURL: `${cluster.url}/v1`, apiKey: "unused", maxRetries: 0 });
  }, 300_000);
  afterAll(async () => {
    await cluster?.stop();
    await Promise.all(proxies.map((p) => p.close()));
  });

  it("a conversation whose turns alternate instances: each model sees the bytes the other one generated", async () => {
    const messages: ChatCompletionMessageParam[] = [
      { role: "user", content: "What is the weather in Paris, and then the time in Tokyo?" },
    ];
    const served: number[] = [];
    const usage: Array<{ prompt: number; cached: number }> = [];
    for (let turn = 0; turn < 4; turn++) {
      const { data, response } = await client.chat.completions
        .create({
          model: "tiny",
          messages,
          tools: TOOLS,
          tool_choice: "required",
          parallel_tool_calls: false,
          max_tokens: 200,
          seed: 100 + turn,
        })
        .withResponse();
      served.push(servedBy(response.headers.get("x-toolgram-upstream")));
      usage.push({
        prompt: data.usage?.prompt_tokens ?? 0,
        cached: data.usage?.prompt_tokens_details?.cached_tokens ?? 0,
      });
      const message = data.choices[0].message;
      expect(data.choices[0].finish_reason).toBe("tool_calls");
      const calls = (message.tool_calls ?? []).filter((c) => c.type === "function");
      expectValidCalls(calls);
      console.log(
        `turn ${turn + 1} on instance ${served[turn]}: ${data.usage?.prompt_tokens} prompt tokens (${data.usage?.prompt_tokens_details?.cached_tokens ?? 0} cached), ${data.usage?.completion_tokens} generated`,
      );
      messages.push({ role: "assistant", content: message.content, tool_calls: message.tool_calls });
      for (const c of calls) messages.push({ role: "tool", tool_call_id: c.id, content: `{"turn": ${turn + 1}}` });
    }
    // round robin with one client: the turns alternate
    for (let t = 1; t < served.length; t++) expect(served[t]).not.toBe(served[t - 1]);
    // an instance's llama-server still holds the prompt it evaluated two turns earlier, and reuses it whole
    for (let t = 2; t < usage.length; t++) expect(usage[t].cached).toBeGreaterThanOrEqual(usage[t - 2].prompt);

    // Each llama-server's prompts, in order; turn t's is the next unread one of the instance that served it.
    const read = [0, 0];
    const seen = served.map((i) => proxies[i].completions[read[i]++]);
    for (let t = 1; t < seen.length; t++) {
      const before = seen[t - 1];
      // The earlier prompt as the other instance rendered it, then exactly what its model generated, byte for byte.
      const replayed = before.prompt + before.generated;
      expect(seen[t].prompt.slice(0, replayed.length)).toBe(replayed);
    }
    console.log(
      `replay: ${seen.length} turns alternating instances ${served.join(",")}; each prompt starts with the previous prompt + its generated text (${seen.map((s) => s.generated.length).join(", ")} bytes generated)`,
    );
  }, 300_000);

  it("bad input through the balancer still gets OpenAI-shaped 4xx answers", async () => {
    const shapes: Array<[string | Uint8Array, number, string]> = [
      ["{not json", 400, "invalid_json"],
      [JSON.stringify({ messages: "hello" }), 400, ""],
      [
        JSON.stringify({
          messages: [{ role: "user", content: "hi" }],
          tools: TOOLS,
          tool_choice: { type: "function", function: { name: "no_such_tool" } },
        }),
        400,
        "",
      ],
      [new Uint8Array(5 * 1024 * 1024).fill(0x20), 413, "request_too_large"],
    ];
    for (const [body, status, code] of shapes) {
      const r = await postRaw(cluster.url, body);
      expect(r.status).toBe(status);
      expect(r.headers.get("content-type")).toMatch(/application\/json/);
      expect(Object.keys(r.json.error).sort()).toEqual(["code", "message", "param", "type"]);
      expect(r.json.error.type).toBe("invalid_request_error");
      if (code !== "") expect(r.json.error.code).toBe(code);
    }
    // the official client raises its typed error, with the status
    await expect(
      client.chat.completions.create({
        model: "tiny",
        messages: [{ role: "user", content: "hi" }],
        tools: TOOLS,
        tool_choice: { type: "function", function: { name: "no_such_tool" } },
      }),
    ).rejects.toBeInstanceOf(OpenAI.BadRequestError);
    const unknown = await fetch(`${cluster.url}/v2/nothing`);
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { error: { type: string } }).error.type).toBe("not_found_error");
  });

  it("one instance killed under load: no corrupted or hung answer, and the other keeps serving", async () => {
    await killUnderLoad(cluster);
  }, 300_000);
});

/** How a request ended. */
type Outcome = "completed" | "cut" | "5xx";

/** A streamed request read to its end: every data line must parse; it ends with [DONE], or with a transport error. */
async function streamed(body: object, onFirstChunk: (instance: number) => void): Promise<Outcome> {
  let response: Response;
  try {
    response = await fetch(`${cluster.url}/v1/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ ...body, stream: true }),
    });
  } catch {
    return "cut";
  }
  if (response.status !== 200) return expectClean5xx(response.status, await response.text());
  const instance = servedBy(response.headers.get("x-toolgram-upstream"));
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  let first = true;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      text += value;
      if (first && text.includes("\n\n")) {
        first = false;
        onFirstChunk(instance);
      }
    }
  } catch {
    // the connection ended mid-stream (nginx closes it without the final chunk): the client knows it is incomplete
    checkEvents(text, false);
    return "cut";
  }
  checkEvents(text, true);
  return "completed";
}

/** Every complete SSE event is JSON (or [DONE]); a stream that ended cleanly ends with a finish_reason and [DONE]. */
function checkEvents(text: string, ended: boolean): void {
  const complete = text.slice(0, text.lastIndexOf("\n\n") + 2);
  const data = complete
    .split("\n\n")
    .filter((e) => e !== "")
    .map((e) => e.replace(/^data: /, ""));
  for (const d of data.filter((d) => d !== "[DONE]")) expect(() => JSON.parse(d)).not.toThrow();
  if (!ended) return;
  expect(complete).toBe(text);
  expect(data.at(-1)).toBe("[DONE]");
  const last = JSON.parse(data.at(-2)!) as { choices: Array<{ finish_reason: string | null }> };
  expect(["stop", "length", "tool_calls"]).toContain(last.choices[0].finish_reason);
}

function expectClean5xx(status: number, text: string): Outcome {
  expect([502, 503]).toContain(status);
  const body = JSON.parse(text) as { error: { type: string; code: string } };
  expect(body.error.type).toBe("server_error");
  return "5xx";
}

/** A non-streamed request through the official client: a whole valid answer or a clean 502/503. */
async function whole(body: object): Promise<Outcome> {
  try {
    const r = await client.chat.completions.create({
      model: "tiny",
      ...(body as { messages: ChatCompletionMessageParam[] }),
      stream: false,
    });
    const finish = r.choices[0].finish_reason;
    expect(["stop", "length", "tool_calls"]).toContain(finish);
    if (finish === "tool_calls")
      expectValidCalls((r.choices[0].message.tool_calls ?? []).filter((c) => c.type === "function"));
    return "completed";
  } catch (e) {
    if (e instanceof OpenAI.APIError && e.status !== undefined) {
      return expectClean5xx(e.status, JSON.stringify({ error: e.error }));
    }
    throw e;
  }
}

const CALL = {
  messages: [{ role: "user", content: "What is the weather in Paris?" }],
  tools: TOOLS,
  tool_choice: "required",
  max_tokens: 120,
};
/** Plain chat on random weights rarely ends by itself: a stream that is still running when the instance dies. */
const LONG = { messages: [{ role: "user", content: "Tell me a long story." }], max_tokens: 300 };

async function killUnderLoad(c: Cluster): Promise<void> {
  // The victim is the instance of the first stream to send a chunk: round robin decides where the streams land.
  let victim: number | undefined;
  let killed: Promise<void> | undefined;
  const kill = (instance: number): void => {
    if (killed !== undefined) return;
    victim = instance;
    killed = c.instances[instance].kill("SIGKILL");
  };
  // Three streams and three whole answers at once: each instance is busy with one and has the others queued.
  const load: Array<Promise<Outcome>> = [];
  for (let i = 0; i < 3; i++) {
    load.push(streamed({ ...LONG, seed: 200 + i }, kill));
    load.push(whole({ ...CALL, seed: 300 + i }));
  }
  const during = await Promise.all(load);
  expect(killed, "a stream started before the load ended").toBeDefined();
  await killed;
  const survivor = c.instances.find((i) => i.index !== victim)!;
  // After the kill: every request succeeds (nginx's connection to the dead instance fails, so it tries the next).
  const after: Array<Promise<Outcome>> = [];
  for (let i = 0; i < 2; i++) {
    after.push(whole({ ...CALL, seed: 400 + i }));
    after.push(streamed({ ...CALL, seed: 500 + i }, () => undefined));
  }
  const afterOutcomes = await Promise.all(after);
  const log = c.accessLog().trim().split("\n");
  const chat = log.filter((l) => l.includes("/v1/chat/completions"));
  const retried = chat.filter((l) => /upstream=\S+, /.test(l)).length;
  const count = (o: readonly Outcome[], k: Outcome): number => o.filter((x) => x === k).length;
  console.log(
    `kill under load: ${during.length} requests in flight: ${count(during, "completed")} completed, ${count(during, "cut")} streams cut mid-way (connection closed, no [DONE]), ${count(during, "5xx")} clean 502/503; after the kill: ${count(afterOutcomes, "completed")}/${afterOutcomes.length} completed; ${retried} requests retried on the next instance by nginx`,
  );
  // the kill hit something, and requests to the other instance went on
  expect(count(during, "cut") + count(during, "5xx")).toBeGreaterThan(0);
  expect(count(during, "completed")).toBeGreaterThan(0);
  expect(afterOutcomes.every((o) => o === "completed")).toBe(true);
  // after the kill, every request ended on the surviving instance
  for (const line of chat.slice(-after.length))
    expect(line).toMatch(new RegExp(`upstream=(\\S+, )?${survivor.address}`));
}
