/**
 * A model of llama.cpp's grammar engine (`src/llama-grammar.cpp` of the llama.cpp source node-llama-cpp 3.21.1 ships),
 * written to count its work: the GBNF parser (groups and repetitions become generated rules exactly as
 * `llama_grammar_parser` makes them), `llama_grammar_advance_stack` (the stacks in its order), `llama_grammar_accept`,
 * and `llama_grammar_reject_candidates` / `_for_stack` (candidates handed to the stacks in order, those a stack accepts
 * advanced one code point together), counting each `llama_grammar_match_char` call on a candidate. Only what
 * toolgram's GBNF uses: no tokens (`<[id]>`), no partial UTF-8 (candidates are whole code points).
 */

const END = 0;
const ALT = 1;
const RULE_REF = 2;
const CHAR = 3;
const CHAR_NOT = 4;
const CHAR_RNG_UPPER = 5;
const CHAR_ALT = 6;
const CHAR_ANY = 7;

interface Element {
  type: number;
  value: number;
}

/** A position in a rule: rule id × 2^20 + index. */
type Pos = number;
type Stack = Pos[];

const SHIFT = 1 << 20;

export interface Candidate {
  id: number;
  cps: readonly number[];
}

export class LlamaGrammarModel {
  /** `llama_grammar_match_char` calls on candidates since the last reset. */
  matchCalls = 0;
  private stacks: Stack[];

  private constructor(
    private readonly rules: Element[][],
    root: number,
  ) {
    this.stacks = [];
    const rule = rules[root];
    let i = 0;
    for (;;) {
      const stack: Stack = [];
      if (!this.isEnd(root * SHIFT + i)) stack.push(root * SHIFT + i);
      this.advance(stack, this.stacks, new Set(this.stacks.map(key)));
      while (!this.isEnd(root * SHIFT + i)) i++;
      if (rule[i].type === ALT) i++;
      else break;
    }
  }

  static parse(gbnf: string): LlamaGrammarModel {
    const p = new Parser(gbnf);
    p.parse();
    return new LlamaGrammarModel(p.rules, p.symbolIds.get("root")!);
  }

  /** How many stacks are alive (the matcher's state). */
  get stackCount(): number {
    return this.stacks.length;
  }

  private el(pos: Pos): Element {
    return this.rules[Math.floor(pos / SHIFT)][pos % SHIFT];
  }

  private isEnd(pos: Pos): boolean {
    const t = this.el(pos).type;
    return t === END || t === ALT;
  }

  /** `llama_grammar_advance_stack`: the stacks `stack` expands to, each ending at a character element, in its order. */
  private advance(stack: Stack, out: Stack[], outKeys: Set<string>): void {
    const todo: Stack[] = [stack];
    const seen = new Set<string>();
    while (todo.length > 0) {
      const cur = todo.pop()!;
      const k = key(cur);
      if (seen.has(k)) continue;
      seen.add(k);
      if (cur.length === 0) {
        if (!outKeys.has(k)) {
          outKeys.add(k);
          out.push(cur);
        }
        continue;
      }
      const pos = cur[cur.length - 1];
      const e = this.el(pos);
      if (e.type === RULE_REF) {
        let sub = e.value * SHIFT;
        for (;;) {
          const next = cur.slice(0, -1);
          if (!this.isEnd(pos + 1)) next.push(pos + 1);
          if (!this.isEnd(sub)) next.push(sub);
          todo.push(next);
          while (!this.isEnd(sub)) sub++;
          if (this.el(sub).type === ALT) sub++;
          else break;
        }
      } else if (e.type === CHAR || e.type === CHAR_NOT || e.type === CHAR_ANY) {
        if (!outKeys.has(k)) {
          outKeys.add(k);
          out.push(cur);
        }
      } else {
        throw new Error(`stack left on element type ${e.type}`);
      }
    }
  }

  /** `llama_grammar_match_char`: whether `cp` matches the class at `pos`, and the position after the class. */
  private matchChar(pos: Pos, cp: number): [boolean, Pos] {
    let found = false;
    const positive = this.el(pos).type === CHAR || this.el(pos).type === CHAR_ANY;
    do {
      const e = this.el(pos);
      if (this.el(pos + 1).type === CHAR_RNG_UPPER) {
        found = found || (e.value <= cp && cp <= this.el(pos + 1).value);
        pos += 2;
      } else if (e.type === CHAR_ANY) {
        found = true;
        pos += 1;
      } else {
        found = found || e.value === cp;
        pos += 1;
      }
    } while (this.el(pos).type === CHAR_ALT);
    return [found === positive, pos];
  }

