import { readFileSync } from "node:fs";
import type { JsonValue } from "../src/json.js";
export { seededRandom as prng } from "../src/util/seededRandom.js";

interface OpenAiTool {
  type: "function";
  function: {
    name: string;
    description: string;
    parameters: { type: "object"; properties: Record<string, JsonValue>; required: string[] };
  };
}

/**
 * The two weather tools the server tests, the serve benchmarks and the cluster declare: short bounded strings and an
 * enum, so a tiny model's calls are quick to generate and easy to check.
 */
export function weatherTools() {
  return [
    {
      type: "function" as const,
      function: {
        name: "get_weather",
        description: "Current weather for a city",
        parameters: {
          type: "object",
          properties: {
            city: { type: "string", maxLength: 24 },
            unit: { type: "string", enum: ["celsius", "fahrenheit"] },
          },
          required: ["city"],
        },
      },
    },
    {
      type: "function" as const,
      function: {
        name: "get_time",
        description: "Local time in a time zone",
        parameters: { type: "object", properties: { zone: { type: "string", maxLength: 32 } }, required: ["zone"] },
      },
    },
  ];
}

/** Twenty OpenAI-style tools: two weather/search tools and eighteen CRUD-like tools with free-form `options`. */
export function twentyOpenAiTools(): OpenAiTool[] {
  const tools: OpenAiTool[] = [
    {
      type: "function",
      function: {
        name: "get_weather",
        description: "Current weather",
        parameters: {
          type: "object",
          properties: {
            location: { type: "string" },
            unit: { type: "string", enum: ["celsius", "fahrenheit"] },
            days: { type: "integer" },
          },
          required: ["location"],
        },
      },
    },
    {
      type: "function",
      function: {
        name: "search_web",
        description: "Search the web",
        parameters: {
          type: "object",
          properties: { query: { type: "string" }, max_results: { type: "integer" }, safe: { type: "boolean" } },
          required: ["query"],
        },
      },
    },
  ];
  for (let i = 0; tools.length < 20; i++) {
    tools.push({
      type: "function",
      function: {
        name: `tool_${i}_${["create", "update", "delete", "list", "fetch"][i % 5]}_${["file", "issue", "user", "event"][i % 4]}`,
        description: "A generated tool",
        parameters: {
          type: "object",
          properties: {
            id: { type: "string" },
            count: { type: "number" },
            tags: { type: "array", items: { type: "string" } },
            options: { type: "object" },
            mode: { type: "string", enum: ["fast", "slow", "auto"] },
          },
          required: i % 2 === 0 ? ["id", "count"] : ["id"],
        },
      },
    });
  }
  return tools;
}

const WORDS = [
  "Paris",
  "São Paulo",
  "東京",
  "naïve café",
  "line\nbreak",
  'say "hi"',
  "back\\slash",
  "emoji 🎉 ok",
  "tab\there",
  "Zürich",
  "a b c",
  "x",
  "README.md",
  "issue #42",
  "Ελλάδα",
];

/** Realistic arguments for a tool of {@link twentyOpenAiTools}, in declared property order. */
export function sampleArguments(tool: OpenAiTool, rnd: () => number): Record<string, JsonValue> {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)];
  const str = (): string => Array.from({ length: 1 + Math.floor(rnd() * 3) }, () => pick(WORDS)).join(" ");
  const value = (depth: number): JsonValue => {
    const r = rnd();
    if (depth > 1 || r < 0.3) return str();
    if (r < 0.45) return Math.floor(rnd() * 1000) - 100;
    if (r < 0.55) return Math.round(rnd() * 10000) / 100;
    if (r < 0.6) return null;
    if (r < 0.65) return rnd() < 0.5;
    if (r < 0.8) return Array.from({ length: Math.floor(rnd() * 3) }, () => value(depth + 1));
    return Object.fromEntries(
      Array.from({ length: 1 + Math.floor(rnd() * 2) }, (_, k) => [
        `k${k}_${pick(["a", "b", "名"])}`,
        value(depth + 1),
      ]),
    );
  };
  const out: Record<string, JsonValue> = {};
  const { properties, required } = tool.function.parameters;
  for (const [k, schema] of Object.entries(properties)) {
    if (!required.includes(k) && rnd() < 0.4) continue;
    const s = schema as { type: string; enum?: string[] };
    if (s.enum) out[k] = pick(s.enum);
    else if (s.type === "string") out[k] = str();
    else if (s.type === "integer") out[k] = Math.floor(rnd() * 50);
    else if (s.type === "number") out[k] = rnd() < 0.5 ? Math.floor(rnd() * 100) : Math.round(rnd() * 1e4) / 100;
    else if (s.type === "boolean") out[k] = rnd() < 0.5;
    else if (s.type === "array") out[k] = Array.from({ length: Math.floor(rnd() * 4) }, str);
    else
      out[k] = Object.fromEntries(Array.from({ length: 1 + Math.floor(rnd() * 3) }, (_, j) => [`opt${j}`, value(0)]));
  }
  return out;
}

/** An MCP tool as `tools/list` returns it (descriptions left out of the stored copies; see bench/data/README.md). */
export interface McpTool {
  server?: string;
  name: string;
  inputSchema: JsonValue;
}

const dataDir = new URL("./data/", import.meta.url);
const readTools = (file: string): McpTool[] => JSON.parse(readFileSync(new URL(file, dataDir), "utf8")) as McpTool[];

/** The GitHub MCP server's 117 tools (bench/data/github-mcp-server.tools.json). */
export function githubMcpTools(): McpTool[] {
  return readTools("github-mcp-server.tools.json");
}

/**
 * `n` tools with unique names composed from the stored public MCP tool lists, named `server__tool` as MCP clients
 * namespace them. Servers are added as configured instances in a fixed order (GitHub for github.com and two
 * Enterprise hosts, several filesystem roots, …) until `n` tools are reached, so the set holds many tools whose
 * schemas repeat under another name, as a client with several instances of one server sees.
 */
export function composedMcpTools(n: number): McpTool[] {
  const github = githubMcpTools().map((t) => ({ ...t, server: "github" }));
  const others = readTools("mcp-servers.tools.json");
  const byServer = new Map<string, McpTool[]>([["github", github]]);
  for (const t of others) byServer.set(t.server!, [...(byServer.get(t.server!) ?? []), t]);
  const instances: [string, string][] = [
    ["github", "github"],
    ["cloudflare-radar", "radar"],
    ["filesystem", "fs_project"],
    ["memory", "memory"],
    ["puppeteer", "browser"],
    ["cloudflare-browser", "cf_browser"],
    ["github", "ghe_corp"],
    ["filesystem", "fs_home"],
    ["memory", "memory_team"],
    ["github", "ghe_lab"],
    ["filesystem", "fs_docs"],
    ["cloudflare-radar", "radar_staging"],
    ["puppeteer", "browser_2"],
    ["filesystem", "fs_data"],
    ["memory", "memory_ops"],
    ["filesystem", "fs_tmp"],
    ["cloudflare-browser", "cf_browser_2"],
    ["puppeteer", "browser_3"],
    ["memory", "memory_lab"],
    ["filesystem", "fs_archive"],
  ];
  const out: McpTool[] = [];
  for (const [server, prefix] of instances) {
    for (const t of byServer.get(server) ?? []) {
      if (out.length === n) return out;
      out.push({ server, name: `${prefix}__${t.name}`, inputSchema: t.inputSchema });
    }
  }
  if (out.length < n) throw new Error(`only ${out.length} tools can be composed, ${n} asked`);
  return out;
}
