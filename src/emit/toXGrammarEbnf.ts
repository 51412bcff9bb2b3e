import { repetitionSuffix } from "./repetitionSuffix.js";
import { countedRefusal } from "./countedRefusal.js";
import type { GExpr, Grammar } from "../grammar/Grammar.js";
import { isProductive, productiveRules } from "../grammar/analysis/productive.js";
import { removeNullableLoops } from "../grammar/passes/removeNullableLoops.js";
import { validateGrammar } from "../grammar/validateGrammar.js";
import type { Deadline } from "../Deadline.js";

const STAGE = "printing the XGrammar EBNF";

/**
 * Largest repetition bound printed as `{m,n}`. XGrammar (web-xgrammar 0.1.27) reads a repetition whose maximum is
 * above 128 through another path than the expansion it uses below, and that path drops members: `x{2,129}` with
 * `x ::= [a-z] | [\xC2-\xDF] [\x80-\xBF]` refuses "éa" while `x{2,128}` accepts it (a JSON string with
 * `minLength: 2, maxLength: 500` refused values starting with a non-ASCII character). Larger bounds are therefore
 * split into nested rules (`x{300}` → `b{2} x{44}` with `b ::= x{128}`, nested again while a count of blocks is above
 * the limit), so XGrammar only ever reads bounds it expands.
 */
export const XGRAMMAR_MAX_REPEAT = 128;

/**
 * The empty language, for a grammar that derives nothing: a rule that never finishes. XGrammar reads a negated class
 * byte by byte and clamps it to ASCII (`[^\x00-\U0010FFFF]` would become "any non-ASCII byte"), and it has no empty
 * class; expressions that derive nothing are therefore left out, and only an empty root needs this.
 */
const NEVER_BODY = '"\\x00" root';

/**
 * XGrammar's character classes match one byte of UTF-8, not one code point (mlc-ai/xgrammar issues 138 and 848,
 * checked in web-xgrammar 0.1.27): `[α-ω]` never matches "α", and a negated class clamps what it excludes to ASCII.
 * A class is therefore printed as its ASCII part, plus the UTF-8 byte sequences of its other code points as
 * sequences of byte classes (`[\xCE\xFF] [\xB1-\xBF]` for α..ο). A one-byte class gets the byte 0xFF, which never
 * occurs in UTF-8, as a second member: XGrammar reads a class of one byte as the code point, not the byte.
 */
const hex = (cp: number, width: number) => cp.toString(16).toUpperCase().padStart(width, "0");

/** A code point inside an XGrammar string literal: text as UTF-8, escapes for `"`, `\\` and ASCII controls. */
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
  return cp < 0x20 || cp === 0x7f ? `\\u${hex(cp, 4)}` : String.fromCodePoint(cp);
}

function literal(text: string): string {
  let out = '"';
  for (const ch of text) out += literalChar(ch.codePointAt(0) as number);
  return `${out}"`;
}

/** An ASCII code point inside `[...]`: letters, digits and space as themselves, the rest as `\u00HH`. */
function classChar(cp: number): string {
  return /[A-Za-z0-9 ]/.test(String.fromCodePoint(cp)) ? String.fromCodePoint(cp) : `\\u${hex(cp, 4)}`;
}

/** `[lo-hi...]` over ASCII ranges. */
function asciiClass(ranges: readonly number[]): string {
  let out = "[";
  for (let i = 0; i < ranges.length; i += 2) {
    out += classChar(ranges[i]);
    if (ranges[i + 1] > ranges[i]) out += `-${classChar(ranges[i + 1])}`;
  }
  return `${out}]`;
}

/** The UTF-8 bytes of a code point. */
function utf8(cp: number): number[] {
  return [...new TextEncoder().encode(String.fromCodePoint(cp))];
}

/** Boundaries where the UTF-8 length changes. */
const LENGTH_ENDS = [0x7f, 0x7ff, 0xffff, 0x10ffff];

/**
 * The code points lo..hi (no surrogates, all above U+007F) as UTF-8 byte-range sequences: each item is one
 * sequence, a [lo, hi] byte range per position. Split until every position but the last spans a whole range of
 * continuation bytes or a single byte, so each sequence matches exactly its code points.
 */
