/**
 * Families known by the instruction their chat template's system prompt gives (test/fixtures/template-instructions,
 * with provenance): the format their name aliases writes a call exactly as the instruction's example, its
 * placeholders filled with the call's JSON name and arguments, and reads it back.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { describeFormat } from "../../src/formats/describeFormat.js";
import { parseToolCalls } from "../../src/parser/parseToolCalls.js";
import { renderToolCalls } from "../../src/parser/renderToolCalls.js";
import type { JsonObject } from "../../src/json.js";

interface Case {
  format: string;
  instruction: string;
  modelCardServe: string;
  call: { name: string; arguments: JsonObject };
}

const fixture = JSON.parse(
  readFileSync(new URL("../fixtures/template-instructions/smollm3.json", import.meta.url), "utf8"),
) as { cases: Case[] };

describe("a family's own tool-call instruction", () => {
  for (const c of fixture.cases) {
    it(`${c.format}: the instruction's example layout is the format's canonical call`, () => {
      const example = c.instruction.slice(c.instruction.lastIndexOf("<tool_call>\n"));
      const filled = example
        .replace("<function-name>", JSON.stringify(c.call.name))
        .replace("<args-json-object>", JSON.stringify(c.call.arguments).replace(/":/g, '": '));
      expect(renderToolCalls([c.call], c.format)).toBe(filled);
      const r = parseToolCalls(filled, { format: c.format, mode: "strict" });
      expect(r.issues).toEqual([]);
      expect(r.calls.map((x) => ({ name: x.name, arguments: x.arguments }))).toEqual([c.call]);
    });

    it(`${c.format}: the alias names the format of the vLLM parser the model card serves it with`, () => {
      const parser = /--tool-call-parser[= ](\S+)/.exec(c.modelCardServe)?.[1];
      expect(parser).toBeDefined();
      expect(describeFormat(c.format).name).toBe(describeFormat(parser as string).name);
    });
  }
});
