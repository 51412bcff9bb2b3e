import { describe, expect, it } from "vitest";
import { composedMcpTools, githubMcpTools } from "../../bench/toolSets.js";
import { compileAutomaton } from "../../src/automaton/createMatcher.js";
import { compileTools } from "../../src/compile.js";
import { sampleGrammar } from "../../src/testing/sampleGrammar.js";
import { seededRandom } from "../../src/util/seededRandom.js";
import { DEFAULT_LIMITS } from "../../src/options.js";
import { qwen3 } from "../support/qwen3.js";
import { bit, tinyVocab } from "../support/tinyVocab.js";
import { checkRandomWalks } from "../support/automaton/walkCheck.js";

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
    expect(
      m.acceptString('<tool_call>\n{"name": "fs_home__read_file", "arguments": {"path": "a"}}\n</tool_call>'),
    ).toBe(true);
    expect(m.isCompleted()).toBe(true);
    const a = compileAutomaton(c.grammar, {
      specialTokens: c.specialTokens,
      maxStates: DEFAULT_LIMITS.maxAutomatonStates,
    });
    const reached = a.nfa.stateCount;
    a.buildAll();
    // one tool's call built (with the shared parts), not five hundred tools' arguments
    expect(reached * 20).toBeLessThan(a.nfa.stateCount);
  });

  it("choosing a tool's name builds names, not arguments: masks at the name exact on the Qwen3 vocabulary", () => {
    const { vocab } = qwen3();
    const c = compileTools(githubMcpTools(), policy);
    const m = c.createMatcher(vocab);
    const nfa = (m as unknown as { table: { automaton: { nfa: { stateCount: number } } } }).table.automaton.nfa;
    const bits = new Uint32Array(Math.ceil(vocab.size / 32));
    expect(m.acceptString('<tool_call>\n{"name": "')).toBe(true);
    const built: number[] = [];
    for (const part of ["", "list", "_issues"]) {
      if (part !== "") expect(m.acceptString(part)).toBe(true);
      const before = nfa.stateCount;
      m.fillNextTokenBitmask(bits);
      built.push(nfa.stateCount - before);
      for (let id = 0; id < vocab.size; id++) {
        const ok = m.acceptToken(id);
        if (ok) m.rollback(1);
        if (ok !== bit(bits, id)) expect.fail(`after "${part}", token ${id}: mask ${bit(bits, id)}, acceptToken ${ok}`);
      }
    }
    // the names' literals of the tools a token can reach (about 640 states at the name, 570 after "list"), where
    // building their arguments too made 1,507 and 2,648
    expect(built[0]).toBeLessThan(1000);
    expect(built[1]).toBeLessThan(1000);
    // reading past the name and its `", "arguments": ` builds that tool's arguments
    const before = nfa.stateCount;
    expect(m.acceptString('", "arguments": {"owner": "a", "repo": "b"}}\n</tool_call>')).toBe(true);
    expect(nfa.stateCount).toBeGreaterThan(before);
    expect(m.isCompleted()).toBe(true);
  });

  it("a number's frame built for one grammar is copied, not rebuilt, by the next: masks exact on the Qwen3 vocabulary", () => {
    const { vocab, encode } = qwen3();
    const bits = new Uint32Array(Math.ceil(vocab.size / 32));
    type Inner = {
      table: { automaton: { nfa: { stateCount: number; framesCopied: number; statesNumbered: number } } };
    };
    // one call sampled from the GitHub tools that sets "page" (`minimum: 1`: its bound spelled in about 1,000 states)
    const first = compileTools(githubMcpTools(), policy);
    const random = seededRandom(SEED);
    let text: string | undefined;
    while (text === undefined) {
      const t = sampleGrammar(first.grammar, random, { extraRepeats: 1, maxLength: 400 });
      if (t?.includes('"page": ')) text = t;
    }
    const at = text.indexOf('"page": ') + '"page": '.length;
    // the same tools but one the call does not use: another grammar, another automaton, the same number rule
    const tools = githubMcpTools();
    const drop = tools.findIndex((t) => !text.includes(`"${t.name}"`));
    const second = compileTools(
      tools.filter((_, i) => i !== drop),
      policy,
    );
    expect(second.schemaHash).not.toBe(first.schemaHash);
    const built: number[] = [];
    const numbered: number[] = [];
    for (const c of [first, second]) {
      const m = c.createMatcher(vocab);
      const nfa = (m as unknown as Inner).table.automaton.nfa;
      const key = at - '"page": '.length;
      expect(m.acceptString(text.slice(0, key))).toBe(true);
      const copied = nfa.framesCopied;
      const before = nfa.stateCount;
      const numberedBefore = nfa.statesNumbered;
      // the number's frame is built (or copied) where the automaton can first enter it
      expect(m.acceptString(text.slice(key, at))).toBe(true);
      m.fillNextTokenBitmask(bits);
      built.push(nfa.stateCount - before);
      numbered.push(nfa.statesNumbered - numberedBefore);
      if (c === second) expect(nfa.framesCopied).toBeGreaterThan(copied);
      for (let id = 0; id < vocab.size; id++) {
        const ok = m.acceptToken(id);
        if (ok) m.rollback(1);
        if (ok !== bit(bits, id))
          expect.fail(`grammar ${c === first ? 1 : 2}, token ${id}: mask ${bit(bits, id)}, acceptToken ${ok}`);
      }
      // the rest of the call, token by token, each token in its mask
      for (const id of encode(text.slice(at))) {
        m.fillNextTokenBitmask(bits);
        expect(bit(bits, id)).toBe(true);
        expect(m.acceptToken(id)).toBe(true);
      }
      expect(m.isCompleted()).toBe(true);
    }
    // the copy has the states the build made
    expect(built[1]).toBe(built[0]);
    expect(built[0]).toBeGreaterThan(500);
    // and the numbering recorded with the build: the copied frame's states are not walked again
    expect(built[1] - numbered[1]).toBeGreaterThan(500);
    // and a grammar whose frames are copied keeps mask bit ⇔ acceptToken ⇔ accepted text on random walks
    checkRandomWalks(second.grammar, tinyVocab(), { seed: SEED, numRuns: 4, maxLength: 160 });
  });
});
