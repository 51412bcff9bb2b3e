import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { JsonObject } from "../../src/json.js";
import { normalizeTools } from "../../src/tools/normalizeTools.js";
import { twentyOpenAiTools } from "../toolSets.js";

/** An OpenAI-style tool as every endpoint receives it. */
export interface ChatTool {
  type: "function";
  function: { name: string; description?: string; parameters: JsonObject };
}

/** One tool set of the comparison: its tools, the user's request, and the tool a named `tool_choice` asks for. */
export interface ServeToolSet {
  readonly name: string;
  readonly tools: ChatTool[];
  readonly prompt: string;
  readonly named: string;
}

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

/**
 * Every set goes through `normalizeTools` first, so that all three endpoints get the same standard JSON Schema (the
 * GitHub server's `"type": "Number"` would otherwise be refused by one and guessed at by another).
 */
function asChatTools(input: unknown): ChatTool[] {
  return normalizeTools(input, [], { maxTools: Number.POSITIVE_INFINITY }).map((t) => ({
    type: "function",
    function: {
      name: t.name,
      ...(t.description === undefined ? {} : { description: t.description }),
      parameters: t.parameters,
    },
  }));
}

/** The weather tools of examples/, the bench's twenty tools, and the GitHub MCP server's 117 tools (bench/data). */
export function serveToolSets(): ServeToolSet[] {
  const read = (path: string): unknown => JSON.parse(readFileSync(join(root, path), "utf8"));
  return [
    {
      name: "weather (examples)",
      tools: asChatTools(read("examples/weather.tools.json")),
      prompt: "What is the weather in Paris, and the forecast for Tokyo?",
      named: "get_weather",
    },
    {
      name: "20 tools",
      tools: asChatTools(twentyOpenAiTools()),
      prompt: "Search the web for the weather in Lyon, then create a file with the answer.",
      named: "search_web",
    },
    {
      name: "GitHub MCP (117)",
      tools: asChatTools(read("bench/data/github-mcp-server.tools.json")),
      prompt: "List the open issues of octocat/hello-world and comment on the newest one.",
      named: "list_issues",
    },
  ];
}
