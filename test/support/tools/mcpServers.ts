import { readdirSync, readFileSync } from "node:fs";
import { expect } from "vitest";
import type { CompiledGrammar } from "../../../src/CompiledGrammar.js";
import { checkRandomWalks } from "../automaton/walkCheck.js";
import { makeAjv } from "../schema/schemaHarness.js";
import { bit, tinyVocab } from "../tinyVocab.js";
import { greedyTokenize } from "../differential.js";
import { sampleGrammar } from "../../../src/testing/sampleGrammar.js";
import { seededRandom } from "../../../src/util/seededRandom.js";

/** An MCP tool as a server publishes it in `tools/list`. */
export interface McpTool {
  name: string;
  description?: string;
  inputSchema: Record<string, unknown>;
}

/** One fixture of test/fixtures/mcp-servers (written by scripts/gather-mcp-tools.ts). */
export interface McpServer {
  name: string;
  package: string;
  version: string;
  license: string;
  tools: McpTool[];
}

const DIR = new URL("../../fixtures/mcp-servers/", import.meta.url);

/** Every gathered server, by file name. */
export function mcpServers(): McpServer[] {
  return readdirSync(DIR)
    .filter((f) => f.endsWith(".json"))
    .sort()
    .map((f) => ({ name: f.slice(0, -5), ...JSON.parse(readFileSync(new URL(f, DIR), "utf8")) }));
}

/** All servers' tools as one set, each name prefixed with its server's (as MCP hosts do, so that names stay unique). */
export function mcpUnion(servers: readonly McpServer[]): McpTool[] {
  return servers.flatMap((s) => s.tools.map((t) => ({ ...t, name: `${s.name}__${t.name}` })));
}

export const SEED = Number(process.env.TOOLGRAM_SEED ?? 20261128);

// a raised clock budget so that a verdict is the step budget's, never the machine's speed
export const policy = {
  format: "qwen3",
  toolChoice: "required",
  parallel: false,
  limits: { maxCompileMs: 600_000 },
} as const;

/**
 * Seeded random walks of the grammar (sampleGrammar), each followed token by token under the matcher's masks (every
 * token allowed by its mask, the end reached with EOS); each walk is a call whose arguments ajv validates against the
 * tool's published `inputSchema`. Then `numRuns` free random walks of the masks themselves (mask bit ⇔ acceptToken ⇔
 * the reference acceptor, walkCheck.ts). Returns how many calls were checked.
 */
export function walkCalls(c: CompiledGrammar, tools: readonly McpTool[], numRuns: number, maxLength: number): number {
  const ajv = makeAjv();
  const vocab = tinyVocab();
  const byName = new Map(tools.map((t) => [t.name, t]));
  const rnd = seededRandom(SEED);
  const bits = new Uint32Array(Math.ceil(vocab.size / 32));
  let checked = 0;
  for (let i = 0; i < numRuns; i++) {
    const text = sampleGrammar(c.grammar, rnd, { extraRepeats: 1, maxLength: 800 });
    if (text === undefined) continue;
    const m = c.createMatcher(vocab);
    for (const id of [...greedyTokenize(vocab, text, true), vocab.eosTokenIds[0]]) {
      m.fillNextTokenBitmask(bits);
      expect(bit(bits, id), `token ${id} of ${JSON.stringify(text)} (seed ${SEED})`).toBe(true);
      expect(m.acceptToken(id)).toBe(true);
    }
    const call = JSON.parse(text.slice(text.indexOf("{"), text.lastIndexOf("}") + 1)) as {
      name: string;
      arguments: unknown;
    };
    const tool = byName.get(call.name);
    expect(tool, call.name).toBeDefined();
    // the draft a server names (often draft-07) is read as 2020-12, as toolgram reads it
    const { $schema: _, ...schema } = (tool as McpTool).inputSchema;
    const validate = ajv.compile(schema);
    expect(validate(call.arguments), `${call.name}: ${JSON.stringify(validate.errors)} (seed ${SEED})`).toBe(true);
    checked++;
  }
  checkRandomWalks(c.grammar, vocab, { seed: SEED, numRuns, maxLength });
  return checked;
}
