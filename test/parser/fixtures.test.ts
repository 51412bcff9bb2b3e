import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseToolCalls } from "../../src/parser/parseToolCalls.js";
import { ToolCallStream } from "../../src/parser/ToolCallStream.js";
import type { FormatName } from "../../src/formats/FormatName.js";
import type { ParseMode } from "../../src/parser/types.js";
import { TOOLS } from "../support/parser/tools.js";

interface Fixture {
  description: string;
  input: string;
  mode?: ParseMode;
  expected: {
    content: string;
    calls: Array<{ name: string; arguments: unknown; valid: boolean; id?: string }>;
    issues: string[];
    dropped: number;
  };
}

const root = new URL("../fixtures/outputs/", import.meta.url);
const formats = readdirSync(root, { withFileTypes: true })
  .filter((e) => e.isDirectory())
  .map((e) => e.name);

describe("output fixtures", () => {
  it("cover every format", () =>
    expect(formats.sort()).toEqual(["glaive", "llama3-json", "mistral", "pythonic", "qwen3", "tools-array"]));
  for (const format of formats) {
    for (const file of readdirSync(new URL(`${format}/`, root)).filter((f) => f.endsWith(".json"))) {
      const fx = JSON.parse(readFileSync(new URL(`${format}/${file}`, root), "utf8")) as Fixture;
      it(`${format}/${file}: ${fx.description}`, () => {
        const opts = { tools: TOOLS, format: format as FormatName, mode: fx.mode ?? "tolerant" };
        const r = parseToolCalls(fx.input, opts);
        expect({
          content: r.content,
          calls: r.calls.map((c) => ({
            name: c.name,
            arguments: c.arguments,
            valid: c.valid,
            ...(c.id !== undefined ? { id: c.id } : {}),
          })),
          issues: r.issues.map((i) => i.code),
          dropped: r.dropped,
        }).toEqual(fx.expected);
        for (const c of r.calls) expect(fx.input.slice(...c.span)).toBe(c.raw);
        const s = new ToolCallStream(opts);
        for (const ch of fx.input) s.push(ch);
        expect(s.end()).toEqual(r);
      });
    }
  }
});
