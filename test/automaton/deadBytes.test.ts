import { describe, expect, it } from "vitest";
import { jsonGrammar, twentyToolGrammar } from "../../bench/handGrammars.js";
import { DEAD, type Automaton } from "../../src/automaton/Automaton.js";
import { compileAutomaton } from "../../src/automaton/createMatcher.js";
import { compileSchema } from "../../src/compile.js";
import type { Grammar } from "../../src/grammar/Grammar.js";

/**
 * The automaton's first step out of a configuration records, in one go, every byte none of its stacks can read
 * (through calls and returns too), so that a trie walk skips those root children without stepping each. Checked
 * against the configuration's own step over its stacks (`stepConfig`, which never reads the byte table): a byte is
 * recorded dead exactly when that step finds nothing, and every step agrees with it, on configurations reached
 * breadth-first from the start.
 */
type Internals = { stepConfig(c: number, sym: number): number };

/** [name, grammar, whether configurations of several stacks are met (the general step, not one frame's row)] */
const GRAMMARS: [string, () => Grammar, boolean][] = [
  ["json (recursive: calls and returns)", jsonGrammar, true],
  ["twenty tools (atoms, frames)", twentyToolGrammar, false],
  [
    "compileSchema: nested objects, arrays, strings",
    () =>
      compileSchema({
        type: "object",
        properties: {
          a: {
            type: "array",
            items: { type: "object", properties: { x: { type: "string" }, y: { type: "integer" } } },
          },
          b: { type: "string", maxLength: 3 },
          c: {},
        },
        required: ["a"],
      }).grammar,
    true,
  ],
];

function checkConfigs(
  a: Automaton,
  maxConfigs: number,
): { checked: number; recordedAhead: number; severalStacks: number; wrong: string[] } {
  const internals = a as unknown as Internals;
  const queue = [a.initial];
  const seen = new Set(queue);
  let checked = 0;
  let recordedAhead = 0;
  let severalStacks = 0;
  const wrong: string[] = [];
  while (queue.length > 0 && checked < maxConfigs) {
    const c = queue.shift()!;
    checked++;
    // the first step: the bytes recorded dead with it, before any of them is stepped
    a.step(c, 0x7b);
    for (let b = 0; b < 256; b++) {
      if (b === 0x7b || a.cTrans[c * 256 + b] !== DEAD) continue;
      recordedAhead++;
      if (a.stacksOf(c).length > 1) severalStacks++;
      if (internals.stepConfig(c, b) !== DEAD) wrong.push(`configuration ${c}: byte ${b} recorded dead but readable`);
    }
    for (let b = 0; b < 256; b++) {
      const t = a.step(c, b);
      const ref = internals.stepConfig(c, b);
      if (t !== ref) wrong.push(`configuration ${c}, byte ${b}: step ${t}, stepConfig ${ref}`);
      if (t >= 0 && !seen.has(t)) {
        seen.add(t);
        queue.push(t);
      }
    }
  }
  return { checked, recordedAhead, severalStacks, wrong };
}

describe("dead bytes recorded ahead agree with stepping each byte", () => {
  it.each(GRAMMARS)("%s", (_name, make, several) => {
    const r = checkConfigs(compileAutomaton(make()), 150);
    expect(r.wrong.slice(0, 5)).toEqual([]);
    expect(r.checked).toBeGreaterThan(20);
    expect(r.recordedAhead).toBeGreaterThan(r.checked * 100);
    if (several) expect(r.severalStacks).toBeGreaterThan(0);
  });
});
