import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type RunningServer } from "../../src/server/index.js";
import { expectValidCalls, postRaw, tinyModel } from "../support/server/serverHarness.js";

/**
 * A request that compiles but grows deep while it is generated: a tool whose argument is 40 levels of
 * `anyOf: [S, {type: array, items: S}]` (written with `$defs`), its calls forced. Every turn is a 200 with calls that
 * validate, and the same tools (the cached grammar) keep working turn after turn: a bound of the automaton's tables
 * met while decoding starts them afresh instead of failing the request or leaving the grammar broken.
 */
let server: RunningServer;

function deepTool(levels: number): object {
  const defs: Record<string, unknown> = { s0: { type: "integer" } };
  for (let k = 1; k <= levels; k++)
    defs[`s${k}`] = { anyOf: [{ $ref: `#/$defs/s${k - 1}` }, { type: "array", items: { $ref: `#/$defs/s${k - 1}` } }] };
  return {
    type: "function",
    function: {
      name: "nest",
      parameters: { $defs: defs, type: "object", properties: { v: { $ref: `#/$defs/s${levels}` } }, required: ["v"] },
    },
  };
}

describe("toolgram serve: a tool set that compiles but grows deep", () => {
  beforeAll(async () => {
    server = await startServer({ model: await tinyModel(), port: 0, contextSize: 4096 });
  });
  afterAll(async () => {
    await server?.close();
  });

  it("turns with forced calls of the 40-level tool all succeed, the cached grammar reused", async () => {
    const tools = [deepTool(40)];
    let tokens = 0;
    for (let seed = 1; seed <= 2; seed++) {
      const r = await postRaw(
        server.url,
        JSON.stringify({
          messages: [{ role: "user", content: "nest" }],
          tools,
          tool_choice: "required",
          max_tokens: 120,
          temperature: 1.5,
          seed,
        }),
      );
      expect(r.status, JSON.stringify(r.json).slice(0, 300)).toBe(200);
      tokens += r.json.usage.completion_tokens;
      const choice = r.json.choices[0];
      if (choice.finish_reason === "tool_calls") expectValidCalls(choice.message.tool_calls, tools as never);
    }
    expect(tokens).toBeGreaterThan(40);
    const metrics = await (await fetch(`${server.url}/metrics`)).text();
    expect(metrics).not.toMatch(/toolgram_requests_total\{[^}]*status="5\d\d"/);
  }, 900_000);
});
