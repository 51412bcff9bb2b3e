import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { UsageError, type CliIO } from "../../src/cli/CliIO.js";
import { parseCommand } from "../../src/cli/commands/parse.js";
import { pascalCase, typesCommand } from "../../src/cli/commands/types.js";
import { renderToolCalls } from "../../src/parser/renderToolCalls.js";

const TOOLS_FILE = fileURLToPath(new URL("../fixtures/outputs/tools.json", import.meta.url));

function fakeIO(stdin: string): CliIO & { out: string; err: string } {
  const io = {
    out: "",
    err: "",
    stdout: (t: string) => void (io.out += t),
    stderr: (t: string) => void (io.err += t),
    readText: async (path: string) => (path === "-" ? stdin : readFileSync(path, "utf8")),
  };
  return io;
}

const clean =
  "Sure.\n" +
  renderToolCalls([
    { name: "get_weather", arguments: { city: "Paris" } },
    { name: "search", arguments: { query: "q", limit: 2 } },
  ]);

describe("toolgram parse", () => {
  it("prints the calls as JSON and exits 0 when all are valid", async () => {
    const io = fakeIO(clean);
    expect(await parseCommand(["--tools", TOOLS_FILE], io)).toBe(0);
    const calls = JSON.parse(io.out) as { name: string; arguments: unknown; valid: boolean }[];
    expect(calls.map((c) => [c.name, c.arguments, c.valid])).toEqual([
      ["get_weather", { city: "Paris" }, true],
      ["search", { query: "q", limit: 2 }, true],
    ]);
    expect(io.err).toBe("");
  });

  it("reports issues one per line on stderr and exits 1 for an invalid or dropped call", async () => {
    const invalid = renderToolCalls([{ name: "search", arguments: { query: "q", extra: 1 } }]);
    const io = fakeIO(invalid);
    expect(await parseCommand(["--tools", TOOLS_FILE], io)).toBe(1);
    expect(io.err.trim().split("\n")).toEqual([expect.stringMatching(/^INVALID_ARGUMENTS \[0,\d+\) call 0: /)]);

    const drifted = "<tool_call>\n{'name': 'search', 'arguments': {'query': 'q'}}\n</tool_call>";
    const tolerant = fakeIO(drifted);
    expect(await parseCommand(["--tools", TOOLS_FILE], tolerant)).toBe(0);
    expect(tolerant.err).toMatch(/^SINGLE_QUOTES /m);
    const strict = fakeIO(drifted);
    expect(await parseCommand(["--tools", TOOLS_FILE, "--mode", "strict"], strict)).toBe(1);
    expect(JSON.parse(strict.out)).toEqual([]);
    expect(strict.err).toMatch(/^NONCANONICAL \[0,/m);
  });

  it("UNDECLARED_ARGUMENT unless --additional-properties spec", async () => {
    const tools = JSON.stringify([
      { name: "t", parameters: { type: "object", properties: { a: { type: "integer" } } } },
    ]);
    const dir = mkdtempSync(join(tmpdir(), "toolgram-cli-"));
    try {
      const file = join(dir, "tools.json");
      writeFileSync(file, tools);
      const text = renderToolCalls([{ name: "t", arguments: { a: 1, b: 2 } }]);
      const forbid = fakeIO(text);
      expect(await parseCommand(["--tools", file], forbid)).toBe(1);
      expect(forbid.err).toMatch(/^UNDECLARED_ARGUMENT .*"b"/);
      const spec = fakeIO(text);
      expect(await parseCommand(["--tools", file, "--additional-properties", "spec"], spec)).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("--stream prints events as JSON lines, ending with the same calls", async () => {
    const io = fakeIO(clean);
    expect(await parseCommand(["--tools", TOOLS_FILE, "--stream", "-"], io)).toBe(0);
    const events = io.out
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { type: string; name?: string; call?: { name: string } | null });
    expect(events.filter((e) => e.type === "call_name").map((e) => e.name)).toEqual(["get_weather", "search"]);
    expect(events.filter((e) => e.type === "call_end").map((e) => e.call?.name)).toEqual(["get_weather", "search"]);
  });

  it("reads other formats", async () => {
    const io = fakeIO(renderToolCalls([{ name: "get_weather", arguments: { city: "Oslo" } }], "mistral"));
    expect(await parseCommand(["--tools", TOOLS_FILE, "--format", "mistral"], io)).toBe(0);
    expect((JSON.parse(io.out) as { name: string }[]).map((c) => c.name)).toEqual(["get_weather"]);
  });

  it("rejects bad usage", async () => {
    await expect(parseCommand([], fakeIO(""))).rejects.toThrow(UsageError);
    await expect(parseCommand(["--tools", TOOLS_FILE, "--mode", "lax"], fakeIO(""))).rejects.toThrow(/--mode/);
    await expect(parseCommand(["--tools", TOOLS_FILE, "--format", "xml"], fakeIO(""))).rejects.toThrow(/--format/);
  });
});

describe("toolgram types", () => {
  it("names interfaces in PascalCase", () => {
    expect(["get_weather", "search", "getWeather", "web-search.v2", "3d"].map(pascalCase)).toEqual([
      "GetWeather",
      "Search",
      "GetWeather",
      "WebSearchV2",
      "T3d",
    ]);
  });

  it("writes an interface per tool and the ToolCall union", async () => {
    const io = fakeIO("");
    expect(await typesCommand([TOOLS_FILE], io)).toBe(0);
    expect(io.out).toMatch(
      /export interface GetWeatherArgs \{\s*city: string\s*unit\?: \("celsius" \| "fahrenheit"\)\s*\}/,
    );
    expect(io.out).toContain('| { name: "get_weather"; arguments: GetWeatherArgs }');
    expect(io.out).toContain('| { name: "search"; arguments: SearchArgs }');
    // a tool whose object declares no properties takes any keys, as in the grammar
    expect(io.out).toMatch(/export interface FArgs \{\s*\[k: string\]: unknown/);
  });

  it("the declarations in test/parser/types are current: npm run typecheck compiles their use (tsc itself: cliTypes.long.test.ts)", async () => {
    const io = fakeIO("");
    expect(await typesCommand([TOOLS_FILE], io)).toBe(0);
    const committed = readFileSync(fileURLToPath(new URL("./types/tools.ts", import.meta.url)), "utf8");
    expect(
      committed,
      "run: npx tsx src/cli/main.ts types test/fixtures/outputs/tools.json -o test/parser/types/tools.ts",
    ).toBe(io.out);
  });
});
