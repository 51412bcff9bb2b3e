import { factorAlternatives } from "./factorAlternatives.js";
import { repetitionSuffix } from "./repetitionSuffix.js";
import { countedRefusal } from "./countedRefusal.js";
import type { GExpr, Grammar } from "../grammar/Grammar.js";
import { isProductive, productiveRules } from "../grammar/analysis/productive.js";
import { removeNullableLoops } from "../grammar/passes/removeNullableLoops.js";
import { validateGrammar } from "../grammar/validateGrammar.js";
import type { Deadline } from "../Deadline.js";

const STAGE = "printing the Lark grammar";

/**
 * Largest repetition count printed as `x~m..n`. Python Lark expands a count range below 50 into one alternative per
 * count and splits larger ones itself, llguidance builds O(log n) rules, and XGrammar's Lark reader turns the range
 * into its own repetition, which drops members above 128 (see `XGRAMMAR_MAX_REPEAT`). Larger counts are therefore
 * split into nested block rules here, as in the XGrammar EBNF, so every reader sees small counts.
 */
export const LARK_MAX_REPEAT = 128;

/** The empty language: a rule that never finishes (Lark has no empty class and no empty string terminal). */
const NEVER_BODY = '"\\u0000" start';

const hex4 = (cp: number) => cp.toString(16).toUpperCase().padStart(4, "0");

/**
 * A code point inside a string literal. Only escapes that llguidance (which reads literals as JSON strings), XGrammar
 * (JSON escapes) and Python Lark (Python string escapes) read alike: `\"`, `\\`, `\n`, `\r`, `\t`, and `\u00HH` for
 * the other ASCII controls (not `\b` or `\f`: Python Lark keeps `\b` as a backslash and a "b"). Everything else is
 * UTF-8 text.
 */
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
  return cp < 0x20 || cp === 0x7f ? `\\u${hex4(cp)}` : String.fromCodePoint(cp);
}

function literal(text: string): string {
  let out = '"';
  for (const ch of text) out += literalChar(ch.codePointAt(0) as number);
  return `${out}"`;
}

/**
 * A code point inside a regex class `/[...]/`. Python Lark turns `\uHHHH` into the character before Python's `re`
 * reads the pattern, so a class's own metacharacters (`]`, `\`, `^`, `-`, `[`) are escaped with a backslash, which
 * Python `re`, Rust `regex` (llguidance) and XGrammar's regex reader all take as the character. Letters and digits
 * print as themselves, other BMP code points as `\uHHHH` (four digits: XGrammar reads `\x` with as many hex digits
 * as follow, and a `/` must not end the regex), and code points above U+FFFF as their UTF-8 text (`\U` and `\u{…}`
 * are not read alike).
 */
function classChar(cp: number): string {
  const ch = String.fromCodePoint(cp);
  if ("]\\^-[".includes(ch)) return `\\${ch}`;
  if (/[A-Za-z0-9]/.test(ch)) return ch;
  return cp <= 0xffff ? `\\u${hex4(cp)}` : ch;
}

/** A class of more than one code point as a one-character regex terminal (always positive: see the doc below). */
function regexClass(ranges: readonly number[]): string {
  let out = "/[";
  for (let i = 0; i < ranges.length; i += 2) {
    out += classChar(ranges[i]);
    if (ranges[i + 1] > ranges[i]) out += `${ranges[i + 1] > ranges[i] + 1 ? "-" : ""}${classChar(ranges[i + 1])}`;
  }
  return `${out}]/`;
}

/** `x~n` / `x~m..n` where Lark has no shorter suffix. */
function countSuffix(min: number, max: number): string {
  const s = repetitionSuffix(min, max);
  if (!s.startsWith("{")) return s;
  return min === max ? `~${min}` : `~${min}..${max}`;
}

class LarkPrinter {
  private readonly names = new Map<string, string>();
  private readonly used = new Set<string>();
  /** Helper rules by body, so that the same group or repetition gets one rule. */
  private readonly helpers = new Map<string, string>();
  private readonly lines: string[] = [];
  private current = "";
  private readonly productive: Set<string>;
  private readonly memo = new Map<GExpr, boolean>();

  constructor(
    private readonly g: Grammar,
    private readonly deadline?: Deadline,
  ) {
    this.productive = productiveRules(g, undefined, deadline);
    // Lark's start rule is `start`; Python Lark names have no `-` (llguidance and XGrammar allow it), and the IR's
    // names have no `_`, so `-` → `_` keeps names distinct
    this.names.set(g.root, "start");
    this.used.add("start");
    for (const name of g.rules.keys()) {
      if (name === g.root) continue;
      const base = name.replaceAll("-", "_");
      let n = base;
      for (let i = 2; this.used.has(n); i++) n = `${base}_${i}`;
      this.names.set(name, n);
      this.used.add(n);
    }
  }

