/**
 * `npx tsx scripts/gather-mcp-tools.ts [name…]`: gathers the tools that public MCP servers publish, into
 * test/fixtures/mcp-servers/<name>.json = { package, version, license, tools }. Opt-in, never run by CI: it installs
 * each server from npm into a temporary folder (no global install), starts it over stdio with the official SDK's
 * client, and asks `tools/list` (every page). Keys that a server needs only when a tool is called are given dummy
 * values; nothing is called (`TOOLGRAM_MCP_DIR=<folder>` keeps the installs for a rerun). A package whose license does not allow redistribution is left out (see SERVERS).
 *
 * The tool definitions are the servers' published data, each under its package's license (recorded per file).
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const OUT = fileURLToPath(new URL("../test/fixtures/mcp-servers/", import.meta.url));

/** One server to ask: its npm package and what it needs to start (a placeholder folder is written as {dir}). */
interface ServerSpec {
  readonly name: string;
  readonly pkg: string;
  readonly version: string;
  readonly args?: readonly string[];
  readonly env?: Readonly<Record<string, string>>;
  /** The license when package.json only says "SEE LICENSE IN LICENSE" and ships no LICENSE file. */
  readonly license?: string;
}

// the reference servers' repository is MIT-licensed; their 2026 packages name a LICENSE file they do not ship
const REFERENCE_LICENSE = "MIT (modelcontextprotocol/servers)";

/**
 * The servers gathered. Left out: @sentry/mcp-server 0.39.0 (FSL-1.1, which restricts use and redistribution); servers
 * that list no tools without a live service or credentials: @modelcontextprotocol/server-redis 2025.4.25 (connects to
 * Redis first), server-gdrive 2025.1.14 (OAuth credentials first), @stripe/mcp 0.3.3 (no answer without a real key),
 * @supabase/mcp-server-supabase 0.13.0 (asks its API for the tools); and two that do not start as published:
 * @browserbasehq/mcp-server-browserbase 2.4.3 (a missing optional module), @heroku/mcp-server 1.2.8 (an SDK path).
 * Versions are pinned so that a rerun reproduces the fixtures; raise them deliberately.
 */
const SERVERS: readonly ServerSpec[] = [
  {
    name: "filesystem",
    pkg: "@modelcontextprotocol/server-filesystem",
    version: "2026.8.31",
    args: ["{dir}"],
    license: REFERENCE_LICENSE,
  },
  { name: "memory", pkg: "@modelcontextprotocol/server-memory", version: "2026.8.31", license: REFERENCE_LICENSE },
  {
    name: "everything",
    pkg: "@modelcontextprotocol/server-everything",
    version: "2026.8.31",
    args: ["stdio"],
    license: REFERENCE_LICENSE,
  },
  {
    name: "sequential-thinking",
    pkg: "@modelcontextprotocol/server-sequential-thinking",
    version: "2026.8.31",
    license: REFERENCE_LICENSE,
  },
  { name: "github", pkg: "@modelcontextprotocol/server-github", version: "2025.4.8" },
  { name: "puppeteer", pkg: "@modelcontextprotocol/server-puppeteer", version: "2025.5.12" },
  { name: "brave-search", pkg: "@modelcontextprotocol/server-brave-search", version: "0.6.2" },
  { name: "slack", pkg: "@modelcontextprotocol/server-slack", version: "2025.4.25", env: { SLACK_TEAM_ID: "T0" } },
  { name: "gitlab", pkg: "@modelcontextprotocol/server-gitlab", version: "2025.4.25" },
  { name: "google-maps", pkg: "@modelcontextprotocol/server-google-maps", version: "0.6.2" },
  {
    name: "postgres",
    pkg: "@modelcontextprotocol/server-postgres",
    version: "0.6.2",
    args: ["postgresql://localhost/none"],
  },
  { name: "aws-kb", pkg: "@modelcontextprotocol/server-aws-kb-retrieval", version: "0.6.2" },
  { name: "everart", pkg: "@modelcontextprotocol/server-everart", version: "0.6.2" },
  // every optional capability, so the largest tool list the server publishes
  { name: "playwright", pkg: "@playwright/mcp", version: "0.0.83", args: ["--caps=vision,pdf,testing,tracing"] },
  { name: "chrome-devtools", pkg: "chrome-devtools-mcp", version: "1.11.0" },
  { name: "desktop-commander", pkg: "@wonderwhy-er/desktop-commander", version: "0.2.52" },
  { name: "executeautomation-playwright", pkg: "@executeautomation/playwright-mcp-server", version: "1.0.12" },
  { name: "notion", pkg: "@notionhq/notion-mcp-server", version: "2.5.2" },
  { name: "context7", pkg: "@upstash/context7-mcp", version: "4.1.1" },
  { name: "firecrawl", pkg: "firecrawl-mcp", version: "3.26.0" },
  { name: "kubernetes", pkg: "mcp-server-kubernetes", version: "4.1.7" },
  { name: "tavily", pkg: "tavily-mcp", version: "0.2.22" },
  { name: "exa", pkg: "exa-mcp-server", version: "3.4.1", license: "MIT (LICENSE file)" },
];

