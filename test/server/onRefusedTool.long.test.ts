import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { OnRefusedTool } from "../../src/compile.js";
import { startServer, type RunningServer } from "../../src/server/index.js";
import { refusedToolHeaders } from "../../src/server/refusedToolHeaders.js";
import { expectValidCalls, postRaw, tinyModel, TOOLS } from "../support/server/serverHarness.js";

/** A tool no grammar can enforce: a backreference is not regular. */
const UNENFORCEABLE = {
  type: "function" as const,
  function: {
    name: "echo_twice",
    parameters: {
      type: "object",
      properties: { s: { type: "string", pattern: "^(ab)\\1$" } },
      required: ["s"],
    },
  },
};
const request = {
  model: "tiny",
  messages: [{ role: "user" as const, content: "What is the weather in Paris?" }],
  tools: [...TOOLS, UNENFORCEABLE],
  tool_choice: "required" as const,
  max_completion_tokens: 64,
  seed: 3,
};

/** `toolgram serve --on-refused-tool`: a tool set with one unenforceable tool, under each setting. */
describe("toolgram serve --on-refused-tool", () => {
  const servers = new Map<OnRefusedTool, RunningServer>();
  beforeAll(async () => {
    const model = await tinyModel();
    const modes = ["error", "drop", "relax"] as const;
    // the default is "error": its server is started without the option
    const started = await Promise.all(
      modes.map((mode) =>
        startServer({ model, port: 0, contextSize: 1024, ...(mode === "error" ? {} : { onRefusedTool: mode }) }),
      ),
    );
    modes.forEach((mode, k) => servers.set(mode, started[k]));
  });
  afterAll(async () => {
    for (const s of servers.values()) await s.close();
  });

  const metric = async (s: RunningServer, action: string): Promise<number> => {
    const text = await (await fetch(`${s.url}/metrics`)).text();
    return Number(
      new RegExp(`^toolgram_refused_tools_total\\{action="${action}"\\} (\\S+)$`, "m").exec(text)?.[1] ?? 0,
    );
  };

  it("error (the default): a 400 naming the tool and where its schema is refused; no header", async () => {
    const s = servers.get("error") as RunningServer;
    const r = await postRaw(s.url, JSON.stringify(request));
    expect(r.status).toBe(400);
    expect(r.json.error.message).toContain('"echo_twice"');
    expect(r.json.error.param).toBe("tools[2]");
    expect(r.headers.get("x-toolgram-dropped-tools")).toBeNull();
    expect(await metric(s, "dropped")).toBe(0);
  });

  it("drop: an answer whose calls use the other tools, the dropped tool named in a header and counted", async () => {
    const s = servers.get("drop") as RunningServer;
    const client = new OpenAI({ baseURL: `${s.url}/v1`, apiKey: "unused" });
    const { data, response } = await client.chat.completions.create(request).withResponse();
    expect(JSON.parse(response.headers.get("x-toolgram-dropped-tools") ?? "null")).toEqual(["echo_twice"]);
    expect(response.headers.get("x-toolgram-relaxed-tools")).toBeNull();
    const calls = (data.choices[0].message.tool_calls ?? []).filter((c) => c.type === "function");
    expect(calls.length).toBeGreaterThan(0);
    expectValidCalls(calls);
    // streamed answers carry the header too; each answer counts the tool
    const stream = await client.chat.completions.create({ ...request, stream: true }).withResponse();
    expect(JSON.parse(stream.response.headers.get("x-toolgram-dropped-tools") ?? "null")).toEqual(["echo_twice"]);
    for await (const _ of stream.data);
    expect(await metric(s, "dropped")).toBe(2);
    expect(await metric(s, "relaxed")).toBe(0);
  });

  it("relax: an answer, the relaxed tool named in a header and counted", async () => {
    const s = servers.get("relax") as RunningServer;
    const r = await postRaw(s.url, JSON.stringify(request));
    expect(r.status).toBe(200);
    expect(JSON.parse(r.headers.get("x-toolgram-relaxed-tools") ?? "null")).toEqual(["echo_twice"]);
    expect(r.headers.get("x-toolgram-dropped-tools")).toBeNull();
    expect(r.json.choices[0].finish_reason).toBe("tool_calls");
    expect(await metric(s, "relaxed")).toBe(1);
  });

  it("an unknown setting is refused at start", async () => {
    await expect(
      startServer({ model: await tinyModel(), port: 0, onRefusedTool: "skip" as OnRefusedTool }),
    ).rejects.toThrow(/--on-refused-tool must be error, drop or relax/);
  });
});

describe("refusedToolHeaders", () => {
  it("names the tools as a JSON array in ASCII (a header value is Latin-1); no header for an empty list", () => {
    const warn = (code: string, tool: string) => ({ code, message: "", schemaPath: "", tool });
    const r = refusedToolHeaders([warn("TOOL_DROPPED", "a,b"), warn("TOOL_DROPPED", "météo"), warn("OTHER", "x")]);
    expect(r.headers).toEqual({ "X-Toolgram-Dropped-Tools": '["a,b","m\\u00e9t\\u00e9o"]' });
    expect(JSON.parse(r.headers["X-Toolgram-Dropped-Tools"])).toEqual(["a,b", "météo"]);
    expect([r.dropped, r.relaxed]).toEqual([2, 0]);
  });
});
