import type { JsonObject } from "../../src/json.js";
import { serveToolSets, type ChatTool } from "./toolSets.js";

/**
 * A tool whose argument is 40 levels of `anyOf: [S, {type: array, items: S}]`, written with `$defs` (issue 25's
 * deep recursive schema): small to send, it compiles within the budget and its automaton grows with the nesting.
 */
export function deepAnyOfTool(levels = 40): ChatTool {
  const $defs: JsonObject = { l0: { type: "string", maxLength: 8 } };
  for (let i = 1; i <= levels; i++) {
    const inner = { $ref: `#/$defs/l${i - 1}` };
    $defs[`l${i}`] = { anyOf: [inner, { type: "array", items: inner }] };
  }
  return {
    type: "function",
    function: {
      name: "deep",
      parameters: { type: "object", properties: { v: { $ref: `#/$defs/l${levels}` } }, required: ["v"], $defs },
    },
  };
}

/** The requests that interrupt a running stream: the GitHub MCP server's 117 tools, then the deep schema. */
export function interruptingRequests(): Array<{ name: string; body: Record<string, unknown> }> {
  const github = serveToolSets().find((s) => s.name.startsWith("GitHub"));
  if (github === undefined) throw new Error("the GitHub MCP tool set is missing from bench/serve/toolSets.ts");
  const messages = (content: string) => [{ role: "user", content }];
  return [
    {
      name: "117 GitHub MCP tools",
      body: { messages: messages(github.prompt), tools: github.tools, tool_choice: "required", max_tokens: 48 },
    },
    {
      name: "deep recursive schema",
      body: { messages: messages("Nest it."), tools: [deepAnyOfTool()], tool_choice: "required", max_tokens: 48 },
    },
  ];
}

/** What streaming a long reply saw while the other requests went by. */
export interface GapRun {
  /** Chunks with text the stream received. */
  readonly chunks: number;
  /** The largest gap between two chunks of the stream, and the median one (milliseconds). */
  readonly maxGapMs: number;
  readonly medianGapMs: number;
  readonly finished: boolean;
  /** Each interrupting request's HTTP status, and the stream's largest gap that overlaps its time in flight. */
  readonly others: Array<{ name: string; status: number; maxGapMs: number }>;
}

async function post(url: string, body: Record<string, unknown>): Promise<Response> {
  return fetch(`${url}/v1/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}

/**
 * Streams a long plain reply from the server at `url` and, once it is flowing, sends the interrupting requests one
 * after the other; returns the stream's chunk gaps and the others' statuses. Needs `--parallel 2`.
 */
export async function streamWhileOthersSend(url: string, maxTokens: number): Promise<GapRun> {
  const res = await post(url, {
    messages: [{ role: "user", content: "Tell me a long story." }],
    max_tokens: maxTokens,
    stream: true,
    seed: 1,
  });
  if (res.body === null) throw new Error(`the stream was answered ${res.status} without a body`);
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  const times: number[] = [];
  let finished = false;
  let others: Promise<Sent[]> | undefined;
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += value;
    const events = buffer.split("\n\n");
    buffer = events.pop() ?? "";
    for (const e of events) {
      if (e.includes('"content"')) times.push(performance.now());
      if (e.includes('"finish_reason":"')) finished = true;
    }
    // interrupt only once the stream is running, so every interruption falls between two of its chunks
    if (others === undefined && times.length >= 20) others = sendOthers(url);
  }
  const gaps = times.slice(1).map((t, i) => t - (times[i] as number));
  const sorted = [...gaps].sort((a, b) => a - b);
  return {
    chunks: times.length,
    maxGapMs: sorted.at(-1) ?? 0,
    medianGapMs: sorted[Math.floor(sorted.length / 2)] ?? 0,
    finished,
    others: (others === undefined ? [] : await others).map((o) => ({
      name: o.name,
      status: o.status,
      maxGapMs: Math.max(0, ...gaps.filter((_, i) => times[i + 1]! > o.sent && times[i]! < o.answered)),
    })),
  };
}

interface Sent {
  readonly name: string;
  readonly status: number;
  readonly sent: number;
  readonly answered: number;
}

async function sendOthers(url: string): Promise<Sent[]> {
  const out: Sent[] = [];
  for (const r of interruptingRequests()) {
    const sent = performance.now();
    const res = await post(url, r.body);
    await res.arrayBuffer();
    out.push({ name: r.name, status: res.status, sent, answered: performance.now() });
  }
  return out;
}