// placeholders for keys read at start-up but used only when a tool is called
const DUMMY_ENV: Record<string, string> = {
  GITHUB_PERSONAL_ACCESS_TOKEN: "dummy",
  BRAVE_API_KEY: "dummy",
  SLACK_BOT_TOKEN: "xoxb-dummy",
  GITLAB_PERSONAL_ACCESS_TOKEN: "dummy",
  GOOGLE_MAPS_API_KEY: "dummy",
  EVERART_API_KEY: "dummy",
  NOTION_TOKEN: "dummy",
  FIRECRAWL_API_KEY: "fc-dummy",
  BROWSERBASE_API_KEY: "dummy",
  BROWSERBASE_PROJECT_ID: "dummy",
  GEMINI_API_KEY: "dummy",
  TAVILY_API_KEY: "dummy",
  EXA_API_KEY: "dummy",
  HEROKU_API_KEY: "dummy",
  AWS_ACCESS_KEY_ID: "dummy",
  AWS_SECRET_ACCESS_KEY: "dummy",
  AWS_REGION: "us-east-1",
  SUPABASE_ACCESS_TOKEN: "dummy",
  PUPPETEER_SKIP_DOWNLOAD: "1",
  PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: "1",
};

interface PackageJson {
  version: string;
  license?: string;
  bin?: string | Record<string, string>;
}

/** Installs the package into its own folder and returns its package.json and the path of its entry script. */
function install(root: string, s: ServerSpec): { pj: PackageJson; bin: string } {
  const prefix = join(root, s.name);
  mkdirSync(prefix, { recursive: true });
  const flags = ["--ignore-scripts", "--no-audit", "--no-fund", "--omit=optional"];
  execFileSync("npm", ["install", "--prefix", prefix, `${s.pkg}@${s.version}`, ...flags], {
    stdio: "ignore",
    env: { ...process.env, ...DUMMY_ENV },
  });
  const dir = join(prefix, "node_modules", s.pkg);
  const pj = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as PackageJson;
  const bin = typeof pj.bin === "string" ? pj.bin : Object.values(pj.bin ?? {})[0];
  if (bin === undefined) throw new Error(`${s.pkg} has no bin`);
  return { pj, bin: join(dir, bin) };
}

/**
 * The result as the server sent it: the SDK's own result schema refuses a whole list over one tool whose
 * `inputSchema` lacks `type: "object"`, and such tools are published (gitlab) and are what toolgram must read.
 */
const AS_PUBLISHED = {
  safeParse: (data: unknown) => ({ success: true as const, data: data as { tools: unknown[]; nextCursor?: string } }),
} as unknown as Parameters<Client["request"]>[1] & { _output: { tools: unknown[]; nextCursor?: string } };

/** Starts the server over stdio and lists every page of its tools. */
async function listTools(bin: string, s: ServerSpec, scratch: string): Promise<unknown[]> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [bin, ...(s.args ?? []).map((a) => a.replace("{dir}", scratch))],
    env: { ...(process.env as Record<string, string>), ...DUMMY_ENV, ...s.env },
    cwd: scratch,
    stderr: "ignore",
  });
  const client = new Client({ name: "toolgram-gather", version: "1.0.0" });
  await client.connect(transport, { timeout: 60_000 });
  try {
    const tools: unknown[] = [];
    let cursor: string | undefined;
    do {
      const params = cursor === undefined ? {} : { cursor };
      const page = await client.request({ method: "tools/list", params }, AS_PUBLISHED, { timeout: 60_000 });
      tools.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    return tools;
  } finally {
    await client.close();
  }
}

async function main(): Promise<void> {
  const only = new Set(process.argv.slice(2));
  // TOOLGRAM_MCP_DIR keeps the installs between runs
  const root = process.env.TOOLGRAM_MCP_DIR ?? mkdtempSync(join(tmpdir(), "toolgram-mcp-"));
  mkdirSync(OUT, { recursive: true });
  for (const s of SERVERS) {
    if (only.size > 0 && !only.has(s.name)) continue;
    try {
      const { pj, bin } = install(root, s);
      const scratch = mkdtempSync(join(root, `${s.name}-cwd-`));
      const tools = await listTools(bin, s, scratch);
      const license = s.license ?? pj.license ?? "unknown";
      const out = { package: s.pkg, version: pj.version, license, tools };
      writeFileSync(join(OUT, `${s.name}.json`), `${JSON.stringify(out, null, 2)}\n`);
      console.log(`${s.name}: ${s.pkg}@${pj.version} (${license}), ${tools.length} tools`);
    } catch (e) {
      console.error(`${s.name}: ${(e as Error).message}`);
    }
  }
}

await main();
