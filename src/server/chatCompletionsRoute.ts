import { randomBytes } from "node:crypto";
import type { Context } from "hono";
import { streamSSE } from "hono/streaming";
import { ApiError, badRequest } from "./ApiError.js";
import { UpstreamError } from "./Engine.js";
import { chunkBody, completionBody, usageChunkBody, type CompletionIdentity } from "./responseShapes.js";
import { refusedToolHeaders } from "./refusedToolHeaders.js";
import { prepareTurn, runTurn, type PreparedTurn } from "./runTurn.js";
import type { ServerState } from "./ServerState.js";

/** Why a generation was aborted, as the abort reason says. */
const CLIENT_GONE = "client disconnected";
const DEADLINE = "deadline exceeded";

/** Unexpected failures as OpenAI-shaped errors: upstream trouble is a 502, a deadline a 504, anything else a 500. */
export function asApiError(e: unknown, signal?: AbortSignal): ApiError {
  if (e instanceof ApiError) return e;
  if (signal?.reason === DEADLINE)
    return new ApiError(
      504,
      "The request did not finish within the server's deadline.",
      "server_error",
      null,
      "deadline_exceeded",
    );
  if (e instanceof UpstreamError) return new ApiError(502, e.message, "server_error", null, "upstream_error");
  return new ApiError(
    500,
    `The server failed while generating: ${e instanceof Error ? e.message : String(e)}`,
    "server_error",
    null,
    "internal_error",
  );
}

function errorResponse(c: Context, e: ApiError): Response {
  return c.json(e.body(), e.status as 400, e.headers);
}

async function readJson(c: Context): Promise<unknown> {
  const text = await c.req.text();
  try {
    return JSON.parse(text) as unknown;
  } catch (e) {
    throw badRequest(
      `We could not parse the JSON body of your request (${e instanceof Error ? e.message : "invalid JSON"}). The body must be one JSON object.`,
      null,
      "invalid_json",
    );
  }
}

/** `POST /v1/chat/completions`. */
export async function chatCompletions(c: Context, state: ServerState): Promise<Response> {
  const started = performance.now();
  const m = state.metrics;
  const done = (status: number): void => {
    m.requests.inc({ route: "/v1/chat/completions", status: String(status) });
    m.requestSeconds.observe((performance.now() - started) / 1000);
  };
  let prepared: PreparedTurn;
  try {
    prepared = await prepareTurn(await readJson(c), state);
  } catch (e) {
    const error = asApiError(e);
    done(error.status);
    return errorResponse(c, error);
  }
  // tools left out or relaxed (onRefusedTool): named on every answer, counted per request
  const refused = refusedToolHeaders(prepared.grammar.grammar?.warnings ?? []);
  for (const [name, value] of Object.entries(refused.headers)) c.header(name, value);
  if (refused.dropped > 0) m.refusedTools.inc({ action: "dropped" }, refused.dropped);
  if (refused.relaxed > 0) m.refusedTools.inc({ action: "relaxed" }, refused.relaxed);

  // One signal for the whole request: the client going away, or the deadline.
  const control = new AbortController();
  const clientSignal = c.req.raw.signal;
  const onClientGone = (): void => control.abort(CLIENT_GONE);
  clientSignal.addEventListener("abort", onClientGone, { once: true });
  const deadline = setTimeout(() => control.abort(DEADLINE), state.settings.timeoutMs);
  const cleanup = (): void => {
    clearTimeout(deadline);
    clientSignal.removeEventListener("abort", onClientGone);
  };

  let release: () => void;
  m.queueDepth.set(state.scheduler.queued + 1);
  try {
    release = await state.scheduler.acquire(control.signal);
  } catch (e) {
    cleanup();
    m.queueDepth.set(state.scheduler.queued);
    const error =
      e instanceof ApiError
        ? e
        : control.signal.reason === DEADLINE
          ? asApiError(e, control.signal)
          : new ApiError(499, "The client closed the request.", "invalid_request_error", null, "client_closed");
    done(error.status);
    return errorResponse(c, error);
  }
  m.queueDepth.set(state.scheduler.queued);
  m.busySlots.set(state.scheduler.busy);
  const finish = (): void => {
    release();
    cleanup();
    m.busySlots.set(state.scheduler.busy);
    m.queueDepth.set(state.scheduler.queued);
  };

  const who: CompletionIdentity = {
    id: `chatcmpl-${randomBytes(12).toString("hex")}`,
    created: Math.floor(Date.now() / 1000),
    model: prepared.request.model,
  };
  if (!prepared.request.stream) {
    try {
      const outcome = await runTurn(state, prepared, control.signal, () => undefined);
      if (control.signal.aborted && control.signal.reason !== undefined) throw new Error(String(control.signal.reason));
      done(200);
      return c.json(completionBody(who, outcome.turn, outcome.finishReason, outcome.usage));
    } catch (e) {
      const error = asApiError(e, control.signal);
      done(error.status);
      return errorResponse(c, error);
    } finally {
      finish();
    }
  }

  const includeUsage = prepared.request.includeUsage;
  return streamSSE(c, async (stream) => {
    stream.onAbort(() => control.abort(CLIENT_GONE));
    // onText is synchronous; writes are chained so that chunks leave in order.
    let writing: Promise<void> = Promise.resolve();
    const send = (body: object | string): void => {
      const data = typeof body === "string" ? body : JSON.stringify(body);
      writing = writing.then(() => (stream.aborted ? undefined : stream.writeSSE({ data })));
    };
    try {
      send(chunkBody(who, { role: "assistant", content: "" }, null, includeUsage));
      const outcome = await runTurn(state, prepared, control.signal, (delta) =>
        send(chunkBody(who, delta, null, includeUsage)),
      );
      if (control.signal.aborted) throw new Error(String(control.signal.reason));
      send(chunkBody(who, {}, outcome.finishReason, includeUsage));
      if (includeUsage) send(usageChunkBody(who, outcome.usage));
      send("[DONE]");
      done(200);
    } catch (e) {
      // Headers are sent: the error goes in the stream, as OpenAI's API does, and the stream ends without [DONE].
      const error = asApiError(e, control.signal);
      if (!stream.aborted) send(error.body());
      done(control.signal.reason === CLIENT_GONE ? 499 : error.status);
    } finally {
      finish();
      await writing.catch(() => undefined);
    }
  });
}
