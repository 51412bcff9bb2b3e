import { describe, expect, it } from "vitest";
import { githubMcpTools, twentyOpenAiTools } from "../../bench/toolSets.js";
import { classesSequencedCount } from "../../src/automaton/thompsonStep.js";
import type { MaskTable } from "../../src/automaton/MaskTable.js";
import type { TokenMatcher } from "../../src/automaton/TokenMatcher.js";
import { compileSchema, compileTools } from "../../src/compile.js";
import { toolFragments } from "../../src/ToolFragmentCache.js";
import { qwen3 } from "../support/qwen3.js";
import { bit } from "../support/tinyVocab.js";

/**
 * A tool set small enough to be built whole (the 20-tool set: about 2,750 NFA states) is deferred: its first mask
 * builds the envelope and the trie of the tools' names (about 125 states), and the first frame a decoding enters after
 * it (a tool's name chosen) builds every frame left, in that one step, rather than a tool's part in the first steps
 * of each tool's first call (which doubled the tool-call mask p99 when rule frames were lazy in every grammar). The
 * work is counted in NFA states built, never in time; masks are checked bit for bit against acceptToken over the whole
 * Qwen3 vocabulary where the NFA is partly built and where it was just completed.
 */
type Inner = { table: MaskTable };
const tableOf = (m: TokenMatcher): MaskTable => (m as unknown as Inner).table;

function exactMask(m: TokenMatcher, size: number, bits: Uint32Array, where: string): void {
  m.fillNextTokenBitmask(bits);
  for (let id = 0; id < size; id++) {
    const ok = m.acceptToken(id);
    if (ok) m.rollback(1);
    if (ok !== bit(bits, id)) expect.fail(`${where}, token ${id}: mask ${bit(bits, id)}, acceptToken ${ok}`);
  }
}

