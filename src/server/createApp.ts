import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { ApiError } from "./ApiError.js";
import { chatCompletions } from "./chatCompletionsRoute.js";
import { checkApiKey } from "./checkApiKey.js";
import type { ServerState } from "./ServerState.js";

function send(error: ApiError): Response {
  return new Response(JSON.stringify(error.body()), {
    status: error.status,
    headers: { "content-type": "application/json", ...error.headers },
  });
}

/**
 * The HTTP routes: `POST /v1/chat/completions`, `GET /v1/models`, `GET /health` (no key needed) and `GET /metrics`.
 * No route reads or writes a file, whatever the request names.
 */
export function createApp(state: ServerState): Hono {
  const app = new Hono();
  const { settings, metrics } = state;

  app.get("/health", async (c) => {
    const ok = await state.engine.healthy();
    return c.json(
      {
        status: ok ? "ok" : "unavailable",
        engine: state.engine.kind,
        slots: state.scheduler.slots,
        busy: state.scheduler.busy,
        queued: state.scheduler.queued,
      },
      ok ? 200 : 503,
    );
  });

  app.use("*", async (c, next) => {
    if (settings.apiKey !== undefined && !checkApiKey(c.req.header("authorization"), settings.apiKey)) {
      return send(
        new ApiError(
          401,
          "Incorrect API key provided: pass it as `Authorization: Bearer <key>`.",
          "authentication_error",
          null,
          "invalid_api_key",
        ),
      );
    }
    await next();
  });

  app.get("/metrics", async (c) => {
    metrics.queueDepth.set(state.scheduler.queued);
    metrics.busySlots.set(state.scheduler.busy);
    return c.body(await metrics.registry.metrics(), 200, { "content-type": metrics.registry.contentType });
  });

  app.get("/v1/models", (c) =>
    c.json({ object: "list", data: [{ id: state.engine.modelId, object: "model", created: 0, owned_by: "toolgram" }] }),
  );

  app.post(
    "/v1/chat/completions",
    bodyLimit({
      maxSize: settings.maxBodyBytes,
      onError: () => {
        metrics.requests.inc({ route: "/v1/chat/completions", status: "413" });
        return send(
          new ApiError(
            413,
            `The request body is larger than ${settings.maxBodyBytes} bytes.`,
            "invalid_request_error",
            null,
            "request_too_large",
          ),
        );
      },
    }),
    (c) => chatCompletions(c, state),
  );

  app.notFound((c) =>
    send(
      new ApiError(
        404,
        `Unknown route ${c.req.method} ${new URL(c.req.url).pathname}.`,
        "not_found_error",
        null,
        "unknown_url",
      ),
    ),
  );
  app.onError((e) => {
    const error =
      e instanceof ApiError
        ? e
        : new ApiError(500, `The server failed: ${e.message}`, "server_error", null, "internal_error");
    return send(error);
  });
  return app;
}