  print(): string {
    if (!this.productive.has(this.g.root)) return `start: ${NEVER_BODY}\n`;
    const order = [this.g.root, ...[...this.g.rules.keys()].filter((n) => n !== this.g.root)];
    // a rule that derives nothing is referenced nowhere once such expressions are left out
    for (const name of order) {
      if (!this.productive.has(name)) continue;
      this.current = this.names.get(name) as string;
      const at = this.lines.length;
      this.lines.splice(at, 0, `${this.current}: ${this.body(this.g.rules.get(name) as GExpr)}`.trimEnd());
    }
    return `${this.lines.join("\n")}\n`;
  }

  /**
   * A rule body: alternatives of sequences, or one `x?` / `x~m..n`. Python Lark multiplies out every group, `?` and
   * count range inside a sequence (`a? b? c?` becomes eight alternatives, `(a | b)~20` a million), so a body never
   * holds more than one of them: the others become helper rules.
   */
  private body(e: GExpr): string {
    this.deadline?.tick(STAGE);
    if (this.empty(e)) return "";
    if (e.type === "alt") {
      const items = factorAlternatives(e.items.filter((it) => this.derives(it)));
      const nonEmpty = items.filter((it) => !this.empty(it));
      if (nonEmpty.length === 1 && items.length === 1) return this.body(nonEmpty[0]);
      const line = [...new Set(nonEmpty.map((it) => this.sequence(it)))].join(" | ");
      // `x | ""` is `x?`
      return nonEmpty.length === items.length ? line : `(${line})?`;
    }
    if (e.type === "repeat" && !(e.min === 1 && e.max === 1)) {
      const atom = this.atom(e.item);
      if (e.max === null || e.min === e.max) return this.counted(atom, e.min, e.max);
      return this.ranged(atom, e.min, e.max);
    }
    return this.sequence(e);
  }

  /** A sequence of items none of which Python Lark multiplies out (terminals, names, `x*`, `x+`, `x~n`). */
  private sequence(e: GExpr): string {
    if (e.type === "seq") {
      return e.items
        .filter((it) => !this.empty(it))
        .map((it) => this.sequence(it))
        .join(" ");
    }
    if (e.type === "repeat" && !this.empty(e)) {
      if (e.min === 1 && e.max === 1) return this.sequence(e.item);
      if (e.max === null || e.min === e.max) return this.counted(this.atom(e.item), e.min, e.max);
    }
    return this.atom(e);
  }

  /** A terminal or a rule name for `e` (a helper rule when `e` is a group, an optional or a count range). */
  private atom(e: GExpr): string {
    switch (e.type) {
      case "literal":
      case "token":
        // the common subset has no special-token syntax (`<|tok|>` is llguidance's and XGrammar's only)
        return literal(e.text);
      case "charClass":
        return e.ranges.length === 2 && e.ranges[0] === e.ranges[1]
          ? literal(String.fromCodePoint(e.ranges[0]))
          : regexClass(e.ranges);
      case "ref":
        return this.names.get(e.rule) as string;
      case "counted":
        throw countedRefusal(e, "Lark");
      default:
        return this.helper(this.body(e));
    }
  }

  /** The helper rule with this body, one per distinct body, printed after the rule that needs it. */
  private helper(body: string): string {
    const known = this.helpers.get(body);
    if (known !== undefined) return known;
    let n: string;
    let i = 1;
    do n = `${this.current}_${i++}`;
    while (this.used.has(n));
    this.used.add(n);
    this.helpers.set(body, n);
    this.lines.push(`${n}: ${body}`);
    return n;
  }

  /** `atom` exactly `min` times, then any number more when `max` is null: a sequence Lark does not multiply out. */
  private counted(atom: string, min: number, max: number | null): string {
    const C = LARK_MAX_REPEAT;
    if (max === null) {
      if (min <= 1) return atom + repetitionSuffix(min, null);
      // Python Lark has no `x~m..`: m copies, then any number more
      return `${this.counted(atom, min, min)} ${atom}*`;
    }
    if (min === 0) return "";
    if (min === 1) return atom;
    if (min <= C) return `${atom}~${min}`;
    const block = this.helper(`${atom}~${C}`);
    return [this.counted(block, Math.floor(min / C), Math.floor(min / C)), this.counted(atom, min % C, min % C)]
      .filter((x) => x !== "")
      .join(" ");
  }

