/**
 * Real model outputs from vLLM's tool-parser tests (test/fixtures/vllm-tool-parsers, with provenance) parse, in
 * tolerant mode, into exactly the calls those tests expect, for the formats toolgram shares with those parsers (and,
 * for a reasoning parser's test, into its reasoning and text).
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { describeFormat } from "../../src/formats/describeFormat.js";
import { parseToolCalls } from "../../src/parser/parseToolCalls.js";

interface Case {
  format: string;
  path: string;
  commit: string;
  id: string;
  text: string;
  calls: { name: string; arguments: Record<string, unknown> }[];
  /** The text left over, where vLLM's test states it (its `other_content`). */
  content?: string;
  /** The reasoning, where a reasoning parser's test states it (its None, an empty block, is ""). */
  reasoning?: string;
  /** The reasoning options the case is read with (the format's own block, or the markers vLLM's parser also takes). */
  options?: { reasoning: "optional" | "required"; reasoningMarkers?: { open: string; close: string } };
}

const fixture = JSON.parse(
  readFileSync(new URL("../fixtures/vllm-tool-parsers/cases.json", import.meta.url), "utf8"),
) as { cases: Case[] };

describe("vLLM's tool-parser test outputs parse into their expected calls", () => {
  for (const c of fixture.cases) {
    it(`${c.format}: ${c.path.split("/").pop()} ${c.id}`, () => {
      expect(() => describeFormat(c.format)).not.toThrow();
      const r = parseToolCalls(c.text, { format: c.format, mode: "tolerant", ...c.options });
      expect(r.calls.map((x) => ({ name: x.name, arguments: x.arguments }))).toEqual(c.calls);
      if (c.content !== undefined) expect(r.content).toBe(c.content);
      if (c.reasoning !== undefined) expect(r.reasoning).toBe(c.reasoning);
    });
  }
});
