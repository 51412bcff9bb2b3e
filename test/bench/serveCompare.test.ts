import { describe, expect, it } from "vitest";
import { judge } from "../../bench/serve/judge.js";
import type { RequestKind } from "../../bench/serve/requestKinds.js";
import type { StreamOutcome } from "../../bench/serve/streamOne.js";
import { type RequestRecord, summarize } from "../../bench/serve/summarize.js";
import { serveToolSets } from "../../bench/serve/toolSets.js";

/** The serve comparison's verdicts: what counts as a valid call and as the response the request asked for. */
const [weather, twenty, github] = serveToolSets();
const outcome = (calls: Array<[string, string]>, extra: Partial<StreamOutcome> = {}): StreamOutcome => ({
  calls: calls.map(([name, args]) => ({ name, arguments: args })),
  content: "",
  finishReason: calls.length > 0 ? "tool_calls" : "stop",
  ...extra,
});

describe("bench:serve judge", () => {
  it("the three tool sets are the weather tools, twenty tools and the GitHub server's 117, each naming a tool it has", () => {
    expect([weather.tools.length, twenty.tools.length, github.tools.length]).toEqual([2, 20, 117]);
    for (const set of [weather, twenty, github]) expect(set.tools.map((t) => t.function.name)).toContain(set.named);
  });

  it("a call parses and validates, or the problem is named", () => {
    const ok = judge(outcome([["get_weather", '{"city": "Paris"}']]), "required", weather);
    expect(ok).toEqual({ withCall: true, callsValid: true, obeysChoice: true });
    expect(judge(outcome([["get_weather", '{"city": "Par']]), "auto", weather).problem).toMatch(/not JSON/);
    expect(judge(outcome([["get_weather", '{"town": "Paris"}']]), "auto", weather).problem).toMatch(/fail the schema/);
    expect(judge(outcome([["get_wether", "{}"]]), "auto", weather).problem).toMatch(/undeclared tool/);
  });

  it("each request kind is judged on what it asks", () => {
    const none = outcome([]);
    const two = outcome([
      ["get_weather", '{"city": "Paris"}'],
      ["get_forecast", '{"city": "Tokyo", "days": 2}'],
    ]);
    const cases: Array<[RequestKind, StreamOutcome, boolean]> = [
      ["auto", none, true],
      ["required", none, false],
      ["named", none, false],
      ["named", two, false],
      ["parallel false", two, false],
      ["required", two, true],
    ];
    for (const [kind, o, obeys] of cases) expect(judge(o, kind, weather).obeysChoice, kind).toBe(obeys);
    expect(judge(two, "auto", weather).callsValid).toBe(true);
  });

  it("an error answer is counted apart, and the shares are over the group", () => {
    const err = judge(outcome([], { error: "HTTP 500: boom" }), "auto", weather);
    expect(err).toMatchObject({ withCall: false, callsValid: false, obeysChoice: false });
    const record = (o: StreamOutcome, kind: RequestKind): RequestRecord => ({
      family: "qwen3",
      toolSet: weather.name,
      kind,
      seed: 1,
      maxTokens: 64,
      endpoint: "C",
      outcome: o,
      verdict: judge(o, kind, weather),
    });
    const s = summarize([
      record(outcome([["get_weather", '{"city": "Paris"}']]), "required"),
      record(outcome([["get_weather", '{"city": "Pa']], { finishReason: "length" }), "required"),
      record(outcome([]), "required"),
      record(outcome([], { error: "HTTP 500: boom" }), "required"),
    ]);
    expect(s).toMatchObject({ n: 4, errors: 1, withCall: 0.5, callsValidOfWithCall: 0.5, conforming: 0.25 });
    expect(s.finishReasons).toEqual({ tool_calls: 1, length: 1, stop: 1 });
  });
});
