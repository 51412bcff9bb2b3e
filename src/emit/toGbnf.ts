import { repetitionSuffix } from "./repetitionSuffix.js";
import { ToolgramError } from "../errors.js";
import type { GExpr, Grammar } from "../grammar/Grammar.js";
import { leftRecursiveRules } from "../grammar/analysis/leftRecursiveRules.js";
import { removeNullableLoops } from "../grammar/passes/removeNullableLoops.js";
import { exprKey } from "../grammar/analysis/exprKey.js";
import { validateGrammar } from "../grammar/validateGrammar.js";
import { factorAlternatives } from "./factorAlternatives.js";
import { countedRefusal } from "./countedRefusal.js";
import { FirstWidth } from "./firstWidth.js";
import type { Deadline } from "../Deadline.js";

const STAGE = "printing the GBNF";

/**
 * Largest repetition bound printed as `{m,n}`. llama.cpp refuses a minimum above 2000 and silently turns a maximum
 * above 2000 into "unbounded" (which would accept too much), and it refuses a repetition whose expansion exceeds
 * 2000 rules; larger bounds are therefore split into nested rules (`x{2500}` → `b{2} x{500}` with `b ::= x{1000}`).
 */
export const GBNF_MAX_REPEAT = 1000;

/** llama.cpp refuses `n_prev_rules * bound >= 2000`; an item that may reach this product gets its own rule. */
const RULE_PRODUCT_LIMIT = 1000;

/** A class matching no code point: how GBNF spells the empty language. */
const NEVER = "[^\\x00-\\U0010FFFF]";

function hex(cp: number, width: number): string {
  return cp.toString(16).toUpperCase().padStart(width, "0");
}

/** A code point inside a GBNF string literal: printable text as UTF-8, escapes for `"`, `\` and controls. */
function literalChar(cp: number): string {
  switch (cp) {
    case 0x22:
      return '\\"';
    case 0x5c:
      return "\\\\";
    case 0x0a:
      return "\\n";
    case 0x0d:
      return "\\r";
    case 0x09:
      return "\\t";
  }
  if (cp < 0x20 || (cp >= 0x7f && cp <= 0x9f)) return `\\x${hex(cp, 2)}`;
  return String.fromCodePoint(cp);
}

/** A code point inside `[...]`: ASCII printable as itself unless special there; everything else escaped. */
function classChar(cp: number): string {
  switch (cp) {
    case 0x5c:
      return "\\\\";
    case 0x5d:
      return "\\]";
    case 0x5b:
      return "\\[";
    case 0x2d:
      return "\\-";
    case 0x5e:
      return "\\x5E"; // llama.cpp has no `\^` escape
    case 0x22:
      return '\\"';
    case 0x0a:
      return "\\n";
    case 0x0d:
      return "\\r";
    case 0x09:
      return "\\t";
  }
  if (cp >= 0x20 && cp < 0x7f) return String.fromCodePoint(cp);
  if (cp < 0x100) return `\\x${hex(cp, 2)}`;
  if (cp < 0x10000) return `\\u${hex(cp, 4)}`;
  return `\\U${hex(cp, 8)}`;
}

/** GBNF string literal for `text`. */
export function gbnfLiteral(text: string): string {
  let out = '"';
  for (const ch of text) out += literalChar(ch.codePointAt(0) as number);
  return `${out}"`;
}

function classBody(ranges: readonly number[]): string {
  let out = "";
  for (let i = 0; i < ranges.length; i += 2) {
    const lo = ranges[i];
    const hi = ranges[i + 1];
    out += classChar(lo);
    if (hi === lo + 1) out += classChar(hi);
    else if (hi > lo) out += `-${classChar(hi)}`;
  }
  return out;
}

/**
 * GBNF character class for `ranges`, always positive. llama.cpp checks a token that ends inside a UTF-8 sequence
 * against the range of code points the sequence could complete to: a positive class allows it when any of them
 * matches (exact), but a negated class refuses it when any of them is excluded. A negated class names the surrogate
 * block (the IR's classes never contain it), so `[^"\\]` would refuse every token ending in the lead byte 0xED
 * (U+D000..U+DFFF), though U+D000..U+D7FF are allowed: llama.cpp's masks would differ from the matcher's.
 */
export function gbnfClass(ranges: readonly number[]): string {
  if (ranges.length === 0) return NEVER;
  return `[${classBody(ranges)}]`;
}

/** Upper bound of the rules llama.cpp creates while parsing `e` printed in place (groups, repetitions, new names). */
function ruleCost(e: GExpr): number {
  switch (e.type) {
    case "ref":
      return 1;
    case "seq":
    case "alt":
      return 1 + e.items.reduce((n, it) => n + ruleCost(it), 0);
    case "repeat":
      return 2 + ruleCost(e.item) + (e.max === null ? 1 : Math.max(0, e.max - e.min));
    default:
      return 0;
  }
}

