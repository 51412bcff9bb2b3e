import { describe, expect, it } from "vitest";
import { composedMcpTools, githubMcpTools } from "../../bench/toolSets.js";
import { compileAutomaton } from "../../src/automaton/createMatcher.js";
import { compileTools } from "../../src/compile.js";
import { DEFAULT_LIMITS } from "../../src/options.js";
import { tinyVocab } from "./tinyVocab.js";
import { checkRandomWalks } from "./walkCheck.js";

/**
 * Large tool sets get a lazily built automaton: the tools' alternatives are a trie of their first literals and each
 * tool's rest is a frame built when a decoding first reaches it. The contract is unchanged (mask bit ⇔ acceptToken
 * ⇔ the reference acceptor), checked here on the GitHub MCP server's 117 tools and on 500 composed MCP tools; the
 * work is counted in NFA states, never in time. lazyToolSets.long.test.ts walks the 500-tool set and the Qwen3
 * vocabulary (long tier).
 */
const SEED = Number(process.env.TOOLGRAM_SEED ?? 20261122);
const policy = { format: "qwen3", toolChoice: "required", parallel: false, limits: { maxCompileMs: 600_000 } } as const;

describe("lazy automata for large tool sets", () => {
  it("117 GitHub MCP tools: random walks keep mask bit ⇔ acceptToken ⇔ accepted text (seed printed on failure)", () => {
    const c = compileTools(githubMcpTools(), policy);
    checkRandomWalks(c.grammar, tinyVocab(), { seed: SEED, numRuns: 6, maxLength: 160 });
  });

  it("500 MCP tools get a matcher with the default limits, and the first masks build a small part of it", () => {
    const c = compileTools(composedMcpTools(500), policy);
    const vocab = tinyVocab();
    const m = c.createMatcher(vocab);
    const bits = new Uint32Array(Math.ceil(vocab.size / 32));
    m.fillNextTokenBitmask(bits);
    expect(m.acceptString('<tool_call>\n{"name": "fs_home__read_file", "arguments": {"path": "a"}}\n</tool_call>')).toBe(true);
    expect(m.isCompleted()).toBe(true);
    const a = compileAutomaton(c.grammar, { specialTokens: c.specialTokens, maxStates: DEFAULT_LIMITS.maxAutomatonStates });
    const reached = a.nfa.stateCount;
    a.buildAll();
    // one tool's call built (with the shared parts), not five hundred tools' arguments
    expect(reached * 20).toBeLessThan(a.nfa.stateCount);
  });

});
