import { afterAll, describe, expect, it } from "vitest";
import { describeFormat } from "../../src/formats/describeFormat.js";
import { parseToolCalls } from "../../src/parser/parseToolCalls.js";
import { strictBlockCheck } from "../../src/parser/strictBlockCheck.js";
import { validatorsFor } from "../../src/parser/toolValidators.js";
import type { JsonObject } from "../../src/json.js";
import { CompileWorker } from "../../src/server/CompileWorker.js";
import { GrammarCache } from "../../src/server/GrammarCache.js";
import { adoptParser } from "../../src/server/parserJob.js";
import { TOOLS } from "../support/server/serverHarness.js";

/**
 * A turn's strict parser compiled on the compile worker (its one-call grammar's recognizer and its ajv validators as
 * standalone code) and adopted on this thread reads every call as the parser compiled here reads it.
 */
const worker = new CompileWorker();
afterAll(() => worker.close());

const fresh = (): JsonObject[] => structuredClone([...TOOLS, bounded]) as JsonObject[];
const bounded: JsonObject = {
  type: "function",
  function: {
    name: "book",
    parameters: {
      type: "object",
      properties: {
        when: { type: "string", format: "date-time" },
        code: { type: "string", pattern: "^[A-Z]{3}$" },
        seats: { type: "integer", minimum: 1, maximum: 9 },
      },
      required: ["when", "seats"],
    },
  },
};

const calls = [
  '{"name": "get_weather", "arguments": {"city": "Oslo"}}',
  '{"name": "get_weather", "arguments": {"city": 3}}',
  '{"name": "get_weather", "arguments": {"city": "Oslo", "extra": 1}}',
  '{"name": "book", "arguments": {"when": "2024-05-01T10:00:00Z", "code": "OSL", "seats": 2}}',
  '{"name": "book", "arguments": {"when": "tomorrow", "code": "osl", "seats": 12}}',
  '{"name": "book", "arguments": {"when": "2024-05-01T10:00:00Z", "seats": 2e0}}',
  '{"name": "nope", "arguments": {}}',
];

describe("a strict parser compiled on the compile worker", () => {
  const d = describeFormat("qwen3");

  it("checks each call unit as the one-call grammar compiled here does", async () => {
    const here = strictBlockCheck(fresh(), d, "forbid");
    const tools = fresh();
    await adoptParser(tools, d, worker.prepareParser({ tools, format: d }));
    const adopted = strictBlockCheck(tools, d, "forbid");
    expect(here).toBeDefined();
    expect(adopted).toBeDefined();
    // a unit is the block's body, newlines included
    const units = calls.map((c) => `\n${c}\n`);
    const verdicts = units.map((u) => adopted!(u));
    expect(verdicts).toEqual(units.map((u) => here!(u)));
    // both verdicts occur, so the comparison can fail
    expect(verdicts).toContain(true);
    expect(verdicts).toContain(false);
  });

  it("validates arguments with the same errors as validators compiled here", async () => {
    const tools = fresh();
    await adoptParser(tools, d, worker.prepareParser({ tools, format: d }));
    const here = validatorsFor(fresh(), "forbid");
    const there = validatorsFor(tools, "forbid");
    const args: Array<[string, JsonObject]> = [
      ["get_weather", { city: "Oslo" }],
      ["get_weather", { city: 3, extra: true }],
      ["book", { when: "2024-05-01T10:00:00Z", code: "OSL", seats: 2 }],
      ["book", { when: "tomorrow", code: "osl", seats: 12 }],
    ];
    let failing = 0;
    for (const [name, a] of args) {
      const errors = there.validate(name, a);
      expect(errors).toEqual(here.validate(name, a));
      if ((errors ?? []).length > 0) failing++;
    }
    expect(failing).toBe(2);
  });

  it("parses a whole reply as the parser compiled here parses it", async () => {
    const tools = fresh();
    await adoptParser(tools, d, worker.prepareParser({ tools, format: d }));
    for (const c of calls) {
      const reply = `<tool_call>\n${c}\n</tool_call>`;
      const options = { format: "qwen3", mode: "strict" } as const;
      expect(parseToolCalls(reply, { ...options, tools })).toEqual(
        parseToolCalls(reply, { ...options, tools: fresh() }),
      );
    }
  });

  it("is compiled once per tool set: the grammar cache gives later requests the same array", async () => {
    let jobs = 0;
    const cache = new GrammarCache({
      maxEntries: 4,
      maxBytes: 1 << 20,
      parserCompiler: (job) => {
        jobs++;
        return worker.prepareParser(job);
      },
    });
    const first = cache.parserTools(fresh(), d);
    await cache.parserReady(first);
    const second = cache.parserTools(fresh(), d);
    expect(second).toBe(first);
    expect(jobs).toBe(1);
    const other = cache.parserTools(fresh().slice(1), d);
    await cache.parserReady(other);
    expect(other).not.toBe(first);
    expect(jobs).toBe(2);
  });

  it("checks a call that ends before the worker's parts come with a check compiled here", async () => {
    const tools = fresh();
    await adoptParser(tools, d, Promise.reject(new Error("the compile worker is gone")));
    const here = strictBlockCheck(fresh(), d, "forbid");
    const adopted = strictBlockCheck(tools, d, "forbid");
    const units = calls.map((c) => `\n${c}\n`);
    expect(units.map((u) => adopted!(u))).toEqual(units.map((u) => here!(u)));
  });
});
