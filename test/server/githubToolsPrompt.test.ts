import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { JsonValue } from "../../src/json.js";
import { serverChatFor } from "../../src/server/serverChat.js";
import { llamaCppSource } from "../../src/testing/llamaCppSource.js";

/** The GitHub MCP server's 117 tools as a client sends them: no tool has a description. */
async function githubTools(): Promise<JsonValue[]> {
  const text = await readFile(new URL("../../bench/data/github-mcp-server.tools.json", import.meta.url), "utf8");
  const tools = JSON.parse(text) as Array<{ name: string; inputSchema: JsonValue }>;
  return tools.map((t) => ({ type: "function", function: { name: t.name, parameters: t.inputSchema } }));
}

describe("a template renders tools without descriptions, as llama-server does", () => {
  it('gpt-oss\'s template writes the 117 GitHub MCP tools (its `"// " + tool.description`)', async () => {
    const source = await llamaCppSource();
    if (source === undefined) return;
    const template = await readFile(join(source.dir, "models", "templates", "openai-gpt-oss-120b.jinja"), "utf8");
    const chat = serverChatFor(template, { bosToken: "<|startoftext|>", eosToken: "<|return|>" });
    const tools = await githubTools();
    expect(tools).toHaveLength(117);
    const prompt = chat.render([{ role: "user", content: "List my issues" }], { tools });
    // each tool is declared, an absent description written as an empty comment
    expect(prompt.match(/^type \w+ = /gm)).toHaveLength(117);
    expect(prompt).toContain("// \ntype actions_get = ");
  });
});
