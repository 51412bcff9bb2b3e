import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { JsonObject } from "../../src/json.js";
import { renderToolCalls } from "../../src/parser/renderToolCalls.js";
import { serverChatFor } from "../../src/server/serverChat.js";
import { TurnAssembler } from "../../src/server/TurnAssembler.js";
import { llamaCppSource } from "../../src/testing/llamaCppSource.js";
import { everyFormatCases } from "../support/server/everyFormatCases.js";
import { TOOLS } from "../support/server/serverHarness.js";
import { withFormatIds } from "../support/envelope/formatTools.js";

const source = await llamaCppSource();

/** Formats whose template refuses the second turn for reasons of its own (see the every-format e2e test). */
const REFUSED = new Set(["command-r-plus", "functionary-v3.1"]);

const tools = TOOLS as unknown as JsonObject[];
const user = { role: "user" as const, content: "What is the weather in Paris?" };

/**
 * Every format read from a llama.cpp template: a canonical turn with a reasoning block where the format has one (the
 * part templates drop from history) and a call, spliced back after a tool result. The second prompt must be the first
 * prompt, the turn's bytes, then exactly what the template itself writes after the turn (its tool result, which some
 * templates write by the call's id or name) — no model needed.
 */
describe.skipIf(source === undefined)("a replayed turn is spliced after the prompt it was generated from", () => {
  const cases = source === undefined ? [] : everyFormatCases(source.dir).filter((c) => !REFUSED.has(c.format));
  it.each(cases)("$format ($template)", (c) => {
    const template = readFileSync(join(source!.dir, "models", "templates", c.template), "utf8");
    const chat = serverChatFor(template);
    const first = chat.render([user], { tools });
    const thinks = chat.reasoning !== "none";
    const markers = chat.reasoningMarkers;
    // with the id the format's grammar requires, where its unit names an id form (Mistral's)
    let text = renderToolCalls(
      withFormatIds([{ name: "get_weather", arguments: { city: "Paris" } }], chat.format),
      chat.format,
      {
        ...(thinks ? { reasoning: "Let me see." } : {}),
        ...(thinks && markers !== undefined ? { reasoningMarkers: markers } : {}),
      },
    );
    // a generation prompt that opens the block: the model writes from inside it
    if (markers !== undefined && markers.open !== "" && first.endsWith(markers.open) && text.startsWith(markers.open))
      text = text.slice(markers.open.length);
    const assembler = new TurnAssembler({
      format: chat.format,
      tools,
      stop: [],
      turn: { reasoning: chat.reasoning, ...(markers === undefined ? {} : { reasoningMarkers: markers }) },
    });
    assembler.push(text);
    assembler.end();
    const turn = assembler.turn;
    expect(turn.calls).toHaveLength(1);
    const message = {
      role: "assistant" as const,
      content: turn.content === "" ? null : turn.content,
      tool_calls: turn.calls.map((k) => ({
        id: k.id,
        type: "function" as const,
        function: { name: k.name, arguments: k.arguments },
      })),
    };
    const result = { role: "tool" as const, tool_call_id: turn.calls[0].id, content: '{"temperature": 21}' };
    const second = chat.render([user, { role: "assistant", verbatim: turn.text, message }, result], { tools });
    const own = chat.render([user, message, result], { tools });
    expect(second.startsWith(first + turn.text), second.slice(first.length, first.length + 400)).toBe(true);
    expect(own.endsWith(second.slice(first.length + turn.text.length))).toBe(true);
  });
});
