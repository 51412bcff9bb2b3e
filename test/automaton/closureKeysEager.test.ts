import { describe, expect, it } from "vitest";
import type { MaskTable } from "../../src/automaton/MaskTable.js";
import { compileSchema } from "../../src/compile.js";
import { canonicalJson } from "../../src/json.js";
import { sampleRow } from "../../bench/jsonSchemaBenchSample.js";
import { qwen3 } from "../support/qwen3.js";
import { exactMask } from "../support/automaton/walkCheck.js";

/**
 * A walk that enters a keyed rule frame at a large trie subtree asks for the frame's closure key (the text of the
 * rules it reaches) to find the subtree's shared mask. Made at that step, the key was most of a cold value position's
 * mask (a number used by two properties: `"start":` of BFCL_javascript_30). The keys of a small grammar's rule frames
 * are made with its NFA instead, so no mask of a decoding makes one: counted (Nfa.closureKeysLate), never timed; masks
 * exact (bit ⇔ acceptToken over the whole Qwen3 vocabulary) at the value positions.
 */

describe("closure keys of rule frames are made with the NFA, not by a mask", () => {
  const { vocab, encode } = qwen3();
  const bits = new Uint32Array(Math.ceil(vocab.size / 32));

  it.each(["BFCL_javascript_30", "BFCL_java_81"])(
    "%s: no mask of a valid instance makes a closure key; value positions exact",
    (id) => {
      const rec = sampleRow(id);
      const c = compileSchema(rec.schema);
      const text = canonicalJson(rec.tests.find((t) => t.valid)!.data);
      const m = c.createMatcher(vocab);
      const nfa = (m as unknown as { table: MaskTable }).table.automaton.nfa;
      // a non-recursive rule frame with a key (the number rule both properties use) is among those keyed
      const keyed = nfa.frameNames.filter(
        (_, f) => nfa.frameKeyOf(f) !== undefined && !nfa.frameNames[f].startsWith("("),
      );
      expect(keyed.length).toBeGreaterThan(0);
      expect(nfa.closureKeysLate).toBe(0);
      const ids = [...encode(text), vocab.eosTokenIds[0]];
      let seen = "";
      let checked = 0;
      for (const t of ids) {
        if (seen.endsWith(":")) {
          exactMask(m, vocab.size, bits);
          checked++;
        } else m.fillNextTokenBitmask(bits);
        expect(m.acceptToken(t)).toBe(true);
        seen += new TextDecoder().decode(vocab.bytes.subarray(vocab.offsets[t], vocab.offsets[t + 1]));
      }
      expect(m.isTerminated()).toBe(true);
      expect(checked).toBeGreaterThan(1);
      expect(nfa.closureKeysLate).toBe(0);
    },
  );
});
