import { isNullable, nullableRules } from "../grammar/analysis/nullable.js";
import type { GExpr, Grammar } from "../grammar/Grammar.js";

/** Rule references followed this deep at most; beyond, a rule counts as one code point (an estimate suffices). */
const MAX_DEPTH = 16;

/**
 * How many code points can begin a non-empty text of an expression: an estimate of how many vocabulary tokens a
 * llama.cpp stack at that expression accepts, used to order alternatives (the widest is tried first). Overlapping
 * alternatives are counted twice and a rule reached through a cycle or too deep counts as one code point: only the
 * order matters, never the language.
 */
export class FirstWidth {
  private readonly nullable: ReadonlySet<string>;
  private readonly nullMemo = new Map<GExpr, boolean>();
  private readonly memo = new Map<GExpr, number>();
  private readonly ruleMemo = new Map<string, number>();
  private readonly open = new Set<string>();

  constructor(private readonly g: Grammar) {
    this.nullable = nullableRules(g);
  }

  of(e: GExpr, depth = 0): number {
    const known = this.memo.get(e);
    if (known !== undefined) return known;
    let w: number;
    switch (e.type) {
      case "literal":
      case "token":
        w = e.text.length === 0 ? 0 : 1;
        break;
      case "charClass":
        w = 0;
        for (let i = 0; i < e.ranges.length; i += 2) w += e.ranges[i + 1] - e.ranges[i] + 1;
        break;
      case "alt":
        w = e.items.reduce((n, it) => n + this.of(it, depth), 0);
        break;
      case "seq":
        w = 0;
        for (const it of e.items) {
          w += this.of(it, depth);
          if (!isNullable(it, this.nullable, this.nullMemo)) break;
        }
        break;
      case "repeat":
        w = e.max === 0 ? 0 : this.of(e.item, depth);
        break;
      case "ref":
        return this.rule(e.rule, depth);
      case "counted":
        w = 0;
        for (const edge of e.states[e.start].edges) w += this.of(edge.label, depth);
        break;
    }
    this.memo.set(e, w);
    return w;
  }

  private rule(name: string, depth: number): number {
    const known = this.ruleMemo.get(name);
    if (known !== undefined) return known;
    if (depth >= MAX_DEPTH || this.open.has(name)) return 1;
    this.open.add(name);
    const w = this.of(this.g.rules.get(name) as GExpr, depth + 1);
    this.open.delete(name);
    this.ruleMemo.set(name, w);
    return w;
  }
}
