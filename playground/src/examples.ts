import weather from "../../examples/weather.tools.json" with { type: "json" };
import mcpFilesystem from "../../examples/mcp-filesystem.tools.json" with { type: "json" };
import anthropic from "../examples/anthropic.tools.json" with { type: "json" };
import mcp100 from "../examples/mcp-100.tools.json" with { type: "json" };

/** Tool sets to start from (see playground/examples/README.md for where each comes from). */
export const EXAMPLES: { id: string; label: string; tools: unknown; output: string }[] = [
  {
    id: "weather",
    label: "Weather (OpenAI)",
    tools: weather,
    output: '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris", "unit": "celsius"}}\n</tool_call>',
  },
  {
    id: "mcp-filesystem",
    label: "Filesystem (MCP)",
    tools: mcpFilesystem,
    output: '<tool_call>\n{"name": "read_file", "arguments": {"path": "README.md", "head": 20}}\n</tool_call>',
  },
  {
    id: "anthropic",
    label: "Calendar (Anthropic)",
    tools: anthropic,
    output: 'Let me check.<tool_call>\n{"name": "list_events", "arguments": {"date": "2026-03-14"}}\n</tool_call>',
  },
  {
    id: "mcp-100",
    label: "100 MCP tools (14 servers)",
    tools: mcp100,
    output: '<tool_call>\n{"name": "git_log", "arguments": {"repo_path": "/src/app", "max_count": 5}}\n</tool_call>',
  },
];
