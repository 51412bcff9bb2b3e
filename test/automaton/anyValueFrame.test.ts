import { describe, expect, it } from "vitest";
import { compileAutomaton } from "../../src/automaton/createMatcher.js";
import type { MaskTable } from "../../src/automaton/MaskTable.js";
import type { Automaton } from "../../src/automaton/Automaton.js";
import { compileSchema } from "../../src/compile.js";
import { canonicalJson, type JsonValue } from "../../src/json.js";
import { sampleRow } from "../../bench/jsonSchemaBenchSample.js";
import { qwen3 } from "../support/qwen3.js";
import { bit } from "../support/tinyVocab.js";
import { exactMask } from "../support/automaton/walkCheck.js";

/**
 * A schema that allows any value somewhere (`{}`, a property without `type`) has the same recursive any-value rule as
 * every other such schema: its frame (with the objects, arrays and strings it calls) is keyed by the rules it reaches,
 * so what it reads below a trie node is walked once per process and vocabulary and shared by every grammar. A second
 * grammar's value position then walks the trie only where the value may end (and the caller goes on), not the
 * tokens of every kind of value. Counted in trie nodes walked, configurations made and subtree masks computed, never
 * in time; masks exact (bit ⇔ acceptToken over the whole Qwen3 vocabulary) at every step checked.
 */
const schemaOf = (id: string): JsonValue => sampleRow(id).schema as JsonValue;

/** The frame of the grammar's rule `name` (the any-value rule). */
function frameKeyOf(A: Automaton, name: string): string | undefined {
  return A.nfa.frameKeyOf(A.nfa.frameNames.indexOf(name));
}

describe("the any-value frame is shared across grammars", () => {
  const { vocab, encode } = qwen3();
  const words = Math.ceil(vocab.size / 32);
  const bits = new Uint32Array(words);
  // two JSONSchemaBench schemas with properties that allow any value (`"type": {}, "f": {}` and `"task": {}, "unit": {}`)
  const first = compileSchema(schemaOf("BFCL_javascript_34"));
  const second = compileSchema(schemaOf("BFCL_java_34"));

  it("gives the any-value rule the same key in both grammars, and another recursive rule another key", () => {
    const a = frameKeyOf(compileAutomaton(first.grammar), "value-json-value");
    expect(a).toBeDefined();
    expect(frameKeyOf(compileAutomaton(second.grammar), "value-json-value")).toBe(a);
    // the loops inside it (an object's members, an array's items, a string's content) are keyed too, the same in both
    const loops = (A: Automaton): (string | undefined)[] =>
      A.nfa.frameNames.flatMap((name, f) => (name.startsWith("(shared") ? [A.nfa.frameKeyOf(f)] : []));
    const firstLoops = loops(compileAutomaton(first.grammar));
    expect(firstLoops.length).toBeGreaterThan(1);
    expect(firstLoops).not.toContain(undefined);
    expect(loops(compileAutomaton(second.grammar))).toEqual(expect.arrayContaining(firstLoops));
    const tree = compileSchema({
      type: "object",
      properties: { value: { type: "integer" }, children: { type: "array", items: { $ref: "#" } } },
      required: ["value"],
      additionalProperties: false,
    });
    const A = compileAutomaton(tree.grammar);
    const recursive = A.nfa.frameNames.map((_, f) => A.nfa.frameKeyOf(f)).filter((k) => k !== undefined);
    expect(recursive.length).toBeGreaterThan(0);
    expect(recursive).not.toContain(a);
  });

  it("a second grammar's value position walks only where the value ends; masks exact at every step of a nested value", () => {
    // the first grammar walks the any-value frame's subtrees (or finds them walked by an earlier grammar)
    const m1 = first.createMatcher(vocab);
    const text1 = canonicalJson({ forEachType: { type: { a: [1, "x"] }, f: null } });
    expect(first.accepts(text1)).toBe(true);
    for (const id of [...encode(text1), vocab.eosTokenIds[0]]) {
      m1.fillNextTokenBitmask(bits);
      expect(m1.acceptToken(id)).toBe(true);
    }

    // the second grammar: a value with objects, arrays, strings with escapes, numbers and literals in it
    const data = {
      "ServiceManager.newTimeout": {
        task: { name: 'cleanup "now"', steps: [1, -2.5e3, true, null, [], {}], at: { h: 3 } },
        delay: 5,
        unit: "TimeUnit.MINUTES",
      },
    };
    const text = canonicalJson(data);
    expect(second.accepts(text)).toBe(true);
    const m = second.createMatcher(vocab);
    const table = (m as unknown as { table: MaskTable }).table;
    const A = table.automaton;
    const ids = [...encode(text), vocab.eosTokenIds[0]];
    const start = text.indexOf('"task":') + '"task":'.length;
    const end = text.indexOf(', "delay"');
    // the value position's mask, measured first: the first mask of the grammar prefetches the positions near the
    // start (MaskTable.prefetch), this one among them, so at its step below it is a cache hit
    let valueStep: { nodes: number; configs: number; computed: number; taken: number } | undefined;
    {
      const probe = second.createMatcher(vocab);
      expect(probe.acceptString(text.slice(0, start))).toBe(true);
      const nodes = table.nodesWalked;
      const configs = A.configCount;
      const computed = table.subtreesComputed;
      const taken = table.subtreesTaken;
      probe.fillNextTokenBitmask(bits);
      valueStep = {
        nodes: table.nodesWalked - nodes,
        configs: A.configCount - configs,
        computed: table.subtreesComputed - computed,
        taken: table.subtreesTaken - taken,
      };
    }
    let prefix = "";
    let checked = 0;
    for (let k = 0; k < ids.length; k++) {
      m.fillNextTokenBitmask(bits);
      // every step inside the value and around it, and the first ones
      if (k < 4 || (prefix.length >= start - 2 && prefix.length <= end + 2)) {
        expect(exactMask(m, vocab.size, bits)).toBeGreaterThan(0);
        checked++;
      }
      expect(bit(bits, ids[k])).toBe(true);
      expect(m.acceptToken(ids[k])).toBe(true);
      prefix += new TextDecoder().decode(vocab.bytes.subarray(vocab.offsets[ids[k]], vocab.offsets[ids[k] + 1]));
    }
    expect(m.isTerminated()).toBe(true);
    expect(checked).toBeGreaterThan(15);
    // at `"task":` the mask is the tokens of ` ` and any value, and what follows a value that a token completes. The
    // value's part below the space node is the first grammar's (no subtree mask computed here, one taken); walking
    // it whole visited 796 trie nodes and made 20 configurations of several stacks
    expect(valueStep).toBeDefined();
    expect(valueStep!.computed).toBe(0);
    expect(valueStep!.taken).toBeGreaterThan(0);
    expect(valueStep!.nodes).toBeLessThan(400);
    expect(valueStep!.configs).toBeLessThanOrEqual(4);
  });
});