function utf8Sequences(lo: number, hi: number, out: [number, number][][]): void {
  for (const end of LENGTH_ENDS) {
    if (lo <= end && hi > end) {
      utf8Sequences(lo, end, out);
      utf8Sequences(end + 1, hi, out);
      return;
    }
  }
  const n = utf8(lo).length;
  for (let i = 1; i < n; i++) {
    const m = (1 << (6 * i)) - 1;
    if ((lo & ~m) !== (hi & ~m)) {
      if ((lo & m) !== 0) {
        utf8Sequences(lo, lo | m, out);
        utf8Sequences((lo | m) + 1, hi, out);
        return;
      }
      if ((hi & m) !== m) {
        utf8Sequences(lo, (hi & ~m) - 1, out);
        utf8Sequences(hi & ~m, hi, out);
        return;
      }
    }
  }
  const a = utf8(lo);
  const b = utf8(hi);
  out.push(a.map((x, k) => [x, b[k]]));
}

function byteClass([lo, hi]: [number, number]): string {
  return lo === hi ? `[\\x${hex(lo, 2)}\\xFF]` : `[\\x${hex(lo, 2)}-\\x${hex(hi, 2)}]`;
}

/** A class as XGrammar can match it: the alternatives (an ASCII class, UTF-8 byte sequences). */
function xgClass(ranges: readonly number[]): string[] {
  const out: string[] = [];
  const ascii: number[] = [];
  const seqs: [number, number][][] = [];
  for (let i = 0; i < ranges.length; i += 2) {
    const lo = ranges[i];
    const hi = ranges[i + 1];
    if (lo <= 0x7f) ascii.push(lo, Math.min(hi, 0x7f));
    if (hi > 0x7f) utf8Sequences(Math.max(lo, 0x80), hi, seqs);
  }
  if (ascii.length > 0) out.push(asciiClass(ascii));
  for (const s of seqs) out.push(s.map(byteClass).join(" "));
  return out;
}

type Ctx = "alt" | "seq" | "postfix";

class EbnfPrinter {
  private readonly names = new Map<string, string>();
  private readonly used = new Set<string>();
  private readonly blocks = new Map<string, string>();
  private extra: string[] = [];
  private readonly productive: Set<string>;
  private readonly memo = new Map<GExpr, boolean>();

  constructor(
    private readonly g: Grammar,
    private readonly deadline?: Deadline,
  ) {
    this.productive = productiveRules(g, undefined, deadline);
    // XGrammar's default start rule is `root`; a non-root rule already called `root` is renamed
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
    if (!this.productive.has(this.g.root)) return `root ::= ${NEVER_BODY}\n`;
    // a rule that derives nothing is referenced nowhere once such expressions are left out
    const out = order
      .filter((name) => this.productive.has(name))
      .map((name) => {
        const line = `${this.names.get(name)} ::= ${this.expr(this.g.rules.get(name) as GExpr, "alt")}`;
        // a shared node prints once per use, so the text can outgrow the nodes ticked: every printed byte is a step
        this.deadline?.tick(STAGE, "", line.length);
        return line;
      });
    this.deadline?.tick(
      STAGE,
      "",
      this.extra.reduce((n, l) => n + l.length, 0),
    );
    return `${[...out, ...this.extra].join("\n")}\n`;
  }

  private expr(e: GExpr, ctx: Ctx): string {
    this.deadline?.tick(STAGE);
    switch (e.type) {
      case "literal":
      case "token":
        // XGrammar matches the bytes a token decodes to, so a special token is its text
        return literal(e.text);
      case "charClass": {
        const items = xgClass(e.ranges);
        if (items.length === 1) return ctx === "postfix" && items[0].includes(" ") ? `(${items[0]})` : items[0];
        return ctx === "alt" ? items.join(" | ") : `(${items.join(" | ")})`;
      }
      case "ref":
        return this.names.get(e.rule) as string;
      case "seq": {
        if (e.items.length === 0) return ctx === "postfix" ? '("")' : '""';
        if (e.items.length === 1) return this.expr(e.items[0], ctx);
        const s = e.items.map((it) => this.expr(it, "seq")).join(" ");
        return ctx === "postfix" ? `(${s})` : s;
      }
      case "alt": {
        const items = e.items.filter((it) => this.derives(it));
        if (items.length === 1) return this.expr(items[0], ctx);
        const s = items.map((it) => this.expr(it, "alt")).join(" | ");
        return ctx === "alt" ? s : `(${s})`;
      }
      case "repeat": {
        const s = this.repeat(e.item, e.min, e.max);
        return ctx === "postfix" ? `(${s})` : s;
      }
      case "counted":
        throw countedRefusal(e, "XGrammar's EBNF");
    }
  }

