import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canonicalJson } from "../../src/json.js";
import { parseLenientJson } from "../../src/parser/lenientJson.js";
import { parsePythonCall, pythonLiteral } from "../../src/parser/pythonCall.js";
import { parseToolCalls } from "../../src/parser/parseToolCalls.js";
import { SEED, argsObject, jsonValue } from "../support/parser/arbitraries.js";

describe("parseLenientJson", () => {
  it("reads standard JSON exactly, with no repairs", () => {
    fc.assert(
      fc.property(jsonValue, fc.boolean(), (v, pretty) => {
        const text = pretty ? JSON.stringify(v, null, 2) : canonicalJson(v);
        const r = parseLenientJson(text);
        expect(r).toEqual({ ok: true, value: v, end: text.length, repairs: [] });
      }),
      { seed: SEED, numRuns: 300 },
    );
  });
  it("agrees with JSON.parse on whether a text is JSON, when it reports no repairs", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 20 }), (t) => {
        const r = parseLenientJson(t);
        let std: unknown;
        let ok = true;
        try {
          std = JSON.parse(t);
        } catch {
          ok = false;
        }
        if (r.ok && r.repairs.length === 0 && t.slice(r.end).trim() === "") {
          expect(ok).toBe(true);
          expect(r.value).toEqual(std);
        }
        if (ok) expect(r.ok).toBe(true);
      }),
      { seed: SEED, numRuns: 1000 },
    );
  });
  it("reports truncation distinctly", () => {
    for (const t of ['{"a": ', '{"a": "x', "[1, 2", '{"a": tr', "{"]) {
      const r = parseLenientJson(t);
      expect(r.ok ? "ok" : r.code, t).toBe("TRUNCATED");
    }
    const bad = parseLenientJson('{"a" 1}');
    expect(bad.ok ? "ok" : bad.code).toBe("INVALID_JSON");
  });
  it("keeps __proto__ an ordinary key", () => {
    const r = parseToolCalls('<tool_call>\n{"name": "f", "arguments": {"__proto__": {"polluted": 1}}}\n</tool_call>');
    expect(Object.keys(r.calls[0].arguments)).toEqual(["__proto__"]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe("parsePythonCall", () => {
  it("reads the canonical Python spelling of any arguments", () => {
    fc.assert(
      fc.property(argsObject, (args) => {
        const text =
          "f(" +
          Object.entries(args)
            .map(([k, v]) => `${k}=${pythonLiteral(v)}`)
            .join(", ") +
          ")";
        const r = parsePythonCall(text);
        expect(r).toEqual({ ok: true, name: "f", arguments: args, repairs: [] });
      }),
      { seed: SEED, numRuns: 300 },
    );
  });
});