  /** `llama_grammar_accept` for each code point of `text`. */
  acceptText(text: string): void {
    for (const ch of text) {
      const cp = ch.codePointAt(0)!;
      const out: Stack[] = [];
      const keys = new Set<string>();
      for (const s of this.stacks) {
        if (s.length === 0) continue;
        const [ok, after] = this.matchChar(s[s.length - 1], cp);
        if (!ok) continue;
        const next = s.slice(0, -1);
        if (!this.isEnd(after)) next.push(after);
        this.advance(next, out, keys);
      }
      if (out.length === 0) throw new Error(`the grammar refuses ${JSON.stringify(ch)}`);
      this.stacks = out;
    }
  }

  /** `llama_grammar_reject_candidates` on the current stacks: the ids of the candidates refused. */
  reject(candidates: readonly Candidate[]): Set<number> {
    const refused = this.rejectFor(
      this.stacks,
      candidates.map((c) => ({ c, at: 0 })),
    );
    return new Set(refused.map((r) => r.c.id));
  }

  private rejectFor(stacks: Stack[], cands: { c: Candidate; at: number }[]): { c: Candidate; at: number }[] {
    if (cands.length === 0) return [];
    let rejects = this.rejectForStack(stacks[0], cands);
    for (let i = 1; i < stacks.length; i++) rejects = this.rejectForStack(stacks[i], rejects);
    return rejects;
  }

  private rejectForStack(stack: Stack, cands: { c: Candidate; at: number }[]): { c: Candidate; at: number }[] {
    const rejects: { c: Candidate; at: number }[] = [];
    if (stack.length === 0) {
      for (const t of cands) if (t.at < t.c.cps.length) rejects.push(t);
      return rejects;
    }
    const pos = stack[stack.length - 1];
    const next: { c: Candidate; at: number }[] = [];
    for (const t of cands) {
      if (t.at === t.c.cps.length) continue; // the token ended: accepted here
      this.matchCalls++;
      if (this.matchChar(pos, t.c.cps[t.at])[0]) next.push({ c: t.c, at: t.at + 1 });
      else rejects.push(t);
    }
    const after = this.matchChar(pos, 0)[1];
    const rest = stack.slice(0, -1);
    if (!this.isEnd(after)) rest.push(after);
    const nextStacks: Stack[] = [];
    this.advance(rest, nextStacks, new Set());
    for (const t of this.rejectFor(nextStacks, next)) rejects.push({ c: t.c, at: t.at - 1 });
    return rejects;
  }
}

function key(s: Stack): string {
  return s.join(",");
}

/** `llama_grammar_parser` for the GBNF toolgram prints. */
class Parser {
  readonly symbolIds = new Map<string, number>();
  readonly rules: Element[][] = [];
  private i = 0;
  private readonly s: number[];

  constructor(text: string) {
    this.s = [...text].map((c) => c.codePointAt(0)!);
  }

  private at(k = 0): number {
    return this.s[this.i + k] ?? 0;
  }

  private symbol(name: string): number {
    let id = this.symbolIds.get(name);
    if (id === undefined) this.symbolIds.set(name, (id = this.symbolIds.size));
    return id;
  }

  private generate(base: string): number {
    const id = this.symbolIds.size;
    this.symbolIds.set(`${base}_${id}`, id);
    return id;
  }

  private addRule(id: number, rule: Element[]): void {
    while (this.rules.length <= id) this.rules.push([]);
    this.rules[id] = rule;
  }

  private space(nested: boolean): void {
    for (;;) {
      const c = this.at();
      if (c === 0x20 || c === 0x09 || (nested && (c === 0x0a || c === 0x0d))) this.i++;
      else if (c === 0x23) while (this.at() !== 0 && this.at() !== 0x0a && this.at() !== 0x0d) this.i++;
      else return;
    }
  }

  private isWord(c: number): boolean {
    return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || c === 0x2d || (c >= 0x30 && c <= 0x39);
  }

  private name(): string {
    const start = this.i;
    while (this.isWord(this.at())) this.i++;
    if (this.i === start) throw new Error(`expecting a name at ${this.i}`);
    return String.fromCodePoint(...this.s.slice(start, this.i));
  }

  private char(): number {
    const c = this.at();
    if (c !== 0x5c) {
      this.i++;
      return c;
    }
    const e = String.fromCodePoint(this.at(1));
    this.i += 2;
    const hex = (n: number) => {
      const v = parseInt(String.fromCodePoint(...this.s.slice(this.i, this.i + n)), 16);
      this.i += n;
      return v;
    };
    switch (e) {
      case "x":
        return hex(2);
      case "u":
        return hex(4);
      case "U":
        return hex(8);
      case "t":
        return 0x09;
      case "r":
        return 0x0d;
      case "n":
        return 0x0a;
      case "\\":
      case '"':
      case "[":
      case "]":
      case "-":
        return e.codePointAt(0)!;
    }
    throw new Error(`unknown escape \\${e}`);
  }