type Ctx = "alt" | "seq" | "postfix";

class GbnfPrinter {
  private readonly names = new Map<string, string>();
  private readonly used = new Set<string>();
  private lines: string[] = [];
  private current = "";
  private auxCount = 0;
  private readonly width: FirstWidth;

  constructor(
    private readonly g: Grammar,
    private readonly deadline?: Deadline,
  ) {
    this.width = new FirstWidth(g);
    // the root is printed as `root`; a non-root rule already called `root` is renamed
    this.names.set(g.root, "root");
    this.used.add("root");
    for (const name of g.rules.keys()) {
      if (name === g.root) continue;
      let n = name;
      for (let i = 2; this.used.has(n); i++) n = `${name}-${i}`;
      this.names.set(name, n);
      this.used.add(n);
    }
  }

  print(): string {
    const order = [this.g.root, ...[...this.g.rules.keys()].filter((n) => n !== this.g.root)];
    const out: string[] = [];
    for (const name of order) {
      this.current = this.names.get(name) as string;
      this.auxCount = 0;
      this.lines = [];
      const body = this.expr(this.g.rules.get(name) as GExpr, "alt");
      out.push(`${this.current} ::= ${body}`, ...this.lines);
      // a shared node prints once per use, so the text can outgrow the nodes ticked: every printed byte is a step
      this.deadline?.tick(STAGE, "", body.length + this.lines.reduce((n, l) => n + l.length, 0));
    }
    return `${out.join("\n")}\n`;
  }

  /** Helper rules by the key of their body, so an item repeated in several places gets one rule. */
  private readonly auxByKey = new Map<string, string>();

  private freshAux(): string {
    let n: string;
    do n = `${this.current}-${++this.auxCount}`;
    while (this.used.has(n) || this.g.rules.has(n));
    this.used.add(n);
    return n;
  }

  private aux(e: GExpr): string {
    const key = exprKey(e);
    const known = this.auxByKey.get(key);
    if (known !== undefined) return known;
    const n = this.freshAux();
    const saved = this.lines;
    this.lines = [];
    const body = this.expr(e, "alt");
    saved.push(`${n} ::= ${body}`, ...this.lines);
    this.lines = saved;
    this.auxByKey.set(key, n);
    return n;
  }

  /**
   * Alternatives in the order llama.cpp should try them: the widest (the most code points it can begin with) last.
   * llama.cpp expands a rule's alternatives depth-first from a LIFO list, so the last alternative becomes the first
   * stack, and it checks each candidate token against the stacks in order, passing on only the tokens a stack
   * refuses: the stack that accepts most tokens (a string's content class) should come first, so that most tokens
   * meet one stack instead of all of them. Stable, so that equal widths keep their order.
   */
  private forStacks(items: GExpr[]): GExpr[] {
    const w = items.map((it) => this.width.of(it));
    return items
      .map((it, i) => ({ it, i }))
      .sort((a, b) => w[a.i] - w[b.i] || a.i - b.i)
      .map((x) => x.it);
  }

  /**
   * `item*` as the helper rule `R ::= "" | a1 R | a2 R …` (the item's alternatives, widest last). llama.cpp would
   * print `item*` as `S ::= item S |`, whose empty alternative comes last and so is tried first: every candidate
   * token would meet what follows the repetition (a string's closing quote) before the item (the string's content
   * class) on every character. Written with the empty alternative first, the item's stacks come first. One rule per
   * distinct item, shared by every repetition of it.
   */
  private loop(item: GExpr): string {
    const key = `\u0000loop ${exprKey(item)}`;
    const known = this.auxByKey.get(key);
    if (known !== undefined) return known;
    const n = this.freshAux();
    this.auxByKey.set(key, n); // before the body, which names it
    const saved = this.lines;
    this.lines = [];
    const alts = item.type === "alt" ? this.forStacks(factorAlternatives(item.items)) : [item];
    const body = ['""', ...alts.map((a) => `${this.expr(a, "seq")} ${n}`)].join(" | ");
    saved.push(`${n} ::= ${body}`, ...this.lines);
    this.lines = saved;
    return n;
  }