  /**
   * `atom{min,max}` for min < max, as a rule body: `atom?` or `atom~m..n` up to {@link LARK_MAX_REPEAT}, larger
   * counts through block rules (`block: atom~C`), nested while a count of blocks is too large, the same split as
   * the XGrammar EBNF.
   */
  private ranged(atom: string, min: number, max: number): string {
    const C = LARK_MAX_REPEAT;
    if (max <= C) return atom + countSuffix(min, max);
    if (min > 0) return [this.counted(atom, min, min), this.helper(this.ranged(atom, 0, max - min))].join(" ");
    const block = this.helper(`${atom}~${C}`);
    const q = Math.floor(max / C);
    const r = max % C;
    // {0,max}: counts below q*C as block{0,q-1} atom{0,C-1}, the rest as block{q} atom{0,r}; they never overlap
    const part = (a: string, lo: number, hi: number) =>
      hi === 0 ? "" : lo === hi ? this.counted(a, lo, hi) : this.helper(this.ranged(a, lo, hi));
    const low = [part(block, 0, q - 1), part(atom, 0, C - 1)].filter((x) => x !== "").join(" ");
    const high = [part(block, q, q), part(atom, 0, r)].filter((x) => x !== "").join(" ");
    return `${low} | ${high}`;
  }

  /** Whether `e` (which derives something) derives only the empty string, which prints as nothing. */
  private empty(e: GExpr): boolean {
    switch (e.type) {
      case "literal":
      case "token":
        return e.text.length === 0;
      case "charClass":
      case "ref":
        return false;
      case "seq":
        return e.items.every((it) => this.empty(it));
      case "alt":
        return e.items.every((it) => !this.derives(it) || this.empty(it));
      case "repeat":
        return e.max === 0 || !this.derives(e.item) || this.empty(e.item);
      case "counted":
        throw countedRefusal(e, "Lark");
    }
  }

  /** Whether `e` derives some text (the printer is only asked for such expressions, and leaves out the others). */
  private derives(e: GExpr): boolean {
    return isProductive(e, this.productive, undefined, this.memo);
  }
}

/**
 * The grammar in the Lark dialect that Python Lark (Earley), llguidance (vLLM's and SGLang's `guidance` backend,
 * llama.cpp's `%llguidance`) and XGrammar ≥ 0.2.6 (`Grammar.from_lark`) read alike: `start: …` first, then the rules
 * in grammar order (`-` in names becomes `_`, which Python Lark requires), helper rules `repeat_block…` last.
 *
 * The subset, and why:
 * - Rules only (lowercase names), no named terminals, no `%ignore`, `%import` or directives: the grammar's own
 *   whitespace is explicit, so nothing is skipped between lexemes.
 * - Terminals are string literals and one-character regex classes, never a repeated regex: each matches one length
 *   only, so Python Lark's dynamic lexer (one regex match per terminal) and llguidance's longest-match lexer cannot
 *   cut a text differently from the grammar. String literals use the escapes all three read (`\"`, `\\`, `\n`, `\r`,
 *   `\t`, `\u00HH`); a class prints its metacharacters with a backslash, other non-alphanumeric BMP code points as
 *   `\uHHHH` and astral ones as text, and is always positive (no lookaround, no negation, no `\U`).
 * - Repetition: `?`, `*`, `+` and `x~n` / `x~m..n`, the counted form Python Lark reads (llguidance and XGrammar also
 *   read `{m,n}`, Python Lark does not); no count above {@link LARK_MAX_REPEAT} (nested blocks instead), and `x{m,}`
 *   as `x~m x*`.
 * - No empty string terminal (Python Lark refuses `""`): an empty alternative makes its group optional (`(a | b)?`),
 *   an empty rule body is written as nothing after the colon.
 * - `token` nodes print as their text, as in the XGrammar EBNF: the common subset has no special-token syntax. Under
 *   llguidance a literal matches text, not a special token, so a model whose tool-call marker is a special token
 *   must spell it; llguidance's own `<|token|>` syntax would differ (not printed here).
 * Alternatives are factored like the GBNF's (shared leading text, single characters merged into classes); left
 * recursion is kept (all three parse with Earley). Deterministic.
 *
 * Throws ToolgramError "INVALID_INPUT" for an invalid grammar. `deadline` counts the work.
 */
export function toLark(g: Grammar, deadline?: Deadline): string {
  validateGrammar(g);
  return new LarkPrinter(removeNullableLoops(g, deadline), deadline).print();
}