  private int(): number {
    const start = this.i;
    while (this.at() >= 0x30 && this.at() <= 0x39) this.i++;
    return Number(String.fromCodePoint(...this.s.slice(start, this.i)));
  }

  parse(): void {
    this.space(true);
    while (this.at() !== 0) {
      const name = this.name();
      this.space(false);
      if (String.fromCodePoint(...this.s.slice(this.i, this.i + 3)) !== "::=")
        throw new Error(`expecting ::= at ${this.i}`);
      this.i += 3;
      this.space(true);
      this.alternates(name, this.symbol(name), false);
      if (this.at() === 0x0d) this.i += this.at(1) === 0x0a ? 2 : 1;
      else if (this.at() === 0x0a) this.i++;
      else if (this.at() !== 0) throw new Error(`expecting newline or end at ${this.i}`);
      this.space(true);
    }
  }

  private alternates(ruleName: string, id: number, nested: boolean): void {
    const rule: Element[] = [];
    this.sequence(ruleName, rule, nested);
    while (this.at() === 0x7c) {
      rule.push({ type: ALT, value: 0 });
      this.i++;
      this.space(true);
      this.sequence(ruleName, rule, nested);
    }
    rule.push({ type: END, value: 0 });
    this.addRule(id, rule);
  }

  private sequence(ruleName: string, rule: Element[], nested: boolean): void {
    let last = rule.length;
    const repetitions = (min: number, max: number | null) => {
      const prev = rule.slice(last);
      if (min === 0) rule.length = last;
      else for (let k = 1; k < min; k++) rule.push(...prev);
      let lastRec = 0;
      const nOpt = max === null ? 1 : max - min;
      for (let k = 0; k < nOpt; k++) {
        const rec = [...prev];
        const recId = this.generate(ruleName);
        if (k > 0 || max === null) rec.push({ type: RULE_REF, value: max === null ? recId : lastRec });
        rec.push({ type: ALT, value: 0 }, { type: END, value: 0 });
        this.addRule(recId, rec);
        lastRec = recId;
      }
      if (nOpt > 0) rule.push({ type: RULE_REF, value: lastRec });
    };
    for (;;) {
      const c = this.at();
      if (c === 0x22) {
        this.i++;
        last = rule.length;
        while (this.at() !== 0x22) {
          if (this.at() === 0) throw new Error("unexpected end of input");
          rule.push({ type: CHAR, value: this.char() });
        }
        this.i++;
        this.space(nested);
      } else if (c === 0x5b) {
        this.i++;
        let start = CHAR;
        if (this.at() === 0x5e) {
          this.i++;
          start = CHAR_NOT;
        }
        last = rule.length;
        while (this.at() !== 0x5d) {
          const lo = this.char();
          rule.push({ type: last < rule.length ? CHAR_ALT : start, value: lo });
          if (this.at() === 0x2d && this.at(1) !== 0x5d) {
            this.i++;
            rule.push({ type: CHAR_RNG_UPPER, value: this.char() });
          }
        }
        this.i++;
        this.space(nested);
      } else if (this.isWord(c)) {
        const id = this.symbol(this.name());
        this.space(nested);
        last = rule.length;
        rule.push({ type: RULE_REF, value: id });
      } else if (c === 0x28) {
        this.i++;
        this.space(true);
        const sub = this.generate(ruleName);
        this.alternates(ruleName, sub, true);
        last = rule.length;
        rule.push({ type: RULE_REF, value: sub });
        if (this.at() !== 0x29) throw new Error(`expecting ')' at ${this.i}`);
        this.i++;
        this.space(nested);
      } else if (c === 0x2e) {
        last = rule.length;
        rule.push({ type: CHAR_ANY, value: 0 });
        this.i++;
        this.space(nested);
      } else if (c === 0x2a || c === 0x2b || c === 0x3f) {
        this.i++;
        this.space(nested);
        repetitions(c === 0x2b ? 1 : 0, c === 0x3f ? 1 : null);
      } else if (c === 0x7b) {
        this.i++;
        this.space(nested);
        const min = this.int();
        this.space(nested);
        let max: number | null = min;
        if (this.at() === 0x2c) {
          this.i++;
          this.space(nested);
          max = this.at() >= 0x30 && this.at() <= 0x39 ? this.int() : null;
          this.space(nested);
        }
        if (this.at() !== 0x7d) throw new Error(`expecting '}' at ${this.i}`);
        this.i++;
        this.space(nested);
        repetitions(min, max);
      } else {
        return;
      }
    }
  }
}