  private expr(e: GExpr, ctx: Ctx): string {
    this.deadline?.tick(STAGE);
    switch (e.type) {
      case "literal":
      case "token":
        return e.text.length === 0 ? '""' : gbnfLiteral(e.text);
      case "charClass":
        return gbnfClass(e.ranges);
      case "ref":
        return this.names.get(e.rule) as string;
      case "seq": {
        if (e.items.length === 0) return ctx === "postfix" ? '("")' : '""';
        if (e.items.length === 1) return this.expr(e.items[0], ctx);
        const s = e.items.map((it) => this.expr(it, "seq")).join(" ");
        return ctx === "postfix" ? `(${s})` : s;
      }
      case "alt": {
        if (e.items.length === 0) return NEVER;
        // shared leading text and single characters folded, so llama.cpp's matcher keeps fewer stacks per position
        const items = this.forStacks(factorAlternatives(e.items));
        if (items.length === 1) return this.expr(items[0], ctx);
        const s = items.map((it) => this.expr(it, "alt")).join(" | ");
        return ctx === "alt" ? s : `(${s})`;
      }
      case "repeat": {
        const s = this.repeat(e.item, e.min, e.max);
        return ctx === "postfix" ? `(${s})` : s;
      }
      case "counted":
        throw countedRefusal(e, "GBNF");
    }
  }

  /** `item{min,max}` as a GBNF sequence (no top-level `|`). */
  private repeat(item: GExpr, min: number, max: number | null): string {
    if (max !== null && max < min) return NEVER;
    if (max === 0) return '""';
    if (min === 1 && max === 1) return this.expr(item, "seq");
    const C = GBNF_MAX_REPEAT;
    // an item that can begin with more than one code point may meet many candidate tokens: its stacks go first
    if (max === null && min <= C && this.width.of(item) > 1) {
      const r = this.loop(item);
      return min === 0 ? r : `${this.repeat(item, min, min)} ${r}`;
    }
    if (max === null && min > C) return `${this.repeat(item, min, min)} ${this.repeat(item, 0, null)}`;
    if (max !== null && max > C) {
      if (min > 0 && min < max) return `${this.repeat(item, min, min)} ${this.repeat(item, 0, max - min)}`;
      // block ::= item{C}; counts are split into whole blocks and a remainder
      const block = this.synthetic(this.aux({ type: "repeat", item, min: C, max: C }));
      const b = (n: number, m: number | null) => this.repeat(block, n, m);
      const q = Math.floor(max / C);
      const r = max % C;
      if (min === max) return [b(q, q), this.repeat(item, r, r)].filter((x) => x !== '""').join(" ");
      // {0,max}: counts below q*C as (block{0,q-1} item{0,C-1}), the rest as (block{q} item{0,r}); the two never overlap
      const low = [b(0, q - 1), this.repeat(item, 0, C - 1)].filter((x) => x !== '""').join(" ");
      const high = [b(q, q), this.repeat(item, 0, r)].filter((x) => x !== '""').join(" ");
      return `(${low} | ${high})`;
    }
    const bound = max !== null && max > 0 ? max : Math.max(min, 1);
    let atom: string;
    if (item.type === "literal" || item.type === "token" || item.type === "charClass" || item.type === "ref") {
      atom = this.expr(item, "postfix");
    } else if (Math.max(1, ruleCost(item)) * bound >= RULE_PRODUCT_LIMIT) {
      atom = this.aux(item);
    } else {
      atom = this.expr(item, "postfix");
    }
    return atom + repetitionSuffix(min, max);
  }

  /** An IR reference that prints as the helper rule `printed` (helper rules are not IR rules). */
  private synthetic(printed: string): GExpr {
    const ir = `\u0000${printed}`;
    this.names.set(ir, printed);
    return { type: "ref", rule: ir };
  }
}

/**
 * GBNF for llama.cpp: `root ::= …` first, then the rules in grammar order (rule names as given; a root named otherwise
 * is printed as `root`), helper rules `<rule>-<n>` after the rule that needs them. Literals are UTF-8 with `\"`, `\\`,
 * `\n`, `\r`, `\t`, `\xHH` escapes; classes print non-ASCII as `\uXXXX` / `\UXXXXXXXX` and use `[^…]` when shorter;
 * repetition bounds above {@link GBNF_MAX_REPEAT} are split into nested rules. `token` nodes print as literals
 * (llama.cpp matches a literal against the special token or its text pieces). Deterministic.
 *
 * Throws ToolgramError "INVALID_INPUT" for an invalid grammar or a left-recursive rule (llama.cpp refuses those).
 * `deadline` counts the work (a compiled grammar passes its compile limits: LIMIT_COMPILE_STEPS/LIMIT_COMPILE_TIME).
 */
export function toGbnf(g: Grammar, deadline?: Deadline): string {
  validateGrammar(g);
  const h = removeNullableLoops(g, deadline);
  const lr = leftRecursiveRules(h, deadline);
  if (lr.length > 0) {
    throw new ToolgramError(
      "INVALID_INPUT",
      `rule "${lr[0]}" is left-recursive (it can reach itself before reading any character); llama.cpp refuses left recursion: rewrite it with a repetition`,
    );
  }
  return new GbnfPrinter(h, deadline).print();
}
