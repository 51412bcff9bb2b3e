import { countedLive } from "../grammar/counted.js";
import type { GExpr, Grammar } from "../grammar/Grammar.js";
import type { Random } from "../util/seededRandom.js";

class OutOfBudget extends Error {}

/** Options of {@link sampleGrammar}: how far samples may grow and how often to retry. */
export interface SampleOptions {
  /** Extra repetitions drawn above a repeat's minimum, at most. @defaultValue 3 */
  extraRepeats?: number;
  /** Code points a sample may have before the attempt is abandoned. @defaultValue 2000 */
  maxLength?: number;
  /** Attempts before giving up (recursive grammars may keep growing). @defaultValue 20 */
  attempts?: number;
}

/**
 * A random member of the grammar's language, or undefined when none was found within the budget (an empty
 * language, or recursion that keeps growing). For tests: positive samples, and seeds for mutations.
 */
export function sampleGrammar(g: Grammar, random: Random, options: SampleOptions = {}): string | undefined {
  const extra = options.extraRepeats ?? 3;
  const maxLength = options.maxLength ?? 2000;
  const attempts = options.attempts ?? 20;
  for (let a = 0; a < attempts; a++) {
    let budget = maxLength;
    const out: string[] = [];
    const pick = (n: number) => Math.floor(random() * n);
    const gen = (e: GExpr, depth: number): void => {
      if (depth > 200) throw new OutOfBudget();
      switch (e.type) {
        case "literal":
        case "token":
          budget -= e.text.length;
          if (budget < 0) throw new OutOfBudget();
          out.push(e.text);
          return;
        case "charClass": {
          if (e.ranges.length === 0) throw new OutOfBudget();
          const i = pick(e.ranges.length / 2) * 2;
          const lo = e.ranges[i];
          const hi = e.ranges[i + 1];
          // favour the ends of a range, where off-by-one mistakes live
          const r = random();
          const cp = r < 0.25 ? lo : r < 0.5 ? hi : lo + pick(hi - lo + 1);
          if (--budget < 0) throw new OutOfBudget();
          out.push(String.fromCodePoint(cp));
          return;
        }
        case "seq":
          for (const it of e.items) gen(it, depth + 1);
          return;
        case "alt":
          if (e.items.length === 0) throw new OutOfBudget();
          gen(e.items[pick(e.items.length)], depth + 1);
          return;
        case "repeat": {
          const hi = e.max === null ? e.min + extra : Math.min(e.max, e.min + extra);
          if (hi < e.min) throw new OutOfBudget();
          const n = e.min + pick(hi - e.min + 1);
          for (let i = 0; i < n; i++) gen(e.item, depth + 1);
          return;
        }
        case "counted": {
          // a random walk through live (state, length) pairs only, stopping where a word may end with chance 1/8
          const live = countedLive(e);
          const n = e.states.length;
          let q = e.start;
          for (let c = 0; ; ) {
            const st = e.states[q];
            const options = st.edges.filter((x) => c + x.len <= e.max && live[(c + x.len) * n + x.to] === 1);
            if ((st.accept && c >= e.min && pick(8) === 0) || options.length === 0) {
              if (!st.accept || c < e.min) throw new OutOfBudget();
              return;
            }
            const edge = options[pick(options.length)];
            gen(edge.label, depth + 1);
            q = edge.to;
            c += edge.len;
          }
        }
        case "ref": {
          const body = g.rules.get(e.rule);
          if (!body) throw new OutOfBudget();
          gen(body, depth + 1);
          return;
        }
      }
    };
    try {
      gen({ type: "ref", rule: g.root }, 0);
      return out.join("");
    } catch (err) {
      if (!(err instanceof OutOfBudget) && !(err instanceof RangeError)) throw err;
    }
  }
  return undefined;
}

/** `text` with a few random code-point edits (insert, delete, replace) drawn from `alphabet`. */
export function mutateText(text: string, alphabet: readonly string[], random: Random, edits = 1): string {
  const cps = [...text];
  for (let k = 0; k < edits; k++) {
    const op = Math.floor(random() * 3);
    const at = Math.floor(random() * (cps.length + 1));
    const ch = alphabet[Math.floor(random() * alphabet.length)];
    if (op === 0 || cps.length === 0) cps.splice(at, 0, ch);
    else if (op === 1) cps.splice(Math.min(at, cps.length - 1), 1);
    else cps[Math.min(at, cps.length - 1)] = ch;
  }
  return cps.join("");
}