  /** Whether `e` derives some text (the printer is only asked for such expressions, and leaves out the others). */
  private derives(e: GExpr): boolean {
    return isProductive(e, this.productive, undefined, this.memo);
  }

  /** `item{min,max}` as a sequence (no top-level `|` unless parenthesized); only called for a productive repeat. */
  private repeat(item: GExpr, min: number, max: number | null): string {
    if (max === 0 || !this.derives(item)) return '""';
    if (min === 1 && max === 1) return this.expr(item, "seq");
    return this.bounded(this.expr(item, "postfix"), min, max);
  }

  /**
   * `atom{min,max}` (atom: printed as a postfix operand) with every printed bound at most {@link XGRAMMAR_MAX_REPEAT}:
   * larger bounds go through block rules `block ::= atom{C}`, nested again while a count of blocks is too large.
   */
  private bounded(atom: string, min: number, max: number | null): string {
    if (max === 0) return '""';
    if (min === 1 && max === 1) return atom;
    const C = XGRAMMAR_MAX_REPEAT;
    const join = (parts: string[]) => parts.filter((x) => x !== '""').join(" ") || '""';
    if (max === null)
      return min > C ? join([this.bounded(atom, min, min), `${atom}*`]) : atom + repetitionSuffix(min, null);
    if (max <= C) return atom + repetitionSuffix(min, max);
    if (min > 0 && min < max) return join([this.bounded(atom, min, min), this.bounded(atom, 0, max - min)]);
    const block = this.block(atom);
    const q = Math.floor(max / C);
    const r = max % C;
    if (min === max) return join([this.bounded(block, q, q), this.bounded(atom, r, r)]);
    // {0,max}: counts below q*C as block{0,q-1} atom{0,C-1}, the rest as block{q} atom{0,r}; they never overlap
    const low = join([this.bounded(block, 0, q - 1), this.bounded(atom, 0, C - 1)]);
    const high = join([this.bounded(block, q, q), this.bounded(atom, 0, r)]);
    return `(${low} | ${high})`;
  }

  /** The helper rule `atom{C}`, one per distinct atom. */
  private block(atom: string): string {
    const body = atom + repetitionSuffix(XGRAMMAR_MAX_REPEAT, XGRAMMAR_MAX_REPEAT);
    const known = this.blocks.get(body);
    if (known !== undefined) return known;
    let n = "repeat-block";
    for (let i = 2; this.used.has(n) || this.g.rules.has(n); i++) n = `repeat-block-${i}`;
    this.used.add(n);
    this.blocks.set(body, n);
    this.extra.push(`${n} ::= ${body}`);
    return n;
  }
}

/**
 * The grammar in XGrammar's EBNF (the `grammar` of vLLM's `structured_outputs`, SGLang's `ebnf`, XGrammar's
 * `Grammar.from_ebnf` / `compile_grammar`): `root ::= …` first, then the rules in grammar order, helper rules
 * `repeat-block-<n>` last. Literals are UTF-8 text with `\"`, `\\`, `\n`, `\r`, `\t`, `\u00HH` escapes for ASCII
 * controls; classes print ASCII punctuation as `\u00HH` (XGrammar reads `\x` with any number of hex digits) and
 * their code points above U+007F as UTF-8 byte sequences, which is how XGrammar matches classes; repetition bounds
 * above {@link XGRAMMAR_MAX_REPEAT} are split into nested rules. `token` nodes print as their text: XGrammar matches
 * the bytes tokens decode to. Unlike the GBNF, alternatives keep their order and left recursion is kept (XGrammar's
 * Earley parser reads it). Deterministic.
 *
 * Throws ToolgramError "INVALID_INPUT" for an invalid grammar. `deadline` counts the work.
 */
export function toXGrammarEbnf(g: Grammar, deadline?: Deadline): string {
  validateGrammar(g);
  return new EbnfPrinter(removeNullableLoops(g, deadline), deadline).print();
}
