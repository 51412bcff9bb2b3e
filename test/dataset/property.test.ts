/**
 * Property: rows generated from valid calls pass with zero issues; each injected defect is reported with the right
 * code and location. Seeded (FC_SEED replays).
 */
import { expect, it } from "vitest";
import fc from "fast-check";
import { validateDataset } from "../../src/dataset/validateDataset.js";
import { renderToolCalls } from "../../src/parser/renderToolCalls.js";
import type { JsonObject, JsonValue } from "../../src/json.js";

const SEED = Number(process.env.FC_SEED ?? 7);
const tools = [
  {
    type: "function",
    function: {
      name: "get_weather",
      parameters: {
        type: "object",
        properties: { city: { type: "string" }, days: { type: "integer", minimum: 1, maximum: 7 } },
        required: ["city"],
      },
    },
  },
  {
    type: "function",
    function: {
      name: "search",
      parameters: {
        type: "object",
        properties: { q: { type: "string" }, tags: { type: "array", items: { type: "string" } } },
        required: ["q"],
      },
    },
  },
];
const call = fc.oneof(
  fc.record({
    name: fc.constant("get_weather"),
    arguments: fc.record(
      { city: fc.string({ minLength: 1, maxLength: 12 }), days: fc.integer({ min: 1, max: 7 }) },
      { requiredKeys: ["city"] },
    ),
  }),
  fc.record({
    name: fc.constant("search"),
    arguments: fc.record(
      { q: fc.string({ maxLength: 12 }), tags: fc.array(fc.string({ maxLength: 5 }), { maxLength: 3 }) },
      { requiredKeys: ["q"] },
    ),
  }),
) as fc.Arbitrary<{ name: string; arguments: JsonObject }>;

type Defect = "none" | "undeclared" | "wrong-type" | "dropped-response" | "drift";

function row(calls: { name: string; arguments: JsonObject }[], defect: Defect): JsonObject {
  const cs = calls.map((c) => ({ ...c, arguments: { ...c.arguments } }));
  if (defect === "undeclared") cs[0].name = "launch_rocket";
  if (defect === "wrong-type")
    cs[0].arguments =
      cs[0].name === "get_weather" ? { ...cs[0].arguments, days: "many" } : { ...cs[0].arguments, q: 42 };
  let text = renderToolCalls(cs, "qwen3");
  if (defect === "drift") text = text.replace("<tool_call>\n", "<tool_call>");
  const responses = cs.map((_, i) => `<tool_response>\n{"ok": ${i}}\n</tool_response>`);
  if (defect === "dropped-response") responses.pop();
  return {
    messages: [
      { role: "user", content: "please" },
      { role: "assistant", content: text },
      { role: "user", content: responses.join("\n") },
      { role: "assistant", content: "Done." },
    ],
    tools: tools as unknown as JsonValue,
  };
}

const EXPECT: Record<Exclude<Defect, "none">, string> = {
  undeclared: "UNDECLARED_TOOL",
  "wrong-type": "INVALID_ARGUMENTS",
  "dropped-response": "MISSING_RESPONSE",
  drift: "FORMAT_DRIFT",
};

it("valid rows pass; each injected defect is reported with its code and location", () => {
  fc.assert(
    fc.property(
      fc.array(call, { minLength: 1, maxLength: 3 }),
      fc.constantFrom<Defect>("none", "undeclared", "wrong-type", "dropped-response", "drift"),
      (calls, defect) => {
        const r = validateDataset([row(calls, defect)]);
        const codes = [...new Set(r.issues.map((i) => i.code))];
        if (defect === "none") expect(codes).toEqual([]);
        else {
          expect(codes).toEqual([EXPECT[defect]]);
          const i = r.issues[0];
          expect(i.row).toBe(1);
          expect(i.messageIndex).toBe(defect === "dropped-response" ? (calls.length > 1 ? 3 : 2) : 1);
        }
      },
    ),
    { seed: SEED, numRuns: 150 },
  );
});