describe("deferred automata for small tool sets", () => {
  it("the 20-tool set's first mask builds its names' trie, not the tools' arguments; one later step builds the rest", () => {
    const { vocab, encode } = qwen3();
    const bits = new Uint32Array(Math.ceil(vocab.size / 32));
    // the process's shared masks (strings' frames, the vocabulary's plain tokens) are built by the first mask of the
    // process's first grammar with strings: built here first, so the rows counted below are this grammar's own
    compileTools(twentyOpenAiTools().slice(0, 1), { format: "qwen3" }).createMatcher(vocab).fillNextTokenBitmask(bits);
    toolFragments.clear();
    const c = compileTools(twentyOpenAiTools(), { format: "qwen3" });
    const m = c.createMatcher(vocab);
    const nfa = tableOf(m).automaton.nfa;
    expect(nfa.deferred).toBe(true);
    expect(nfa.lazy).toBe(true);
    m.fillNextTokenBitmask(bits);
    const first = nfa.stateCount;
    const firstRows = tableOf(m).automaton.cTrans.length / 256;
    exactMask(m, vocab.size, bits, "first mask");
    // the envelope, the free text's and strings' frames and the names' shared prefixes (162 states; 2,617 when built
    // whole), and byte tables of 32 rows (the free text's plain-text search, docs/ARCHITECTURE.md, makes the
    // configurations it reads), not 64 to 256 filled when built whole
    expect(first).toBeLessThan(200);
    expect(firstRows).toBeLessThan(64);
    const A = tableOf(m).automaton;
    expect(nfa.deferred).toBe(true);
    // a call, token by token: exactly one step builds states, the one whose mask first enters a tool's frame (the
    // name), and it builds every frame left
    const text =
      '<tool_call>\n{"name": "get_weather", "arguments": {"location": "Paris", "unit": "celsius", "days": 3}}\n</tool_call>';
    const ids = encode(text);
    const building: number[] = [];
    let seen = "";
    for (let k = 0; k < ids.length; k++) {
      const id = ids[k];
      const before = nfa.stateCount;
      if (seen === '<tool_call>\n{"name": "') exactMask(m, vocab.size, bits, "at the name");
      else m.fillNextTokenBitmask(bits);
      if (nfa.stateCount !== before) building.push(k);
      expect(bit(bits, id)).toBe(true);
      expect(m.acceptToken(id)).toBe(true);
      seen +=
        vocab.atoms.get(id) ?? new TextDecoder().decode(vocab.bytes.subarray(vocab.offsets[id], vocab.offsets[id + 1]));
    }
    // the mask at `"name": "` (the tokens of `"name": "` are `<tool_call>`, `\n`, `{"`, `name`, `":`, ` "`)
    expect(building).toEqual([6]);
    // the build grew the tables at once to the rows the whole NFA calls for
    expect(A.cTrans.length).toBeGreaterThanOrEqual(256 * 256);
    expect(nfa.deferred).toBe(false);
    const whole = nfa.stateCount;
    expect(whole).toBeGreaterThan(2000);
    expect(first * 10).toBeLessThan(whole);
    // whole now: another call of another tool builds nothing, and its masks are exact where arguments start
    expect(m.acceptString("\n")).toBe(true);
    expect(m.acceptString('<tool_call>\n{"name": "search_web", "arguments": {"query": "')).toBe(true);
    exactMask(m, vocab.size, bits, "inside search_web's arguments");
    expect(m.acceptString('x", "max_results": 5}}\n</tool_call>')).toBe(true);
    expect(nfa.stateCount).toBe(whole);
    expect(m.isCompleted()).toBe(true);
  });

  it("a second grammar of the same tools copies their number frame from the process table (frames built once)", () => {
    const { vocab } = qwen3();
    const bits = new Uint32Array(Math.ceil(vocab.size / 32));
    const numbered: number[] = [];
    const whole: number[] = [];
    for (let r = 0; r < 2; r++) {
      toolFragments.clear();
      const m = compileTools(twentyOpenAiTools(), { format: "qwen3" }).createMatcher(vocab);
      const nfa = tableOf(m).automaton.nfa;
      m.fillNextTokenBitmask(bits);
      expect(m.acceptString('<tool_call>\n{"name": "')).toBe(true);
      m.fillNextTokenBitmask(bits);
      expect(nfa.deferred).toBe(false);
      if (r === 1) expect(nfa.framesCopied).toBeGreaterThan(0);
      numbered.push(nfa.statesNumbered);
      whole.push(nfa.stateCount);
    }
    expect(whole[1]).toBe(whole[0]);
    // the copied frame's states (the number's 337) are numbered from its recorded build, not walked
    expect(numbered[1] + 300).toBeLessThan(whole[1]);
  });

  it("a second compile of the same tools sequences none of their character classes again (kept per class object)", () => {
    const { vocab } = qwen3();
    const bits = new Uint32Array(Math.ceil(vocab.size / 32));
    const sequenced: number[] = [];
    for (let r = 0; r < 2; r++) {
      toolFragments.clear();
      const before = classesSequencedCount();
      const m = compileTools(twentyOpenAiTools(), { format: "qwen3" }).createMatcher(vocab);
      m.fillNextTokenBitmask(bits);
      expect(m.acceptString('<tool_call>\n{"name": "')).toBe(true);
      m.fillNextTokenBitmask(bits);
      expect(tableOf(m).automaton.nfa.deferred).toBe(false);
      sequenced.push(classesSequencedCount() - before);
    }
    // the free text's classes and the lowering's spelled classes are the same objects in every compile
    expect(sequenced[1]).toBe(0);
  });

  it("with a call required, the first mask's prefetch stops at the names; the step there builds the rest", () => {
    const { vocab } = qwen3();
    const bits = new Uint32Array(Math.ceil(vocab.size / 32));
    const m = compileTools(twentyOpenAiTools(), { format: "qwen3", toolChoice: "required" }).createMatcher(vocab);
    const table = tableOf(m);
    const nfa = table.automaton.nfa;
    expect(nfa.deferred).toBe(true);
    exactMask(m, vocab.size, bits, "first mask (call required)");
    // the prefetch followed `<tool_call>`, `\n`, ... and stopped where the names' mask would build the tools
    expect(table.prefetchedMasks).toBeGreaterThan(1);
    expect(table.prefetchStops).toBe(1);
    expect(nfa.deferred).toBe(true);
    expect(nfa.stateCount).toBeLessThan(200);
    expect(m.acceptString('<tool_call>\n{"name": "')).toBe(true);
    exactMask(m, vocab.size, bits, "at the name (call required)");
    expect(nfa.deferred).toBe(false);
    const whole = nfa.stateCount;
    expect(whole).toBeGreaterThan(2000);
    expect(m.acceptString('tool_3_list_event", "arguments": {')).toBe(true);
    exactMask(m, vocab.size, bits, "tool_3_list_event's arguments");
    expect(nfa.stateCount).toBe(whole);
  });

  it("is not where nothing is chosen next to a special token: a JSON value, a large tool set", () => {
    const { vocab } = qwen3();
    // an any-value property (a recursive alternation of seven JSON kinds) and a choice of five objects
    const objects = ["a", "b", "c", "d", "e"].map((k) => ({
      type: "object",
      properties: { [k]: { type: "string" }, [`${k}2`]: {}, [`${k}3`]: { type: "integer", minimum: 1 } },
      required: [k],
    }));
    const json = compileSchema({ type: "object", properties: { task: {}, pick: { anyOf: objects } } }).createMatcher(
      vocab,
    );
    expect(tableOf(json).automaton.nfa.deferred).toBe(false);
    expect(tableOf(json).automaton.nfa.lazy).toBe(false);
    const large = compileTools(githubMcpTools(), {
      format: "qwen3",
      toolChoice: "required",
      parallel: false,
      limits: { maxCompileMs: 600_000 },
    }).createMatcher(vocab);
    expect(tableOf(large).automaton.nfa.lazy).toBe(true);
    expect(tableOf(large).automaton.nfa.deferred).toBe(false);
  });
});
